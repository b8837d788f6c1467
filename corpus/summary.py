"""What one ingest did: counts, changes per kind, timings (stored with its IngestRun)."""

from collections import Counter
from dataclasses import dataclass, field

from corpus.models import Alias, BookIndexEntry, Chunk, Drug, Section
from corpus.sections import SECTION_ORDER


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
    drugs_not_in_source: list[str] = field(default_factory=list)  # retired, rows kept
    # Per drug of the source: its book text, pages or sections unchanged, or changed; and the
    # drugs this run retired (`--retire`).
    kept: list[str] = field(default_factory=list)
    changed_drugs: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)
    # Rows of corpus/data/vn_brands.csv left out because their name is another drug's.
    brands_refused: list[str] = field(default_factory=list)
    seconds: float = 0.0
    read_seconds: float = 0.0
    write_seconds: float = 0.0
    chunk_write_seconds: float = 0.0  # drugs, sections and chunks: the part bench/ingest.py rates

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
            "created": dict(+self.created),
            "updated": dict(+self.updated),
            "deleted": dict(+self.deleted),
            "sent_back_to_review": self.sent_back_to_review,
            "drugs_not_in_source": self.drugs_not_in_source,
            "kept": self.kept,
            "changed_drugs": self.changed_drugs,
            "retired": self.retired,
            "brands_refused": self.brands_refused,
            "seconds": round(self.seconds, 2),
            "read_seconds": round(self.read_seconds, 2),
            "write_seconds": round(self.write_seconds, 2),
        }


def count_rows(summary: IngestSummary, source_ids: set[str]) -> None:
    """The database's row counts after the write, and which drugs were kept as they were or
    are not in the source (`source_ids`), into the summary."""
    summary.kept = sorted(source_ids - set(summary.changed_drugs))
    absent = Drug.objects.exclude(drug_id__in=source_ids)
    summary.drugs_not_in_source = sorted(absent.values_list("drug_id", flat=True))
    summary.drugs = Drug.objects.count()
    summary.sections = Section.objects.count()
    summary.chunks = Chunk.objects.count()
    summary.aliases = Alias.objects.count()
    summary.book_index_entries = BookIndexEntry.objects.count()
    summary.quarantined_chunks = Chunk.objects.filter(requires_visual_check=True).count()
    per_key = Counter(Section.objects.values_list("section_key", flat=True))
    summary.sections_per_key = dict(sorted(per_key.items(), key=lambda kv: SECTION_ORDER[kv[0]]))
