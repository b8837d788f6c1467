"""Shared fixtures: the real shared corpus loaded once into the real test database."""

import os
from pathlib import Path

import pytest
from django.conf import settings

CORPUS_DIR = Path(
    os.environ.get(
        "DUOCTHU_TEST_CORPUS", settings.BASE_DIR.parent / "shared" / "corpus" / "duocthu-2018"
    )
)


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    if not (CORPUS_DIR / "manifest.csv").exists():
        pytest.fail(f"The shared corpus is missing at {CORPUS_DIR}; tests need it.")
    return CORPUS_DIR


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker, corpus_dir):  # type: ignore[no-untyped-def]
    from corpus.access import ensure_reviewer_group
    from corpus.ingest import ingest_formulary
    from corpus.jobs import embed_chunks

    with django_db_blocker.unblock():
        settings.RUN_JOBS_INLINE = False
        ingest_formulary(corpus_dir)
        embed_chunks()
        ensure_reviewer_group()


@pytest.fixture(autouse=True)
def _no_redis_for_on_commit(settings):  # type: ignore[no-untyped-def]
    # Embedding jobs queued on commit run inline unless a test brings its own Redis.
    settings.RUN_JOBS_INLINE = True


@pytest.fixture
def free_port() -> int:
    """A loopback port nothing listens on, for a server a test starts."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def test_database_url() -> str:
    """DATABASE_URL of the test database, for processes a test starts (a worker, a server)."""
    from urllib.parse import quote

    from django.db import connection

    db = connection.settings_dict
    return f"postgres://{db['USER']}@{quote(db['HOST'], safe='')}:{db['PORT']}/{db['NAME']}"
