"""pytest plugin (`-p duocthu.testdb` in pyproject): the tests' database server.

pytest-django reads the settings before any conftest is loaded, so the embedded PostgreSQL
is started here, around that hook, when DATABASE_URL is not set. Under xdist the controller
starts it and the workers inherit its DATABASE_URL.

`database_from_template` lets xdist workers share one corpus load: `<test name>_template`
(migrated, corpus loaded) is built once, and each worker's own database (`test_duocthu_gw0`,
…) is created from it by PostgreSQL, a file copy, instead of every worker migrating and
ingesting the book again. The controller starts building it in a thread as the session
starts, while the workers start and collect (~6 s); a worker that needs it first waits for it
(or builds it, if the controller did not).
"""

import fcntl
import json
import logging
import os
import threading
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from duocthu.devdb import VAR_DIR, use_embedded_database


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_load_initial_conftests() -> Generator[None, None, None]:
    use_embedded_database()
    # The ranked index is scored once for the run's book and loaded by every test worker and
    # every server a test starts (they inherit the environment): retrieval/ranked_store.py.
    os.environ.setdefault("DUOCTHU_RANKED_INDEX_DIR", str(VAR_DIR / "ranked-index"))
    return (yield)


def corpus_path() -> Path:
    """The book the tests load: the shared corpus, or DUOCTHU_TEST_CORPUS."""
    from django.conf import settings

    default = settings.BASE_DIR.parent / "shared" / "corpus" / "duocthu-2018"
    return Path(os.environ.get("DUOCTHU_TEST_CORPUS", default))


def load_corpus(corpus_dir: Path) -> None:
    """Ingest and embed the book, as `setup_local` does, into the current database."""
    from django.conf import settings
    from django.db import connection

    from corpus.access import ensure_reviewer_group
    from corpus.ingest import ingest_formulary
    from corpus.jobs import embed_chunks
    from corpus.models import Chunk

    settings.RUN_JOBS_INLINE = False
    ingest_formulary(corpus_dir)
    # Into a fresh database the vector index is built once after the embedding, the same
    # index (its own definition), instead of growing row by row (~2 s of the set-up).
    hnsw: list[tuple[str, str]] = []
    if not Chunk.objects.exclude(embedding=None).exists():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() "
                "AND tablename = 'corpus_chunk' AND indexdef LIKE '%% USING hnsw %%'"
            )
            hnsw = cursor.fetchall()
            for name, _ in hnsw:
                cursor.execute(f"DROP INDEX {connection.ops.quote_name(name)}")
    embed_chunks()
    with connection.cursor() as cursor:
        for _, definition in hnsw:
            cursor.execute(definition)
    ensure_reviewer_group()
    # What every worker and every server a test starts would build again from this book:
    # the ranked index's scores (stored by their text under RANKED_INDEX_DIR: in a clean
    # clone both workers scored it at once) and the name catalog (stored in the database,
    # so each worker's copy of the template starts with it).
    from retrieval.catalog import get_resolver
    from retrieval.ranked import get_index

    get_index()
    get_resolver()


_prebuild: threading.Thread | None = None


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """The xdist controller builds the workers' template while they start (see above)."""
    global _prebuild
    config = session.config
    if (
        hasattr(config, "workerinput")
        or not getattr(config.option, "numprocesses", None)
        or getattr(config.option, "reuse_db", False)
        or config.option.collectonly
        or not (corpus_path() / "manifest.csv").exists()
    ):
        return
    from pytest_django.plugin import blocking_manager_key

    shared = config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]
    blocker = config.stash[blocking_manager_key]
    template = _template_name(_test_name())

    def build() -> None:
        # The ingest's on-commit job finds no Redis (its warning says so; load_corpus embeds
        # right after), the catalog says it was built: not printed on the controller's
        # terminal, as a worker captures them.
        logging.getLogger("duocthu").setLevel(logging.ERROR)
        with blocker.unblock(), _locked(shared / f"{template}.lock"):
            users = shared / f"{template}.users.json"
            if not users.exists():
                _build(template, lambda: load_corpus(corpus_path()))
                users.write_text("[]")

    _prebuild = threading.Thread(target=build, name="test-template", daemon=True)
    _prebuild.start()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A template the controller built that no worker used (no test needed the database)
    is dropped here; otherwise the last worker done with it drops it."""
    if _prebuild is None:
        return
    _prebuild.join()
    from pytest_django.plugin import blocking_manager_key

    shared = session.config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]
    template = _template_name(_test_name())
    users = shared / f"{template}.users.json"
    with session.config.stash[blocking_manager_key].unblock():
        with _locked(shared / f"{template}.lock"):
            if users.exists() and users.read_text() == "[]" and _exists(template):
                _drop(template)
                users.unlink()


def _test_name() -> str:
    """The test database's name before xdist's per-worker suffix, as pytest-django makes it."""
    from django.db import connection

    name = connection.settings_dict.get("TEST", {}).get("NAME")
    return str(name or "test_" + str(connection.settings_dict["NAME"]))


def _template_name(test_name: str) -> str:
    return test_name + "_template"


@contextmanager
def database_from_template(
    worker: str, shared_dir: Path, load: Callable[[], None]
) -> Iterator[None]:
    """Set this worker's TEST TEMPLATE to a database built once per run (by `load` after
    migrating); the last worker done with it drops it."""
    from django.db import connection

    test = connection.settings_dict.setdefault("TEST", {})
    template = _template_name(str(test["NAME"]).removesuffix(f"_{worker}"))
    users = shared_dir / f"{template}.users.json"
    # Every run (a new pytest basetemp) builds its own: a template left by an earlier run may
    # predate a migration or a corpus change.
    with _locked(shared_dir / f"{template}.lock"):
        if not users.exists() or not _exists(template):
            _build(template, load)
            users.write_text("[]")
        users.write_text(json.dumps([*json.loads(users.read_text()), worker]))
    test["TEMPLATE"] = template
    try:
        yield
    finally:
        test.pop("TEMPLATE", None)
        with _locked(shared_dir / f"{template}.lock"):
            left = [w for w in json.loads(users.read_text()) if w != worker]
            users.write_text(json.dumps(left))
            if not left:
                _drop(template)


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    with path.open("a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _exists(name: str) -> bool:
    from django.db import connection

    with connection._nodb_cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        return cursor.fetchone() is not None


def _build(template: str, load: Callable[[], None]) -> None:
    from django.conf import settings
    from django.db import connection

    test = connection.settings_dict["TEST"]
    name, test_name = connection.settings_dict["NAME"], test["NAME"]
    test["NAME"] = template
    try:
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        load()
    finally:
        # PostgreSQL copies a template only while nobody is connected to it.
        connection.close()
        test["NAME"] = test_name
        connection.settings_dict["NAME"] = settings.DATABASES["default"]["NAME"] = name


def _drop(name: str) -> None:
    from django.db import connection

    with connection._nodb_cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {connection.ops.quote_name(name)}")
