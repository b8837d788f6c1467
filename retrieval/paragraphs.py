"""The chunks as evidence: the one query shape over the chunks still answered for, and the one
mapping of a row to `Evidence` (used by the queries and by the ranked index, which keeps
every paragraph in memory)."""

import sys
from collections.abc import Iterator, Sequence
from functools import reduce
from typing import Any

from corpus.models import Chunk
from corpus.sections import SECTION_TITLES
from retrieval.evidence import Evidence


def chunk_rows():  # type: ignore[no-untyped-def]
    # A retired drug (ingest --retire) keeps its rows and is answered for no more.
    return (
        Chunk.objects.filter(section__drug__retired_at__isnull=True)
        .select_related("section__drug")
        .defer("embedding", "fts_folded", "fts_exact", "source_text", "previous_source_text")
    )


# Each Evidence field's path from a chunk, in Evidence's order.
_FIELDS = (
    "id",
    "section__drug__drug_id",
    "section__drug__heading",
    "section__section_key",
    "label",
    "kind",
    "text",
    "page_start",
    "page_end",
    "requires_visual_check",
    "has_quarantined_content",
    "content_hash",
)


def _evidence(row: Sequence[Any], score: float = 1.0, route: str = "section") -> Evidence:
    pk, drug_id, heading, key, label, kind, text, start, end, visual, held, digest = row
    return Evidence(
        chunk_id=pk,
        drug_id=drug_id,
        drug_name=heading,
        section_key=key,
        section_title=SECTION_TITLES[key],
        label=label,
        kind=kind,
        text=text,
        page_start=start,
        page_end=end,
        requires_visual_check=visual,
        has_quarantined_content=held,
        content_hash=digest,
        score=score,
        route=route,
    )


def as_evidence(chunk: Chunk, score: float = 1.0, route: str = "section") -> Evidence:
    row = [reduce(getattr, path.split("__"), chunk) for path in _FIELDS]
    return _evidence(row, score, route)


def book_paragraphs() -> Iterator[tuple[Evidence, int]]:
    """Every answerable paragraph as evidence with its part index in its section, in id order,
    read as plain rows (model instances of the whole book were ~80 MB at 7× it, issue 23)."""
    for *row, part in chunk_rows().order_by("id").values_list(*_FIELDS, "part_index"):
        # A drug's names, a section's key, a label: one string each, not one per paragraph.
        row[1:6] = map(sys.intern, row[1:6])
        yield _evidence(row), part
