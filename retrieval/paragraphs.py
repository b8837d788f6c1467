"""The book's paragraphs in memory: every chunk of a drug still answered for, as evidence.

Read once per version of the chunks (`corpus.ChunkStamp`, moved by a trigger on every write
of a chunk's text, label, pages or review flags) and of the name tables (retiring a drug
moves that one): the ranked index (`retrieval.ranked`) is built over it, and a section is
read from it instead of from the database, the same rows in the same order (the section
route ran one query per section, ~3 per turn, `bench/chat_turn.py`).
"""

import threading
from collections.abc import Iterable
from dataclasses import dataclass, replace

from corpus.models import Chunk, ChunkStamp
from corpus.sections import SECTION_TITLES
from retrieval.catalog import catalog_version
from retrieval.evidence import Evidence
from retrieval.turn_cache import once_per_turn


def chunk_rows():  # type: ignore[no-untyped-def]
    # A retired drug (ingest --retire) keeps its rows and is answered for no more.
    return (
        Chunk.objects.filter(section__drug__retired_at__isnull=True)
        .select_related("section__drug")
        .defer("embedding", "fts_folded", "fts_exact", "source_text", "previous_source_text")
    )


def as_evidence(chunk: Chunk, score: float = 1.0, route: str = "section") -> Evidence:
    section = chunk.section
    return Evidence(
        chunk_id=chunk.id,
        drug_id=section.drug.drug_id,
        drug_name=section.drug.heading,
        section_key=section.section_key,
        section_title=SECTION_TITLES[section.section_key],
        label=chunk.label,
        kind=chunk.kind,
        text=chunk.text,
        page_start=chunk.page_start,
        page_end=chunk.page_end,
        requires_visual_check=chunk.requires_visual_check,
        has_quarantined_content=chunk.has_quarantined_content,
        content_hash=chunk.content_hash,
        score=score,
        route=route,
    )


@dataclass
class Book:
    stamp: str
    evidence: list[Evidence]  # in chunk id order
    row_of: dict[int, int]  # chunk id → row
    part_of: list[int]  # row → part index in its section
    sections: dict[tuple[str, str], list[int]]  # (drug, section) → rows in book order

    def section(self, drug_id: str, section_key: str) -> list[Evidence]:
        return [self.evidence[row] for row in self.sections.get((drug_id, section_key), ())]

    def chunks(self, chunk_ids: Iterable[int], route: str) -> list[tuple[int, Evidence]]:
        """(part index, evidence) of the chunks still in the book, as `route`."""
        rows = [self.row_of[pk] for pk in chunk_ids if pk in self.row_of]
        return [(self.part_of[row], replace(self.evidence[row], route=route)) for row in rows]


_lock = threading.Lock()
_book: Book | None = None


def _chunk_stamp() -> str:
    version = ChunkStamp.objects.filter(pk=1).values_list("version", flat=True).first()
    return str(version or 0)


def book_stamp() -> str:
    """The chunks' version and the name tables' (each read once per turn)."""
    return f"{once_per_turn('chunks', _chunk_stamp)}:{catalog_version()}"


def book() -> Book:
    """The paragraphs as they are now (read again after an ingest, an edit or a review)."""
    global _book
    stamp = book_stamp()
    with _lock:
        if _book is None or _book.stamp != stamp:
            _book = _read(stamp)
        return _book


def _read(stamp: str) -> Book:
    chunks = list(chunk_rows().order_by("id"))
    evidence = [as_evidence(c) for c in chunks]
    sections: dict[tuple[str, str], list[int]] = {}
    for row, e in enumerate(evidence):
        sections.setdefault((e.drug_id, e.section_key), []).append(row)
    part_of = [c.part_index for c in chunks]
    for rows in sections.values():
        rows.sort(key=lambda row: part_of[row])
    return Book(stamp, evidence, {e.chunk_id: n for n, e in enumerate(evidence)}, part_of, sections)
