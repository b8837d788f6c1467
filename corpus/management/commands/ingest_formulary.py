import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from corpus.ingest import ingest_formulary
from corpus.markdown import CorpusFormatError
from corpus.sources import SourceMonograph


class Command(BaseCommand):
    help = "Load Dược thư Quốc gia Việt Nam 2018: a corpus folder, one markdown file, or the book's PDF."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "path", nargs="?", help="corpus folder or markdown file (default: DUOCTHU_CORPUS_DIR)"
        )
        parser.add_argument(
            "--force",
            action="store_true",
            help="accept a folder without manifest.csv or with a blank sha256, and files with "
            "fewer sections or less text than the database holds (reviewed chunks are kept in "
            "the review queue anyway)",
        )
        parser.add_argument(
            "--retire",
            action="append",
            default=[],
            metavar="DRUG_ID",
            help="a drug of the database this source lacks: keep its rows, marked retired "
            "(repeat for each; without it such a source is refused)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # Before migrate it crashed half-way on "relation corpus_section does not exist".
        executor = MigrationExecutor(connection)
        pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
        if pending:
            raise CommandError(
                f"Cơ sở dữ liệu chưa được migrate ({len(pending)} migration chưa chạy, "
                f"đầu tiên {pending[0][0].app_label}.{pending[0][0].name}); không có gì thay "
                "đổi. Chạy `python manage.py migrate_locked` (hoặc bin/serve) trước."
            )
        path = Path(options["path"] or settings.DUOCTHU_CORPUS_DIR)
        if not path.exists():
            raise CommandError(
                f"No formulary at {path}. Give the path of your copy of the book "
                "(a folder with manifest.csv and monographs/, one markdown file, or a PDF)."
            )
        try:
            summary = ingest_formulary(
                path, progress=self._progress, force=options["force"], retire=options["retire"]
            )
        except CorpusFormatError as exc:
            raise CommandError(f"Nothing was changed. {exc}") from exc
        out = self.stdout.write
        out(
            f"drugs {summary.drugs}, sections {summary.sections}, chunks {summary.chunks}, "
            f"aliases {summary.aliases}, book index entries {summary.book_index_entries}"
        )
        out(
            f"quarantined chunks {summary.quarantined_chunks}, "
            f"unmapped headings {len(summary.unmapped_headings)}, "
            f"sent back to review {summary.sent_back_to_review}"
        )
        for line in summary.unmapped_headings:
            out(f"  unmapped heading: {line}")
        for line in summary.brands_refused:
            out(f"  brand refused: {line}")
        out(
            "sections per key: "
            + ", ".join(f"{k} {v}" for k, v in summary.sections_per_key.items())
        )
        out(
            f"created {dict(+summary.created)}, updated {dict(+summary.updated)}, "
            f"deleted {dict(+summary.deleted)}"
        )
        out(f"drugs kept as they were: {len(summary.kept)}")
        out(f"drugs changed: {_listed(summary.changed_drugs)}")
        out(f"drugs retired by this run: {_listed(summary.retired)}")
        if summary.drugs_not_in_source:
            out(
                "retired, rows kept (not in this source): " + ", ".join(summary.drugs_not_in_source)
            )
        out(
            f"seconds {summary.seconds:.2f} (reading {summary.read_seconds:.2f}, "
            f"writing {summary.write_seconds:.2f})"
        )

    def _progress(self, items: Iterable[SourceMonograph]) -> Iterable[SourceMonograph]:
        items = list(items)
        if sys.stderr.isatty():
            from tqdm import tqdm

            yield from tqdm(items, desc="monographs", unit="")
            return
        for n, item in enumerate(items, 1):
            if n % 25 == 0 or n == len(items):
                self.stderr.write(f"monographs {n}/{len(items)}")
            yield item


def _listed(ids: list[str], shown: int = 20) -> str:
    """A count and the ids ("3: a, b, c"), the first `shown` of a long list."""
    if not ids:
        return "0"
    more = f", … ({len(ids) - shown} more)" if len(ids) > shown else ""
    return f"{len(ids)}: {', '.join(ids[:shown])}{more}"
