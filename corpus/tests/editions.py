"""Writing a changed monograph into a test copy of the book as a new edition would ship it:
the file and its manifest hash together (a file changed behind the manifest is refused)."""

import csv
import hashlib
import io
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from corpus.summary import IngestSummary


def new_edition(book: Path, name: str, text: str) -> Path:
    file = book / "monographs" / name
    file.write_text(text, encoding="utf-8")
    manifest = book / "manifest.csv"
    rows = list(csv.DictReader(io.StringIO(manifest.read_text(encoding="utf-8"))))
    for row in rows:
        if row["file"] == f"monographs/{name}":
            row["sha256"] = hashlib.sha256(file.read_bytes()).hexdigest()
    out = io.StringIO()
    writer = csv.DictWriter(out, list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    manifest.write_text(out.getvalue(), encoding="utf-8")
    return file


def ingest_edition(book: Path, ids: set[str] | None = None, **options: Any) -> "IngestSummary":
    """Ingest a small copy of the book (holding `ids`, read from it when not given) into the
    database that holds the whole book: the monographs it lacks are retired (their rows
    kept), as `--retire` would."""
    from corpus.ingest import ingest_formulary
    from corpus.models import Drug
    from corpus.sources import read_source

    if ids is None:
        force = options.get("force", False)
        ids = {m.parsed.drug_id for m in read_source(book, force=force)[0]}
    absent = Drug.objects.filter(retired_at__isnull=True).exclude(drug_id__in=ids)
    retire = [*absent.values_list("drug_id", flat=True), *options.pop("retire", [])]
    return ingest_formulary(book, retire=retire, **options)
