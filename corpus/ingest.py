"""ingest_formulary(): load the markdown conversion of the book into the database.

Everything is parsed and validated before the first write, and all writes happen in one
transaction, so a malformed file changes nothing and the error names the file and line.
Rows are synced, not replaced: an unchanged source changes nothing (idempotent), a
pharmacist's correction survives, and a corrected chunk whose book text changed goes back
to the review queue with both versions kept.
"""

import csv
import hashlib
import io
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from rapidfuzz import fuzz

from corpus.jobs import enqueue_embedding
from corpus.markdown import (
    CorpusFormatError,
    ParsedChunk,
    ParsedMonograph,
    parse_monograph,
    split_monographs,
)
from corpus.models import (
    Alias,
    BookIndexEntry,
    Chunk,
    ChunkReview,
    Drug,
    IngestRun,
    Section,
    content_hash,
)
from corpus.sections import SECTION_ORDER
from corpus.text import drug_id_for, fold, heading_parts, nfc, words


@dataclass
class SourceMonograph:
    parsed: ParsedMonograph
    page_start: int | None
    page_end: int | None
    sha256: str
    # From a PDF: (character offset inside this monograph, page number) where each page starts.
    page_marks: list[tuple[int, int]] | None = None


@dataclass
class IndexRow:
    name: str
    ingredient: str
    page: int | None
    source: str
    path: str
    line: int


@dataclass
class IngestSummary:
    drugs: int = 0
    sections: int = 0
    chunks: int = 0
    aliases: int = 0
    book_index_entries: int = 0
    quarantined_chunks: int = 0
    unmapped_headings: list[str] = field(default_factory=list)
    sections_per_key: dict[str, int] = field(default_factory=dict)
    created: Counter[str] = field(default_factory=Counter)
    updated: Counter[str] = field(default_factory=Counter)
    deleted: Counter[str] = field(default_factory=Counter)
    sent_back_to_review: int = 0
    drugs_not_in_source: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def changed(self) -> bool:
        return bool(
            sum(self.created.values()) + sum(self.updated.values()) + sum(self.deleted.values())
        )

    def as_dict(self) -> dict[str, object]:
        return {
            "drugs": self.drugs,
            "sections": self.sections,
            "chunks": self.chunks,
            "aliases": self.aliases,
            "book_index_entries": self.book_index_entries,
            "quarantined_chunks": self.quarantined_chunks,
            "unmapped_headings": self.unmapped_headings,
            "sections_per_key": self.sections_per_key,
            "created": dict(self.created),
            "updated": dict(self.updated),
            "deleted": dict(self.deleted),
            "sent_back_to_review": self.sent_back_to_review,
            "drugs_not_in_source": self.drugs_not_in_source,
            "seconds": round(self.seconds, 2),
        }


Progress = Callable[[Iterable[SourceMonograph]], Iterable[SourceMonograph]]


def ingest_formulary(path: Path | str, *, progress: Progress | None = None) -> IngestSummary:
    """Read a corpus folder (manifest + monographs/ + book-index/) or one markdown file."""
    started = time.perf_counter()
    path = Path(path)
    monographs, index_rows = read_source(path)
    summary = IngestSummary()
    with transaction.atomic():
        drugs = _sync_drugs(monographs, summary, progress)
        _sync_aliases(monographs, drugs, index_rows, summary)
        _sync_book_index(index_rows, drugs, summary)
        source_ids = {m.parsed.drug_id for m in monographs}
        summary.drugs_not_in_source = sorted(
            Drug.objects.exclude(drug_id__in=source_ids).values_list("drug_id", flat=True)
        )
        _count(summary)
        summary.seconds = time.perf_counter() - started
        if summary.changed:
            IngestRun.objects.create(
                source=str(path), seconds=summary.seconds, summary=summary.as_dict()
            )
        enqueue_embedding(
            Chunk.objects.exclude(embedded_hash=F("content_hash")).values_list("id", flat=True)
        )
    summary.seconds = time.perf_counter() - started
    return summary


# Reading ---------------------------------------------------------------------------------


def read_source(path: Path) -> tuple[list[SourceMonograph], list[IndexRow]]:
    if path.is_dir():
        monographs = _read_folder(path)
        index_dir = path / "book-index"
    elif path.is_file() and path.suffix.lower() == ".pdf":
        monographs = _read_pdf(path)
        index_dir = path.parent / "book-index"
    elif path.is_file():
        monographs = _read_single_file(path)
        index_dir = path.parent / "book-index"
    else:
        raise CorpusFormatError(str(path), 0, "no such file or folder")
    index_rows = _read_book_index(index_dir) if index_dir.is_dir() else []
    if path.is_file() and path.suffix.lower() != ".pdf":
        _pages_from_index(monographs, index_rows)
    seen: dict[str, SourceMonograph] = {}
    for monograph in monographs:
        other = seen.get(monograph.parsed.drug_id)
        if other is not None:
            raise CorpusFormatError(
                monograph.parsed.path,
                monograph.parsed.line,
                f"drug id {monograph.parsed.drug_id!r} already used by "
                f"{other.parsed.path}:{other.parsed.line}",
            )
        seen[monograph.parsed.drug_id] = monograph
    return monographs, index_rows


def _read_text(path: Path) -> str:
    try:
        return nfc(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[: exc.start].count(b"\n") + 1
        raise CorpusFormatError(str(path), line, "not valid UTF-8") from exc


def _read_folder(folder: Path) -> list[SourceMonograph]:
    manifest = folder / "manifest.csv"
    if not manifest.exists():
        files = sorted((folder / "monographs").glob("*.md")) or sorted(folder.glob("*.md"))
        if not files:
            raise CorpusFormatError(str(folder), 0, "no manifest.csv and no markdown files")
        result = []
        for file in files:
            text = _read_text(file)
            for line, piece in split_monographs(text, str(file)):
                result.append(
                    SourceMonograph(
                        parse_monograph(piece, str(file), line), None, None, _sha(piece)
                    )
                )
        return result
    rows = _read_csv(manifest, ("file", "heading", "page_start", "page_end", "sha256"))
    result = []
    for line, row in rows:
        file = folder / row["file"]
        if not file.exists():
            raise CorpusFormatError(str(manifest), line, f"file {row['file']!r} does not exist")
        start = _page(row["page_start"], manifest, line)
        end = _page(row["page_end"], manifest, line)
        if start is not None and end is not None and end < start:
            raise CorpusFormatError(
                str(manifest), line, f"page_end {end} is before page_start {start}"
            )
        text = _read_text(file)
        result.append(SourceMonograph(parse_monograph(text, str(file)), start, end, _sha(text)))
    return result


def _read_single_file(file: Path) -> list[SourceMonograph]:
    text = _read_text(file)
    return [
        SourceMonograph(parse_monograph(piece, str(file), line), None, None, _sha(piece))
        for line, piece in split_monographs(text, str(file))
    ]


def _read_pdf(file: Path) -> list[SourceMonograph]:
    """The book's PDF: converted by font cues, with each chunk's real page numbers."""
    from corpus.pdf import page_at, pdf_to_markdown

    text, marks = pdf_to_markdown(file)
    line_offsets = [0]
    for line in text.split("\n"):
        line_offsets.append(line_offsets[-1] + len(line) + 1)
    result = []
    for first_line, piece in split_monographs(text, str(file)):
        begin = line_offsets[first_line - 1]
        local = [(0, page_at(marks, begin))] + [
            (start - begin, page) for start, page in marks if begin < start < begin + len(piece)
        ]
        result.append(
            SourceMonograph(
                parse_monograph(piece, str(file), first_line),
                page_start=local[0][1],
                page_end=page_at(marks, begin + len(piece) - 1),
                sha256=_sha(piece),
                page_marks=local,
            )
        )
    return result


def _read_csv(path: Path, required: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    text = _read_text(path)
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in required if c not in (reader.fieldnames or [])]
    if missing:
        raise CorpusFormatError(str(path), 1, f"missing column(s): {', '.join(missing)}")
    rows = []
    for row in reader:
        line = reader.line_num
        if None in row or any(row.get(c) is None for c in required):
            raise CorpusFormatError(str(path), line, "wrong number of columns")
        rows.append((line, {k: (v or "").strip() for k, v in row.items()}))
    return rows


def _page(value: str, path: Path, line: int) -> int | None:
    if value == "":
        return None
    if not value.isdigit():
        raise CorpusFormatError(str(path), line, f"page {value!r} is not a whole number")
    return int(value)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# The book's two index files: (file, source, name column, ingredient column).
_INDEX_FILES = (
    ("brand_index.csv", "brand_index", "brand", "active_ingredient"),
    ("trade_names.csv", "trade_names", "trade_name", "generic"),
)


def _read_book_index(folder: Path) -> list[IndexRow]:
    rows: list[IndexRow] = []
    for filename, source, name_col, ingredient_col in _INDEX_FILES:
        path = folder / filename
        if not path.exists():
            continue
        for line, row in _read_csv(path, (name_col, ingredient_col, "page")):
            rows.append(
                IndexRow(
                    row[name_col],
                    row[ingredient_col],
                    _page(row["page"], path, line),
                    source,
                    str(path),
                    line,
                )
            )
    return [r for r in rows if r.name and r.ingredient]


def _pages_from_index(monographs: list[SourceMonograph], rows: list[IndexRow]) -> None:
    """Without a manifest, take a monograph's first page from the brand index."""
    starts: dict[str, Counter[int]] = defaultdict(Counter)
    for row in rows:
        if row.source == "brand_index" and row.page:
            starts[drug_id_for(row.ingredient)][row.page] += 1
    for monograph in monographs:
        if monograph.page_start is None and starts.get(monograph.parsed.drug_id):
            page = starts[monograph.parsed.drug_id].most_common(1)[0][0]
            monograph.page_start = monograph.page_end = page


# Writing ---------------------------------------------------------------------------------


def _default_progress(items: Iterable[SourceMonograph]) -> Iterable[SourceMonograph]:
    return items


def _sync_drugs(
    monographs: list[SourceMonograph], summary: IngestSummary, progress: Progress | None
) -> dict[str, Drug]:
    existing = {d.drug_id: d for d in Drug.objects.all()}
    drugs: dict[str, Drug] = {}
    for source in (progress or _default_progress)(monographs):
        parsed = source.parsed
        atc = sorted(
            set(_atc_codes(parsed.field_text("ma_atc"))), key=parsed.field_text("ma_atc").find
        )
        values = {
            "heading": parsed.heading,
            "inn": _clean_field(parsed.field_text("ten_chung_quoc_te")),
            "atc_codes": atc,
            "drug_class": _clean_field(parsed.field_text("loai_thuoc")),
            "page_start": source.page_start,
            "page_end": source.page_end,
            "source_file": parsed.path,
            "source_sha256": source.sha256,
        }
        drug = existing.get(parsed.drug_id)
        if drug is None:
            drug = Drug.objects.create(drug_id=parsed.drug_id, **values)
            summary.created["drugs"] += 1
        elif any(getattr(drug, k) != v for k, v in values.items()):
            for k, v in values.items():
                setattr(drug, k, v)
            drug.save()
            summary.updated["drugs"] += 1
        drugs[parsed.drug_id] = drug
        summary.unmapped_headings += [
            f"{parsed.path}:{line}: {text}" for line, text in parsed.unmapped_headings
        ]
        _sync_sections(drug, source, summary)
    return drugs


def _atc_codes(text: str) -> list[str]:
    import re

    return re.findall(r"\b[A-Z]\d{2}[A-Z]{2}\d{2}\b|\b[A-Z]\d{2}[A-Z]{1,2}\b", text)


def _clean_field(text: str) -> str:
    return text.replace("*", "").strip().rstrip(".").strip()


def _pages_of(source: SourceMonograph, start: int, end: int) -> tuple[int | None, int | None]:
    """Estimate a span's printed pages by its character offset inside the monograph.

    The conversion lost the running headers, so this is an interpolation (see the corpus
    README); it is widened by one page each side, within the monograph, so the true page
    is inside the cited range.
    """
    if source.page_marks:
        from corpus.pdf import page_at

        return page_at(source.page_marks, start), page_at(source.page_marks, max(end - 1, start))
    if source.page_start is None or source.page_end is None:
        return source.page_start, source.page_end
    length = max(source.parsed.text_length, 1)
    pages = source.page_end - source.page_start + 1
    first = source.page_start + int(pages * start / length)
    last = source.page_start + int(pages * max(end - 1, start) / length)
    return max(source.page_start, first - 1), min(source.page_end, last + 1)


def _sync_sections(drug: Drug, source: SourceMonograph, summary: IngestSummary) -> None:
    existing = {s.section_key: s for s in drug.sections.all()}
    seen = set()
    for parsed in source.parsed.sections:
        pages = [_pages_of(source, c.start, c.end) for c in parsed.chunks]
        starts = [p[0] for p in pages if p[0] is not None]
        ends = [p[1] for p in pages if p[1] is not None]
        values = {
            "heading": parsed.heading,
            "order": SECTION_ORDER[parsed.key],
            "page_start": min(starts) if starts else None,
            "page_end": max(ends) if ends else None,
        }
        section = existing.get(parsed.key)
        if section is None:
            section = Section.objects.create(drug=drug, section_key=parsed.key, **values)
            summary.created["sections"] += 1
        elif any(getattr(section, k) != v for k, v in values.items()):
            for k, v in values.items():
                setattr(section, k, v)
            section.save()
            summary.updated["sections"] += 1
        seen.add(parsed.key)
        _sync_chunks(section, parsed.chunks, pages, summary)
    stale = [s for key, s in existing.items() if key not in seen]
    for section in stale:
        section.delete()
        summary.deleted["sections"] += 1


def _sync_chunks(
    section: Section,
    parsed_chunks: list[ParsedChunk],
    pages: list[tuple[int | None, int | None]],
    summary: IngestSummary,
) -> None:
    # Only what the comparison needs: the vectors and tsvectors are most of a row's bytes.
    fields = (
        "id",
        "part_index",
        "kind",
        "label",
        "page_start",
        "page_end",
        "source_hash",
        "text",
        "source_text",
        "review_state",
    )
    existing = {c.part_index: c for c in section.chunks.only(*fields)}
    now = timezone.now()
    for index, (parsed, (page_start, page_end)) in enumerate(
        zip(parsed_chunks, pages, strict=True)
    ):
        source_hash = content_hash(parsed.text)
        flagged = parsed.requires_visual_check
        chunk = existing.pop(index, None)
        if chunk is None:
            Chunk.objects.create(
                section=section,
                part_index=index,
                kind=parsed.kind,
                label=parsed.label,
                text=parsed.text,
                source_text=parsed.text,
                page_start=page_start,
                page_end=page_end,
                requires_visual_check=flagged,
                has_quarantined_content=flagged,
                review_state=Chunk.Review.PENDING if flagged else Chunk.Review.NOT_NEEDED,
                content_hash=source_hash,
                source_hash=source_hash,
            )
            summary.created["chunks"] += 1
            continue
        meta = {
            "kind": parsed.kind,
            "label": parsed.label,
            "page_start": page_start,
            "page_end": page_end,
        }
        if chunk.source_hash == source_hash:
            if any(getattr(chunk, k) != v for k, v in meta.items()):
                Chunk.objects.filter(pk=chunk.pk).update(**meta, updated_at=now)
                summary.updated["chunks"] += 1
            continue
        reviewed = chunk.is_edited or chunk.review_state in (
            Chunk.Review.APPROVED,
            Chunk.Review.KEPT,
            Chunk.Review.SOURCE_CHANGED,
        )
        if reviewed:
            # A pharmacist decided on the old text: keep their version, show both, re-review.
            ChunkReview.objects.create(
                chunk=chunk,
                drug_id=section.drug.drug_id,
                section_key=section.section_key,
                part_index=index,
                decision=ChunkReview.Decision.SOURCE_CHANGED,
                before=chunk.source_text,
                after=parsed.text,
                note="Văn bản sách thay đổi khi nạp lại; đoạn đã duyệt/sửa được đưa lại hàng chờ.",
            )
            Chunk.objects.filter(pk=chunk.pk).update(
                **meta,
                previous_source_text=chunk.source_text,
                source_text=parsed.text,
                source_hash=source_hash,
                requires_visual_check=True,
                has_quarantined_content=True,
                review_state=Chunk.Review.SOURCE_CHANGED,
                updated_at=now,
            )
            summary.sent_back_to_review += 1
        else:
            Chunk.objects.filter(pk=chunk.pk).update(
                **meta,
                text=parsed.text,
                source_text=parsed.text,
                source_hash=source_hash,
                content_hash=source_hash,
                requires_visual_check=flagged,
                has_quarantined_content=flagged,
                review_state=Chunk.Review.PENDING if flagged else Chunk.Review.NOT_NEEDED,
                updated_at=now,
            )
        summary.updated["chunks"] += 1
    for chunk in existing.values():
        chunk.delete()
        summary.deleted["chunks"] += 1


def _split_names(text: str) -> list[str]:
    import re

    text = text.replace("*", "")
    names = []
    for part in re.split(r"[;,]\s*|\n+", text):
        part = part.strip().rstrip(".").strip()
        if 1 < len(part) <= 120:
            names.append(part)
    return names


def _match_ingredient(
    row: IndexRow, drugs: dict[str, Drug], by_key: dict[str, set[str]]
) -> str | None:
    """The loaded drug an index row names, or None when its monograph is not loaded."""
    direct = drug_id_for(row.ingredient)
    if direct in drugs:
        return direct
    hits = by_key.get(fold(row.ingredient).strip().rstrip("."), set())
    if len(hits) == 1:
        return next(iter(hits))
    # Same printed page as a loaded monograph, and a name that agrees with it.
    if row.page:
        for drug in drugs.values():
            if drug.page_start is None or drug.page_end is None:
                continue
            if drug.page_start <= row.page <= drug.page_end:
                names = [drug.drug_id.replace("_", " "), fold(drug.inn)]
                if max(fuzz.token_set_ratio(fold(row.ingredient), n) for n in names) >= 85:
                    return drug.drug_id
    return None


def _ingredient_keys(
    drugs: dict[str, Drug], monographs: list[SourceMonograph]
) -> dict[str, set[str]]:
    keys: dict[str, set[str]] = defaultdict(set)
    for source in monographs:
        parsed = source.parsed
        name, other = heading_parts(parsed.heading)
        drug = drugs[parsed.drug_id]
        for value in (name, other, drug.inn, parsed.drug_id.replace("_", " ")):
            for part in _split_names(value.replace("(", ",").replace(")", ",")):
                keys[fold(part)].add(parsed.drug_id)
        # The id without its scope: "salbutamol" for SALBUTAMOL (Dùng trong hô hấp).
        keys[fold(name)].add(parsed.drug_id)
    return keys


def _sync_aliases(
    monographs: list[SourceMonograph],
    drugs: dict[str, Drug],
    index_rows: list[IndexRow],
    summary: IngestSummary,
) -> None:
    wanted: dict[tuple[str, str, str], int | None] = {}

    def want(drug_id: str, name: str, kind: str, page: int | None) -> None:
        name = nfc(name).strip()
        if name and words(name) and (drug_id, name, kind) not in wanted:
            wanted[(drug_id, name, kind)] = page

    for source in monographs:
        parsed = source.parsed
        name, other = heading_parts(parsed.heading)
        want(parsed.drug_id, parsed.heading, Alias.Kind.HEADING, source.page_start)
        want(parsed.drug_id, name, Alias.Kind.HEADING, source.page_start)
        if other and not fold(other).startswith("dung trong"):
            for part in _split_names(other):
                want(parsed.drug_id, part, Alias.Kind.OTHER_NAME, source.page_start)
        for part in parsed.other_names:
            want(parsed.drug_id, part, Alias.Kind.OTHER_NAME, source.page_start)
        inn = _clean_field(parsed.field_text("ten_chung_quoc_te"))
        for part in _split_names(inn.replace("(", ",").replace(")", ",")):
            want(parsed.drug_id, part, Alias.Kind.INN, source.page_start)
        for part in _split_names(parsed.field_text("ten_thuong_mai")):
            want(parsed.drug_id, part, Alias.Kind.TRADE_NAME, source.page_end)
    by_key = _ingredient_keys(drugs, monographs)
    for row in index_rows:
        drug_id = _match_ingredient(row, drugs, by_key)
        if drug_id is not None:
            want(
                drug_id,
                row.name,
                Alias.Kind.BRAND_INDEX if row.source == "brand_index" else Alias.Kind.TRADE_NAME,
                row.page,
            )
    existing = {(a.drug.drug_id, a.name, a.kind): a for a in Alias.objects.select_related("drug")}
    # Names a pharmacist added in the admin are not the book's, so ingest never removes them.
    stale = [
        a.pk for key, a in existing.items() if key not in wanted and a.kind != Alias.Kind.CURATED
    ]
    if stale:
        Alias.objects.filter(pk__in=stale).delete()
        summary.deleted["aliases"] += len(stale)
    new = [
        Alias(drug=drugs[d], name=n, folded=" ".join(words(n)), kind=k, source_page=p)
        for (d, n, k), p in wanted.items()
        if (d, n, k) not in existing
    ]
    Alias.objects.bulk_create(new, batch_size=1000)
    summary.created["aliases"] += len(new)
    changed = [a for key, a in existing.items() if key in wanted and a.source_page != wanted[key]]
    for alias in changed:
        alias.source_page = wanted[(alias.drug.drug_id, alias.name, alias.kind)]
    Alias.objects.bulk_update(changed, ["source_page"])
    summary.updated["aliases"] += len(changed)


def _sync_book_index(
    index_rows: list[IndexRow], drugs: dict[str, Drug], summary: IngestSummary
) -> None:
    by_key: dict[str, set[str]] = defaultdict(set)
    for drug in drugs.values():
        by_key[fold(drug.inn)].add(drug.drug_id)
    wanted: dict[tuple[str, str, str], tuple[str, int | None]] = {}
    for row in index_rows:
        loaded = _match_ingredient(row, drugs, by_key)
        ingredient_id = loaded or drug_id_for(row.ingredient)
        key = (nfc(row.name), ingredient_id, row.source)
        wanted.setdefault(key, (nfc(row.ingredient), row.page))
    existing = {(e.name, e.ingredient_id, e.source): e for e in BookIndexEntry.objects.all()}
    stale = [e.pk for key, e in existing.items() if key not in wanted]
    if stale:
        BookIndexEntry.objects.filter(pk__in=stale).delete()
        summary.deleted["book_index_entries"] += len(stale)
    new = [
        BookIndexEntry(
            name=n, folded=" ".join(words(n)), ingredient=ing, ingredient_id=i, page=page, source=s
        )
        for (n, i, s), (ing, page) in wanted.items()
        if (n, i, s) not in existing
    ]
    BookIndexEntry.objects.bulk_create(new, batch_size=2000)
    summary.created["book_index_entries"] += len(new)


def _count(summary: IngestSummary) -> None:
    summary.drugs = Drug.objects.count()
    summary.sections = Section.objects.count()
    summary.chunks = Chunk.objects.count()
    summary.aliases = Alias.objects.count()
    summary.book_index_entries = BookIndexEntry.objects.count()
    summary.quarantined_chunks = Chunk.objects.filter(requires_visual_check=True).count()
    per_key = Counter(Section.objects.values_list("section_key", flat=True))
    summary.sections_per_key = dict(sorted(per_key.items(), key=lambda kv: SECTION_ORDER[kv[0]]))
