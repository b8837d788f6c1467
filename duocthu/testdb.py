"""pytest plugin (`-p duocthu.testdb` in pyproject): the tests' database server.

pytest-django reads the settings before any conftest is loaded, so the embedded PostgreSQL
is started here, around that hook, when DATABASE_URL is not set. Under xdist the controller
starts it and the workers inherit its DATABASE_URL.

`database_from_template` lets xdist workers share one corpus load: the first worker that
needs the database builds `<test name>_template` (migrated, corpus loaded), and each worker's
own database (`test_duocthu_gw0`, …) is created from it by PostgreSQL, a file copy, instead
of every worker migrating and ingesting the book again.
"""

import fcntl
import json
import os
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


@contextmanager
def database_from_template(
    worker: str, shared_dir: Path, load: Callable[[], None]
) -> Iterator[None]:
    """Set this worker's TEST TEMPLATE to a database built once per run (by `load` after
    migrating); the last worker done with it drops it."""
    from django.db import connection

    test = connection.settings_dict.setdefault("TEST", {})
    template = str(test["NAME"]).removesuffix(f"_{worker}") + "_template"
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
