from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connection

# pg_advisory_lock's key, the same on every host: "duocthu" read as a number.
MIGRATE_LOCK = int.from_bytes(b"duocthu", "big")


class Command(BaseCommand):
    help = (
        "migrate under a PostgreSQL advisory lock: of several hosts starting together one "
        "migrates, the others wait for it and then find nothing to do (issue 21: the second "
        "host failed with an IntegrityError and stayed down)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s)", [MIGRATE_LOCK])
            if not cursor.fetchone()[0]:
                self.stdout.write("Another host is migrating; waiting for it.")
                self.stdout.flush()
                cursor.execute("SELECT pg_advisory_lock(%s)", [MIGRATE_LOCK])
            try:
                call_command("migrate", interactive=False, verbosity=options["verbosity"])
            finally:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [MIGRATE_LOCK])
