"""The chunks as evidence: the one query shape over the chunks still answered for, and the one
mapping of a row to `Evidence` (used by the queries and by the ranked index, which keeps
every paragraph in memory)."""

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
