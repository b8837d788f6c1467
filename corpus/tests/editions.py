"""Writing a changed monograph into a test copy of the book as a new edition would ship it:
the file and its manifest hash together (a file changed behind the manifest is refused)."""

import csv
import hashlib
import io
from pathlib import Path


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
