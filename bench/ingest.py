"""Ingest speed: the read phase and the write phase apart, on a scratch database.

Reads the shared corpus (or the folder given) once, then writes it RUNS times into an empty
scratch database `duocthu_bench` on the same server (created and dropped here), and once more
over itself (the idempotent re-ingest, no row changes). Prints seconds and chunks/s.

    .venv/bin/python bench/ingest.py [CORPUS_DIR]
"""

import os
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "duocthu.settings")
os.environ["DUOCTHU_RUN_JOBS_INLINE"] = "false"

from duocthu.devdb import use_embedded_database  # noqa: E402

use_embedded_database()
RUNS = 3
SCRATCH = "duocthu_bench"


def _scratch_url() -> str:
    import psycopg

    url = urlsplit(os.environ["DATABASE_URL"])
    admin = urlunsplit(url._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{SCRATCH}"')
        conn.execute(f"CREATE DATABASE \"{SCRATCH}\" TEMPLATE template0 ENCODING 'UTF8'")
    return urlunsplit(url._replace(path=f"/{SCRATCH}"))


def _drop_scratch(url: str) -> None:
    import psycopg

    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{SCRATCH}" WITH (FORCE)')


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared/corpus/duocthu-2018"
    url = os.environ["DATABASE_URL"] = _scratch_url()
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from corpus.ingest import write_formulary
    from corpus.models import Chunk
    from corpus.sources import read_source

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    monographs, index_rows = read_source(source)
    read = time.perf_counter() - started
    chunks = sum(len(s.chunks) for m in monographs for s in m.parsed.sections)
    print(
        f"read {len(monographs)} monographs, {chunks} chunks, {len(index_rows)} index rows: {read:.2f} s"
    )
    writes, chunk_writes = [], []
    for _ in range(RUNS):
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE corpus_drug, corpus_bookindexentry, corpus_ingestrun CASCADE")
        summary = write_formulary(monographs, index_rows, source=str(source))
        assert Chunk.objects.count() == chunks
        writes.append(summary.write_seconds)
        chunk_writes.append(summary.chunk_write_seconds)
    for what, times in (
        ("drugs, sections and chunks", chunk_writes),
        ("the whole write (and aliases, book index, counts)", writes),
    ):
        median = statistics.median(times)
        print(
            f"write into an empty database, {what}: median of {RUNS} {median:.2f} s "
            f"({chunks / median:,.0f} chunks/s), best {min(times):.2f} s"
        )
    again = write_formulary(monographs, index_rows, source=str(source))
    print(f"write over itself (no row changes: {not again.changed}): {again.write_seconds:.2f} s")
    connection.close()
    _drop_scratch(url)


if __name__ == "__main__":
    main()
