"""ingest_formulary(): load a copy of the book into the database.

`corpus.sources` reads and validates everything before the first write; here all writes
happen in one transaction, in bulk, so a malformed file changes nothing and the error names
the file and line. Rows are synced, not replaced: an unchanged source changes nothing
(idempotent), a pharmacist's correction survives, and a corrected chunk whose book text
changed goes back to the review queue with both versions kept (`Chunk.take_book_text`).
"""

import re
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from corpus.bulk import copy_insert, copy_rows, indexes_built_after
from corpus.chunk_plan import CHUNK_UPDATES, ChunkPlan, NewChunk, plan_chunks
from corpus.integrity import (
    keep_reviewed,
    refuse_lost_drugs,
    refuse_lost_sections,
    refuse_shrunk_content,
)
from corpus.jobs import enqueue_embedding
from corpus.markdown import ParsedChunk
from corpus.models import (
    Chunk,
    ChunkReview,
    Drug,
    IngestRun,
    Section,
    bump_catalog,
)
from corpus.names import clean_field, sync_aliases, sync_book_index, unambiguous_brands
from corpus.sections import SECTION_ORDER
from corpus.sources import VN_BRANDS, IndexRow, SourceMonograph, read_source, read_vn_brands
from corpus.summary import IngestSummary, count_rows

Progress = Callable[[Iterable[SourceMonograph]], Iterable[SourceMonograph]]


def ingest_formulary(
    path: Path | str,
    *,
    progress: Progress | None = None,
    force: bool = False,
    retire: Iterable[str] = (),
    brands: Path = VN_BRANDS,
) -> IngestSummary:
    """Read a corpus folder (manifest + monographs/ + book-index/), one markdown file or a PDF,
    and the project's table of brands sold in Vietnam (`brands`).

    Refused unless `force` (corpus/integrity.py, corpus/sources.py): a folder without its
    manifest or with a blank hash, a file with fewer sections or less text than its drug has
    in the database. A drug the source lacks is refused unless `retire` names it."""
    started = time.perf_counter()
    path = Path(path)
    monographs, index_rows = read_source(path, force=force)
    index_rows += read_vn_brands(brands)
    read = time.perf_counter()
    retiring = refuse_lost_drugs(monographs, source=str(path), retire=retire)
    refuse_lost_sections(monographs, force=force)
    refuse_shrunk_content(monographs, force=force)
    summary = write_formulary(
        monographs, index_rows, source=str(path), progress=progress, retire=retiring
    )
    summary.read_seconds = read - started
    summary.seconds = time.perf_counter() - started
    return summary


def write_formulary(
    monographs: list[SourceMonograph],
    index_rows: list[IndexRow],
    *,
    source: str,
    progress: Progress | None = None,
    retire: Iterable[str] = (),
) -> IngestSummary:
    """Sync the database with what was read, in one transaction. A drug the source lacks
    keeps all its rows, names included; those in `retire` are marked retired."""
    started = time.perf_counter()
    summary = IngestSummary()
    with transaction.atomic():
        drugs = _sync_drugs(monographs, summary)
        _sync_sections_and_chunks(monographs, drugs, summary, progress)
        summary.retired = sorted(retire)
        Drug.objects.filter(drug_id__in=summary.retired).update(retired_at=timezone.now())
        summary.updated["drugs"] += len(summary.retired)
        summary.chunk_write_seconds = time.perf_counter() - started
        index_rows, summary.brands_refused = unambiguous_brands(monographs, index_rows)
        aliases = sync_aliases(monographs, drugs, index_rows)
        summary.created["aliases"] += aliases.created
        summary.updated["aliases"] += aliases.updated
        summary.deleted["aliases"] += aliases.deleted
        entries = sync_book_index(index_rows, drugs)
        summary.created["book_index_entries"] += entries.created
        summary.deleted["book_index_entries"] += entries.deleted
        count_rows(summary, {m.parsed.drug_id for m in monographs})
        summary.write_seconds = summary.seconds = time.perf_counter() - started
        if summary.changed:
            IngestRun.objects.create(
                source=source, seconds=summary.seconds, summary=summary.as_dict()
            )
            bump_catalog()  # bulk writes send no signals: every worker's resolver is stale now
        # By id, not the model's book order: its joins once took a 7× bench 9 minutes (a
        # nested loop planned on the statistics of the table the bench had just truncated).
        stale = Chunk.objects.exclude(embedded_hash=F("content_hash")).order_by("id")
        enqueue_embedding(stale.values_list("id", flat=True))
    summary.write_seconds = time.perf_counter() - started
    return summary


def _all(items: Iterable[SourceMonograph]) -> Iterable[SourceMonograph]:
    return items


def _sync_drugs(monographs: list[SourceMonograph], summary: IngestSummary) -> dict[str, Drug]:
    existing = {d.drug_id: d for d in Drug.objects.all()}
    drugs: dict[str, Drug] = {}
    new: list[Drug] = []
    changed: list[Drug] = []
    for source in monographs:
        parsed = source.parsed
        atc = sorted(
            set(_atc_codes(parsed.field_text("ma_atc"))), key=parsed.field_text("ma_atc").find
        )
        values = {
            "heading": parsed.heading,
            "inn": clean_field(parsed.field_text("ten_chung_quoc_te")),
            "atc_codes": atc,
            "drug_class": clean_field(parsed.field_text("loai_thuoc")),
            "page_start": source.page_start,
            "page_end": source.page_end,
            "source_file": parsed.path,
            "source_sha256": source.sha256,
            "retired_at": None,  # a retired drug the source brings back is active again
        }
        drug = existing.get(parsed.drug_id)
        if drug is None:
            drug = Drug(drug_id=parsed.drug_id, **values)
            new.append(drug)
        elif any(getattr(drug, k) != v for k, v in values.items()):
            for k, v in values.items():
                setattr(drug, k, v)
            changed.append(drug)
        drugs[parsed.drug_id] = drug
        summary.unmapped_headings += [
            f"{parsed.path}:{line}: {text}" for line, text in parsed.unmapped_headings
        ]
    Drug.objects.bulk_create(new)
    Drug.objects.bulk_update(changed, list(_DRUG_FIELDS))
    summary.changed_drugs += [d.drug_id for d in new + changed]
    summary.created["drugs"] += len(new)
    summary.updated["drugs"] += len(changed)
    return drugs


_DRUG_FIELDS = (
    "heading",
    "inn",
    "atc_codes",
    "drug_class",
    "page_start",
    "page_end",
    "source_file",
    "source_sha256",
    "retired_at",
)


def _sync_sections_and_chunks(
    monographs: list[SourceMonograph],
    drugs: dict[str, Drug],
    summary: IngestSummary,
    progress: Progress | None,
) -> None:
    sections: dict[tuple[int, str], Section] = {
        (s.drug_id, s.section_key): s for s in Section.objects.all()
    }
    chunks: dict[int, dict[int, Chunk]] = defaultdict(dict)
    for chunk in Chunk.objects.defer("embedding", "fts_folded", "fts_exact"):
        chunks[chunk.section_id][chunk.part_index] = chunk
    in_source: set[tuple[int, str]] = set()
    new_sections: list[tuple[Section, list[ParsedChunk], list[tuple[int | None, int | None]]]] = []
    changed_sections: list[Section] = []
    plan = ChunkPlan()
    now = timezone.now()
    for source in (progress or _all)(monographs):
        drug = drugs[source.parsed.drug_id]
        for parsed in source.parsed.sections:
            pages = [source.pages_of(c.start, c.end) for c in parsed.chunks]
            starts = [p[0] for p in pages if p[0] is not None]
            ends = [p[1] for p in pages if p[1] is not None]
            values = {
                "heading": parsed.heading,
                "order": SECTION_ORDER[parsed.key],
                "page_start": min(starts) if starts else None,
                "page_end": max(ends) if ends else None,
            }
            key = (drug.pk, parsed.key)
            in_source.add(key)
            section = sections.get(key)
            if section is None:
                section = Section(drug=drug, section_key=parsed.key, **values)
                new_sections.append((section, parsed.chunks, pages))
                continue
            if any(getattr(section, k) != v for k, v in values.items()):
                for k, v in values.items():
                    setattr(section, k, v)
                changed_sections.append(section)
            section.drug = drug
            plan_chunks(section, chunks.pop(section.pk, {}), parsed.chunks, pages, plan, now)
    # A drug the source lacks keeps every section and chunk (retired, or refused before this).
    in_source_drugs = {d.pk for d in drugs.values()}
    sections = {k: s for k, s in sections.items() if s.drug_id in in_source_drugs}
    drug_of = {s.pk: s.drug_id for s in sections.values()}
    for section_id in [pk for pk in chunks if pk not in drug_of]:
        del chunks[section_id]
    _insert_sections([s for s, _, _ in new_sections])
    Section.objects.bulk_update(changed_sections, ["heading", "order", "page_start", "page_end"])
    for section, parsed_chunks, pages in new_sections:
        plan_chunks(section, {}, parsed_chunks, pages, plan, now)
    stale_sections = [s.pk for key, s in sections.items() if key not in in_source]
    for gone in stale_sections:
        chunks.pop(gone, None)
    plan.stale += [c.pk for left in chunks.values() for c in left.values()]
    # A reviewed or corrected chunk is never deleted (corpus/integrity.py).
    plan.stale, stale_sections, kept, gone_reviews = keep_reviewed(plan.stale, stale_sections, now)
    plan.changed += kept
    plan.reviews += gone_reviews
    # Which drugs this run changes, for the summary's kept / changed lists.
    drug_of.update({s.pk: s.drug_id for s, _, _ in new_sections})
    touched = {s.drug_id for s in changed_sections} | {drug_of[pk] for pk in stale_sections}
    touched |= {drug_of[c.section_id] for c in plan.new}
    touched |= {drug_of[c.section_id] for c in plan.changed}
    touched |= set(
        Chunk.objects.filter(pk__in=plan.stale).values_list("section__drug_id", flat=True)
    )
    by_pk = {d.pk: d.drug_id for d in drugs.values()}
    summary.changed_drugs = sorted(set(summary.changed_drugs) | {by_pk[pk] for pk in touched})
    Chunk.objects.filter(pk__in=plan.stale).delete()
    Section.objects.filter(pk__in=stale_sections).delete()
    with indexes_built_after(Chunk):
        copy_rows(Chunk, NewChunk._fields, plan.new)
    Chunk.objects.bulk_update(plan.changed, list(CHUNK_UPDATES), batch_size=500)
    ChunkReview.objects.bulk_create(plan.reviews)
    summary.created["sections"] += len(new_sections)
    summary.updated["sections"] += len(changed_sections)
    summary.deleted["sections"] += len(stale_sections)
    summary.created["chunks"] += len(plan.new)
    summary.updated["chunks"] += len(plan.changed)
    summary.deleted["chunks"] += len(plan.stale)
    summary.sent_back_to_review += len(plan.reviews)


def _insert_sections(new: list[Section]) -> None:
    """Insert the new sections, then read back their ids (their chunks need them)."""
    copy_insert(Section, new)
    ids = {
        (drug, key): pk
        for drug, key, pk in Section.objects.filter(
            drug_id__in={s.drug_id for s in new}
        ).values_list("drug_id", "section_key", "id")
    }
    for section in new:
        section.pk = ids[(section.drug_id, section.section_key)]
        section._state.adding = False


def _atc_codes(text: str) -> list[str]:
    return re.findall(r"\b[A-Z]\d{2}[A-Z]{2}\d{2}\b|\b[A-Z]\d{2}[A-Z]{1,2}\b", text)
