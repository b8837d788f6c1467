"""Order and locking on a fresh database (issue 21.4, 21.6): ingest refuses it before migrate,
/healthz says migrations are pending, two hosts' `migrate_locked` started together wait for
one lock and exactly one of them migrates; afterwards the health check passes."""

import os
import subprocess
import sys
from collections.abc import Iterator
from urllib.parse import quote

import psycopg
import pytest
from django.conf import settings
from django.db import connection
from django.db.backends.postgresql.base import DatabaseWrapper

from duocthu.health import health
from duocthu.management.commands.migrate_locked import MIGRATE_LOCK

pytestmark = pytest.mark.django_db
FRESH = "dt_fresh_deploy"


def _server(dbname: str = "postgres") -> psycopg.Connection:
    db = connection.settings_dict
    return psycopg.connect(
        host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=dbname, autocommit=True
    )


@pytest.fixture
def fresh_database(django_db_blocker) -> Iterator[str]:  # type: ignore[no-untyped-def]
    with django_db_blocker.unblock(), _server() as server:
        server.execute(f"DROP DATABASE IF EXISTS {FRESH} WITH (FORCE)")
        server.execute(f"CREATE DATABASE {FRESH} ENCODING 'UTF8' TEMPLATE template0")
        yield FRESH
        server.execute(f"DROP DATABASE IF EXISTS {FRESH} WITH (FORCE)")


def _env(dbname: str) -> dict[str, str]:
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{quote(db['HOST'], safe='')}:{db['PORT']}/{dbname}"
    return {**os.environ, "DATABASE_URL": url, "DJANGO_DEBUG": "true"}


def _manage(dbname: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env=_env(dbname),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_two_hosts_starting_together_one_migrates_the_other_waits(
    fresh_database: str, corpus_dir
) -> None:  # type: ignore[no-untyped-def]
    wrapper = DatabaseWrapper({**connection.settings_dict, "NAME": fresh_database})
    try:
        status, text = health(wrapper)
        assert status == 503 and text.startswith("migrations pending: contenttypes.0001_initial")
    finally:
        wrapper.close()

    ingest = _manage(fresh_database, "ingest_formulary", str(corpus_dir))
    out, err = ingest.communicate(timeout=120)
    assert ingest.returncode == 1
    assert "Cơ sở dữ liệu chưa được migrate" in err and "migrate_locked" in err

    with _server(fresh_database) as holder:
        # This test holds the lock, as a first host still migrating would.
        holder.execute("SELECT pg_advisory_lock(%s)", [MIGRATE_LOCK])
        hosts = [_manage(fresh_database, "migrate_locked", "-v1") for _ in range(2)]
        for host in hosts:
            assert host.stdout is not None
            assert host.stdout.readline().strip() == "Another host is migrating; waiting for it."
        tables = holder.execute("SELECT to_regclass('django_migrations')").fetchone()
        assert tables == (None,)  # nobody migrated while the lock was held
        holder.execute("SELECT pg_advisory_unlock(%s)", [MIGRATE_LOCK])
        outputs = []
        for host in hosts:
            out, err = host.communicate(timeout=300)
            assert host.returncode == 0, err
            outputs.append(out)
        (applied,) = holder.execute("SELECT count(*) FROM django_migrations").fetchone() or (0,)
    assert sorted("No migrations to apply." in out for out in outputs) == [False, True]
    assert applied == sum(out.count("... OK") for out in outputs) > 0

    wrapper = DatabaseWrapper({**connection.settings_dict, "NAME": fresh_database})
    try:
        assert health(wrapper) == (200, "ok")
    finally:
        wrapper.close()
