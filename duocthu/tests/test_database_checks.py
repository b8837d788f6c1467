"""The database checks (issue 21.1, 21.3): a SQL_ASCII database, a character type that cannot
fold Vietnamese case, and an extension the app's user may not create are refused, each with
the SQL a DBA runs; the test database passes. Real databases on the embedded server."""

import time
from collections.abc import Iterator

import psycopg
import pytest
from django.db import connection

from duocthu.checks import check_database, database_problems

# The module's scratch databases have fixed names: its tests stay on one xdist worker.
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("scratch_databases")]

ROLE = "dt_app_check"


def _server(**kwargs: str) -> psycopg.Connection:
    db = connection.settings_dict
    params = {"host": db["HOST"], "port": db["PORT"], "user": db["USER"], "dbname": "postgres"}
    return psycopg.connect(**{**params, **kwargs}, autocommit=True)


@pytest.fixture(scope="module")
def scratch_databases(django_db_blocker) -> Iterator[dict[str, str]]:  # type: ignore[no-untyped-def]
    """Three databases made as a careless installation would: SQL_ASCII, UTF-8 with a C
    character type, and a UTF-8 one owned by a role that is no superuser."""
    made = {
        "ascii": "dt_check_ascii",
        "ctype": "dt_check_ctype",
        "owned": "dt_check_owned",
    }
    with django_db_blocker.unblock(), _server() as server:
        for name in made.values():
            server.execute(f'DROP DATABASE IF EXISTS "{name}"')
        server.execute(f'DROP ROLE IF EXISTS "{ROLE}"')
        server.execute(f'CREATE ROLE "{ROLE}" LOGIN')
        server.execute(
            f"CREATE DATABASE {made['ascii']} ENCODING 'SQL_ASCII' LC_COLLATE 'C' "
            "LC_CTYPE 'C' TEMPLATE template0"
        )
        server.execute(
            f"CREATE DATABASE {made['ctype']} ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' "
            "TEMPLATE template0"
        )
        server.execute(
            f"CREATE DATABASE {made['owned']} OWNER \"{ROLE}\" ENCODING 'UTF8' "
            "LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8' TEMPLATE template0"
        )
        yield made
        for name in made.values():
            server.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        # FORCE ends the role's sessions, which may still be exiting: dropping the role under
        # them fails inside PostgreSQL ("could not find tuple for role"). Wait for them first.
        for _ in range(100):
            left = server.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE usename = %s", [ROLE]
            ).fetchone()
            if not left or not left[0]:
                break
            time.sleep(0.05)
        server.execute(f'DROP ROLE IF EXISTS "{ROLE}"')


def _problems(dbname: str, user: str | None = None) -> list:  # type: ignore[type-arg]
    extra = {"user": user} if user else {}
    with _server(dbname=dbname, **extra) as conn, conn.cursor() as cursor:
        return database_problems(cursor)


def test_the_test_database_passes() -> None:
    assert check_database() == []


def test_a_sql_ascii_database_is_refused_with_the_create_database_sql(scratch_databases) -> None:  # type: ignore[no-untyped-def]
    problems = _problems(scratch_databases["ascii"])
    assert [p.id for p in problems] == ["duocthu.E001"]
    assert "SQL_ASCII" in problems[0].msg
    assert "ENCODING 'UTF8'" in problems[0].hint and "TEMPLATE template0" in problems[0].hint


def test_a_character_type_that_cannot_fold_vietnamese_case_is_refused(scratch_databases) -> None:  # type: ignore[no-untyped-def]
    problems = _problems(scratch_databases["ctype"])
    assert [p.id for p in problems] == ["duocthu.E002"]
    assert "LC_CTYPE C" in problems[0].msg and "LC_CTYPE 'C.UTF-8'" in problems[0].hint


def test_vector_needs_a_superuser_and_the_check_says_the_sql(scratch_databases) -> None:  # type: ignore[no-untyped-def]
    name = scratch_databases["owned"]
    problems = _problems(name, user=ROLE)
    # unaccent and pg_trgm are trusted extensions: the owner's migrate creates them.
    assert [p.id for p in problems] == ["duocthu.E004"]
    assert "«vector»" in problems[0].msg
    assert f'psql -d "{name}" -c "CREATE EXTENSION IF NOT EXISTS vector;"' in problems[0].hint
    with _server(dbname=name) as superuser:
        superuser.execute("CREATE EXTENSION IF NOT EXISTS vector")
    assert _problems(name, user=ROLE) == []
