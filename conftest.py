"""Shared fixtures: the real shared corpus loaded once into the real test database."""

import csv
from collections.abc import Callable
from pathlib import Path

import pytest

from duocthu.testdb import corpus_path, load_corpus

CORPUS_DIR = corpus_path()


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    if not (CORPUS_DIR / "manifest.csv").exists():
        pytest.fail(f"The shared corpus is missing at {CORPUS_DIR}; tests need it.")
    return CORPUS_DIR


@pytest.fixture(scope="session")
def django_db_modify_db_settings(  # type: ignore[no-untyped-def]
    django_db_modify_db_settings_parallel_suffix,
    request,
    django_db_blocker,
    django_db_keepdb,
    corpus_dir,
    tmp_path_factory,
):
    """Under xdist, each worker's database is a copy of one loaded once (duocthu/testdb.py:
    the controller starts loading it while the workers start and collect); with --reuse-db
    each worker keeps and reloads its own."""
    from duocthu.testdb import database_from_template

    worker = getattr(request.config, "workerinput", {}).get("workerid")
    if not worker or django_db_keepdb:
        yield
        return
    shared = tmp_path_factory.getbasetemp().parent
    with django_db_blocker.unblock():
        with database_from_template(worker, shared, lambda: load_corpus(corpus_dir)):
            with django_db_blocker.block():
                yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker, corpus_dir):  # type: ignore[no-untyped-def]
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    if connection.settings_dict["TEST"].get("TEMPLATE"):
        yield  # created from the loaded template
        return
    created = None
    with django_db_blocker.unblock():
        if connection.settings_dict["NAME"] != connection.creation._get_test_db_name():
            # pytest-django sets up only the databases a marked test asks for: a module run
            # alone whose fixture commits rows for a server it starts (the ward browser
            # tests) has none, and still needs the test database.
            created = setup_databases(verbosity=0, interactive=False, aliases={"default"})
        load_corpus(corpus_dir)
    yield
    if created is not None:
        with django_db_blocker.unblock():
            teardown_databases(created, verbosity=0)


# The longest-running test files (CPU of the whole suite, self and child processes), started
# first: `make test` hands tests out one at a time (--dist loadgroup), so they run side by
# side on the workers while the short tests fill in around them, instead of one of them
# holding up the end of the run alone. (The ward browser module, one xdist group of 9 tests,
# is handed out first anyway: groups go by size.)
LONGEST_FIRST = (
    "duocthu/tests/test_serving.py",
    "answering/tests/test_answers_unchanged.py",
    "duocthu/tests/test_deploy_order.py",
    "answering/tests/test_numbers_in_the_book.py",
    "corpus/tests/test_pdf_ingest.py",
    "answering/tests/test_replay_small_models.py",
    "duocthu/tests/test_settings.py",
    "corpus/tests/test_embedding_job.py",
    "retrieval/tests/test_evaluate_dev_set.py",
    "duocthu/tests/test_devdb_shared.py",
)


# Fixtures that need the test database (the first such test of a worker waits for its copy).
_DATABASE_FIXTURES = {"db", "transactional_db", "django_db_setup"}


def _needs_database(item: pytest.Item) -> bool:
    fixtures = set(getattr(item, "fixturenames", ()))
    return item.get_closest_marker("django_db") is not None or bool(fixtures & _DATABASE_FIXTURES)


@pytest.hookimpl(trylast=True)  # after pytest-django's own order (non-database tests last)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests that need no database first (each worker runs them while the controller
    builds the template database, instead of waiting for it), then the longest, then the
    rest. (pytest-django orders transactional tests after the others; this suite has none.)"""
    rank = {path: n for n, path in enumerate(LONGEST_FIRST)}
    items.sort(
        key=lambda item: (
            _needs_database(item),
            rank.get(item.nodeid.split("::", 1)[0], len(rank)),
        )
    )


# The monographs of a small copy of the book: a table to correct (cetirizin), plain prose
# (omeprazol), an alias to curate (xanh methylen), and the first and last files of the
# manifest (abacavir, warfarin) for errors early and late in a run.
SMALL_BOOK = (
    "abacavir.md",
    "cetirizin-hydroclorid.md",
    "omeprazol.md",
    "warfarin.md",
    "xanh-methylen.md",
)


@pytest.fixture
def small_corpus(corpus_dir: Path, tmp_path: Path) -> Callable[..., Path]:
    """A folder laid out like the shared corpus with a few monographs and their index rows.

    Re-ingest tests write it (a fraction of the full book's ingest time); what they change in
    the database is rolled back with the test.
    """
    from corpus.text import drug_id_for

    def make(files: tuple[str, ...] = SMALL_BOOK) -> Path:
        book = tmp_path / "small-book"
        (book / "monographs").mkdir(parents=True)
        (book / "book-index").mkdir()
        ids = set()
        with (corpus_dir / "manifest.csv").open(encoding="utf-8", newline="") as f:
            reader = csv.DictReader(f)
            rows = [r for r in reader if Path(r["file"]).name in files]
            fields = reader.fieldnames or []
        with (book / "manifest.csv").open("w", encoding="utf-8", newline="") as f:
            writer = csv.DictWriter(f, fields)
            writer.writeheader()
            writer.writerows(rows)
        for row in rows:
            source = corpus_dir / row["file"]
            (book / row["file"]).write_bytes(source.read_bytes())
            ids.add(drug_id_for(row["heading"]))
        for index, ingredient in (
            ("brand_index.csv", "active_ingredient"),
            ("trade_names.csv", "generic"),
        ):
            with (corpus_dir / "book-index" / index).open(encoding="utf-8", newline="") as f:
                reader = csv.DictReader(f)
                kept = [r for r in reader if drug_id_for(r[ingredient]) in ids]
                fields = reader.fieldnames or []
            with (book / "book-index" / index).open("w", encoding="utf-8", newline="") as f:
                writer = csv.DictWriter(f, fields)
                writer.writeheader()
                writer.writerows(kept)
        return book

    return make


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):  # type: ignore[no-untyped-def]
    # Django's advice for tests: PBKDF2 is slow on purpose. The defaults stay listed, so a test
    # can still hash for a server process of its own (which uses the real settings).
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        *settings.PASSWORD_HASHERS,
    ]


@pytest.fixture
def reviewer(db):  # type: ignore[no-untyped-def]
    """A pharmacist of the reviewer group «Dược sĩ duyệt», with admin access."""
    from django.contrib.auth.models import User

    from corpus.access import ensure_reviewer_group

    user = User.objects.create_user("ds_duyet", password="x", is_staff=True)
    user.groups.add(ensure_reviewer_group())
    return user


@pytest.fixture
def doctor(db):  # type: ignore[no-untyped-def]
    """A doctor who uses the chat page (no admin access)."""
    from django.contrib.auth.models import User

    return User.objects.create_user("bs_an", password="mật-khẩu-dài")


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
def test_database_url(django_db_setup) -> str:  # type: ignore[no-untyped-def]
    """DATABASE_URL of the test database, for processes a test starts (a worker, a server):
    set up first (before it, the connection still names the development database)."""
    from urllib.parse import quote

    from django.db import connection

    db = connection.settings_dict
    return f"postgres://{db['USER']}@{quote(db['HOST'], safe='')}:{db['PORT']}/{db['NAME']}"
