"""What an ingest writes for each chunk of a section: new rows, changed rows, stale ids.

A changed chunk whose book text changed goes back to the review queue with both versions
kept (`Chunk.take_book_text`); nothing is written here, only planned.
"""

from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from corpus.markdown import ParsedChunk
from corpus.models import Chunk, ChunkReview, Section, content_hash

CHUNK_META = ("kind", "label", "page_start", "page_end")
# What a re-ingest may change on an existing chunk (all loaded, so bulk_update reads no row).
CHUNK_UPDATES = (
    *CHUNK_META,
    "text",
    "source_text",
    "previous_source_text",
    "source_hash",
    "content_hash",
    "requires_visual_check",
    "has_quarantined_content",
    "review_state",
    "updated_at",
)


class NewChunk(NamedTuple):
    """A new chunk's row as COPY writes it (20,584 Chunk instances cost ~1 s at 7×)."""

    section_id: int
    part_index: int
    kind: str
    label: str
    text: str
    source_text: str
    page_start: int | None
    page_end: int | None
    requires_visual_check: bool
    has_quarantined_content: bool
    review_state: str
    content_hash: str
    source_hash: str
    created_at: datetime
    updated_at: datetime
    previous_source_text: str = ""
    embedding_model: str = ""
    embedded_hash: str = ""


@dataclass
class ChunkPlan:
    """The rows one ingest writes, gathered before any write."""

    new: list["NewChunk"] = field(default_factory=list)
    changed: list[Chunk] = field(default_factory=list)
    reviews: list[ChunkReview] = field(default_factory=list)
    stale: list[int] = field(default_factory=list)


def plan_chunks(
    section: Section,
    existing: dict[int, Chunk],
    parsed_chunks: list[ParsedChunk],
    pages: list[tuple[int | None, int | None]],
    plan: ChunkPlan,
    now: datetime,
) -> None:
    """New, changed and stale chunks of one section, in book order."""
    for index, (parsed, (page_start, page_end)) in enumerate(
        zip(parsed_chunks, pages, strict=True)
    ):
        source_hash = content_hash(parsed.text)
        flagged = parsed.requires_visual_check
        chunk = existing.pop(index, None)
        if chunk is None:
            plan.new.append(
                NewChunk(
                    section.pk,
                    index,
                    parsed.kind,
                    parsed.label,
                    parsed.text,
                    parsed.text,
                    page_start,
                    page_end,
                    flagged,
                    flagged,
                    Chunk.Review.PENDING if flagged else Chunk.Review.NOT_NEEDED,
                    source_hash,
                    source_hash,
                    now,
                    now,
                )
            )
            continue
        meta = dict(zip(CHUNK_META, (parsed.kind, parsed.label, page_start, page_end), strict=True))
        if chunk.source_hash == source_hash and all(
            getattr(chunk, k) == v for k, v in meta.items()
        ):
            continue
        for k, v in meta.items():
            setattr(chunk, k, v)
        chunk.updated_at = now
        if chunk.source_hash != source_hash:
            chunk.section = section
            review = chunk.take_book_text(parsed.text, flagged=flagged, now=now)
            if review is not None:
                plan.reviews.append(review)
        plan.changed.append(chunk)
    plan.stale += [c.pk for c in existing.values()]
