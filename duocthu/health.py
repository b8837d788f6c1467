"""`/healthz` for the TLS proxy and the load balancer (issue 21): 200 while this process can
query the database and every migration of this code is applied, 503 otherwise.

Answered before any other middleware: the probe comes by address (no ALLOWED_HOSTS name), on
plain HTTP (no TLS redirect), with no session, and is never counted by the login lockout.
"""

import logging
from collections.abc import Callable

from django.db import DatabaseError, connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger("duocthu.health")

PATH = "/healthz"
# Once this code's migrations are applied to a database they stay applied for the life of the
# process (a new version is a new process); the database itself is asked on every probe.
_migrated: set[tuple[str, str]] = set()


def pending_migrations(db: BaseDatabaseWrapper = connection) -> list[str]:
    """Migrations of this code not yet applied to the database, as app.name."""
    executor = MigrationExecutor(db)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{migration.app_label}.{migration.name}" for migration, _ in plan]


def health(db: BaseDatabaseWrapper = connection) -> tuple[int, str]:
    key = (str(db.settings_dict["HOST"]), str(db.settings_dict["NAME"]))
    try:
        with db.cursor() as cursor:
            cursor.execute("SELECT 1")
        if key not in _migrated:
            pending = pending_migrations(db)
            if pending:
                return 503, "migrations pending: " + ", ".join(pending)
            _migrated.add(key)
    except DatabaseError as exc:
        logger.warning("health check: database unavailable: %r", exc)
        return 503, "database unavailable"
    return 200, "ok"


class HealthCheckMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info != PATH:
            return self.get_response(request)
        status, text = health()
        response = HttpResponse(text + "\n", status=status, content_type="text/plain")
        response["Cache-Control"] = "no-store"
        return response


def warm_worker() -> None:
    """Builds a new worker's name catalog and ranked index before it accepts a request
    (gunicorn.conf.py's post_worker_init): the first turns on a restarted host waited for
    them, and under load some ran past the client's timeout. A database that does not answer
    is left for the requests to report (503)."""
    from retrieval.catalog import get_resolver
    from retrieval.ranked import get_index
    from retrieval.turn_cache import one_turn

    try:
        with one_turn():
            get_resolver()
            get_index()
    except DatabaseError as exc:
        logger.warning("worker warm-up skipped: database unavailable: %r", exc)
