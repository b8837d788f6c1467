"""What an ingest may not do to the database: lose sections without being told to, or delete
a chunk a pharmacist reviewed.

A monograph file cut off mid-table parses cleanly into fewer sections; syncing it would delete
the missing sections with their chunks, approved corrections included. So a file that brings
fewer sections than the database holds for its drug is refused, naming the file and the
sections, unless the run is forced; and even a forced run never deletes a reviewed or
corrected chunk: it stays, marked as no longer in the book, back in the review queue.
"""

from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime

from corpus.markdown import CorpusFormatError
from corpus.models import Chunk, ChunkReview, Section
from corpus.sources import SourceMonograph

_REVIEWED = (Chunk.Review.APPROVED, Chunk.Review.KEPT, Chunk.Review.SOURCE_CHANGED)
GONE_NOTE = (
    "Đoạn đã duyệt/sửa không còn trong sách khi nạp lại; được giữ lại và đưa về hàng chờ "
    "để dược sĩ quyết định."
)


def refuse_lost_sections(monographs: Iterable[SourceMonograph], *, force: bool) -> None:
    """Raise for the first file that would remove sections its drug has in the database."""
    if force:
        return
    held: dict[str, set[str]] = defaultdict(set)
    for drug_id, key in Section.objects.values_list("drug__drug_id", "section_key"):
        held[drug_id].add(key)
    for source in monographs:
        parsed = source.parsed
        missing = held.get(parsed.drug_id, set()) - {s.key for s in parsed.sections}
        if missing:
            raise CorpusFormatError(
                parsed.path,
                parsed.line,
                f"{parsed.heading}: {len(parsed.sections)} sections in the file, "
                f"{len(held[parsed.drug_id])} in the database (missing: "
                f"{', '.join(sorted(missing))}); refused — a cut-off file would delete them. "
                "Re-run with --force to accept the removal (reviewed chunks are kept anyway)",
            )


def is_reviewed(chunk: Chunk) -> bool:
    return chunk.is_edited or chunk.review_state in _REVIEWED


def keep_reviewed(
    stale: Iterable[int], stale_sections: Iterable[int], now: datetime
) -> tuple[list[int], list[int], list[Chunk], list[ChunkReview]]:
    """(chunk ids to delete, section ids to delete, reviewed chunks kept and changed, their
    history rows). A kept chunk's book text is gone: it goes back to the queue with its
    last book text as the previous version; its section is kept with it."""
    stale_sections = list(stale_sections)
    candidates = Chunk.objects.select_related("section__drug").defer(
        "embedding", "fts_folded", "fts_exact"
    )
    doomed = list(candidates.filter(pk__in=list(stale))) + list(
        candidates.filter(section_id__in=stale_sections)
    )
    kept: list[Chunk] = []
    reviews: list[ChunkReview] = []
    for chunk in doomed:
        if not is_reviewed(chunk):
            continue
        if chunk.review_state == Chunk.Review.SOURCE_CHANGED and not chunk.source_text:
            kept.append(chunk)  # already kept from an earlier ingest: nothing new to record
            continue
        reviews.append(
            chunk._history(
                ChunkReview.Decision.SOURCE_CHANGED, chunk.source_text, "", GONE_NOTE, None
            )
        )
        chunk.previous_source_text = chunk.source_text
        chunk.source_text = ""
        chunk.source_hash = ""  # the book text coming back is a change, seen on the next ingest
        chunk.requires_visual_check = chunk.has_quarantined_content = True
        chunk.review_state = Chunk.Review.SOURCE_CHANGED
        chunk.updated_at = now
        kept.append(chunk)
    kept_ids = {c.pk for c in kept}
    sections_kept = {c.section_id for c in kept}
    delete_chunks = [c.pk for c in doomed if c.pk not in kept_ids]
    delete_sections = [s for s in stale_sections if s not in sections_kept]
    return delete_chunks, delete_sections, kept, reviews
