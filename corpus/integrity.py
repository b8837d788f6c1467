"""What an ingest may not do to the database: lose a drug, a section or content without being
told to, or delete a chunk a pharmacist reviewed.

A drug of the database that the new source lacks is refused by name unless the run retires it
(`--retire warfarin`: its rows are kept, marked retired; a monograph and its manifest row both
removed deleted warfarin's 44 chunks in issue 19's red-team run). A monograph whose text
shrinks by more than SHRINK_LIMIT, in all or in one section, is refused unless forced: a file
cut inside its last section keeps every section and only loses text.

A monograph file cut off mid-table parses cleanly into fewer sections; syncing it would delete
the missing sections with their chunks, approved corrections included. So a file that brings
fewer sections than the database holds for its drug is refused, naming the file and the
sections, unless the run is forced; and even a forced run never deletes a reviewed or
corrected chunk: it stays, marked as no longer in the book, back in the review queue.
"""

from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime

from django.db.models import Sum
from django.db.models.functions import Length

from corpus.markdown import CorpusFormatError
from corpus.models import Chunk, ChunkReview, Drug, Section
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


def refuse_lost_drugs(
    monographs: Iterable[SourceMonograph], *, source: str, retire: Iterable[str]
) -> list[str]:
    """The drugs to retire now; raise for an active drug the source lacks and `retire` does
    not name, and for a `retire` name that is not such a drug."""
    in_source = {m.parsed.drug_id for m in monographs}
    active = dict(
        Drug.objects.filter(retired_at__isnull=True).values_list("drug_id", "source_file")
    )
    retire = sorted(set(retire))
    wrong = [d for d in retire if d not in active or d in in_source]
    if wrong:
        raise CorpusFormatError(
            source,
            0,
            f"--retire {', '.join(wrong)}: not a drug of the database that this source lacks",
        )
    lost = sorted(set(active) - in_source - set(retire))
    if lost:
        raise CorpusFormatError(
            source,
            0,
            f"{len(lost)} drug(s) of the database are not in this source: "
            + ", ".join(f"{d} ({active[d]})" for d in lost)
            + "; refused — their sections and chunks would be lost. Re-run with "
            + " ".join(f"--retire {d}" for d in lost)
            + " to keep them as retired",
        )
    return retire


# A cut file loses text, not sections: the red team's warfarin cut inside its last section
# (172 characters of 29,977) passed the section count. Each section and the whole monograph
# may lose at most this fraction of their characters against the last ingest; a loss under
# SHRINK_FLOOR characters (a word corrected) is not counted.
SHRINK_LIMIT = 0.2
SHRINK_FLOOR = 20


def refuse_shrunk_content(monographs: Iterable[SourceMonograph], *, force: bool) -> None:
    """Raise for the first monograph or section whose book text shrank past SHRINK_LIMIT."""
    if force:
        return
    held: dict[str, dict[str, int]] = defaultdict(dict)
    sizes = (
        Chunk.objects.values_list("section__drug__drug_id", "section__section_key")
        .annotate(size=Sum(Length("source_text")))
        .order_by()
    )
    for drug_id, key, size in sizes:
        held[drug_id][key] = size or 0
    for source in monographs:
        parsed = source.parsed
        before = held.get(parsed.drug_id)
        if not before:
            continue
        now = {s.key: sum(len(c.text) for c in s.chunks) for s in parsed.sections}
        places = [(s.line, s.key, before.get(s.key, 0), now[s.key]) for s in parsed.sections]
        places.append((parsed.line, "the monograph", sum(before.values()), sum(now.values())))
        for line, where, old, new in places:
            if old - new >= SHRINK_FLOOR and new < old * (1 - SHRINK_LIMIT):
                raise CorpusFormatError(
                    parsed.path,
                    line,
                    f"{parsed.heading}: {where} has {new:,} characters, {old:,} at the last "
                    f"ingest (more than {SHRINK_LIMIT:.0%} lost); refused — a cut-off file. "
                    "Re-run with --force to accept it",
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
