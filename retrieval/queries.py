"""The queries over chunks: exact where the question is exact, ranked only where it is not.

Routes: the section route (a filter, the whole section in book order, score 1.0 by
construction), bounded pooling for `than_trong`, the drug overview, ranked free-form
search (Postgres ts_rank_cd over the folded and exact columns fused with dense search by
reciprocal rank), reverse lookup condition → drugs, and per-facet patient safety evidence.
"""

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db.models import F
from pgvector.django import CosineDistance

from corpus.embedding import EmbeddingUnavailable, get_embedder
from corpus.models import Alias, Chunk
from corpus.sections import OVERVIEW_SECTIONS, SectionKey
from corpus.text import SEARCH_FILLER, fold, folded_phrase, keep_lower
from retrieval.catalog import catalog_version
from retrieval.evidence import (
    MAX_CONTEXT_TOKENS,
    Evidence,
    Packed,
    fuse,
    pack,
)
from retrieval.indication_text import folded_texts, paragraphs_saying, printing_phrase
from retrieval.paragraphs import as_evidence as _evidence
from retrieval.paragraphs import chunk_rows as _chunks
from retrieval.phrases import section_matches
from retrieval.question_words import printed_rare_words
from retrieval.ranked import section_evidence
from retrieval.rerank import rerank
from retrieval.situations import condition_synonyms

logger = logging.getLogger("duocthu.retrieval")

# Pooling for than_trong (seed: a "thận trọng" question about loét dạ dày whose answer sat
# under chống chỉ định). The pharmacology section is excluded outright: on that query it
# scored 6 matched terms against the true section's 7, too close for a threshold.
POOL_ENABLED_SECTIONS = frozenset({SectionKey.THAN_TRONG})
POOL_EXCLUDED_SECTIONS = frozenset({SectionKey.DUOC_LY_VA_CO_CHE_TAC_DUNG})
POOL_MIN_SCORE = 0.1  # ts_rank_cd of a phrase hit; a scattered-word hit scores far below
MAX_POOLED_SECTIONS = 2

# Below this a dense neighbour is noise: with the hashing embedder a made-up phrase still
# reached 0.41 against real Chỉ định text through shared syllables like "bệnh".
DENSE_MIN_SIMILARITY = 0.5
INDICATION_MAX_DRUGS = 8
INDICATION_CHUNKS_PER_DRUG = 2


# Section route ---------------------------------------------------------------------------


def find_by_section(drug_id: str, section_key: str) -> list[Evidence]:
    """Every chunk of one section in book order: no vector, no top-k, no truncation."""
    return section_evidence(drug_id, section_key)


def pooled_neighbours(drug_id: str, section_key: str, query: str) -> list[Evidence]:
    """Other sections of the same drug that match the question strongly (than_trong only)."""
    if section_key not in POOL_ENABLED_SECTIONS:
        return []
    content = _content_phrase(query, drug_id, strip_sections=True)
    if not content:
        return []
    phrase = SearchQuery(content, search_type="phrase", config="vi_unaccent")
    hits = (
        _chunks()
        .filter(section__drug__drug_id=drug_id, fts_folded=phrase)
        .exclude(section__section_key__in={section_key, *POOL_EXCLUDED_SECTIONS})
        .annotate(rank=SearchRank(F("fts_folded"), phrase, cover_density=True))
        .filter(rank__gte=POOL_MIN_SCORE)
        .order_by("-rank", "section__order", "part_index")  # ties in book order, not scan order
    )
    sections: list[str] = []
    pooled = []
    for chunk in hits:
        key = chunk.section.section_key
        if key not in sections:
            if len(sections) >= MAX_POOLED_SECTIONS:
                continue
            sections.append(key)
        pooled.append(_evidence(chunk, float(chunk.rank), route="pooled"))
    return pooled


def retrieve_section(
    drug_id: str, section_key: str, query: str = "", *, pool: bool = False
) -> list[Evidence]:
    evidence = find_by_section(drug_id, section_key)
    if pool:
        evidence += pooled_neighbours(drug_id, section_key, query)
    return evidence


# Overview --------------------------------------------------------------------------------


def drug_overview(drug_id: str, *, intro_only: bool = True) -> list[Evidence]:
    """Prose sections in book order, the display name prefixed to the first chunk."""
    chunks = _chunks().filter(section__drug__drug_id=drug_id, kind=Chunk.Kind.PROSE)
    if intro_only:
        chunks = chunks.filter(section__section_key__in=OVERVIEW_SECTIONS)
    result = []
    for n, chunk in enumerate(chunks.order_by("section__order", "part_index")):
        item = _evidence(chunk, route="overview")
        if n == 0:
            item = replace(item, text=f"【{item.drug_name}】 {item.text}")
        result.append(item)
    return result


# Free-form ranked search -----------------------------------------------------------------


def _content_phrase(query: str, drug_id: str | None = None, *, strip_sections: bool = False) -> str:
    """The question without filler and the drug's own name (and section phrases), folded."""
    folded = folded_phrase(query)
    matches = section_matches(query) if strip_sections else []
    for match in sorted(matches, key=lambda m: -m.start):
        folded = folded[: match.start] + " " + folded[match.start + len(match.phrase) :]
    drug_words = set(drug_id.split("_")) if drug_id else set()
    return " ".join(w for w in folded.split() if w not in SEARCH_FILLER and w not in drug_words)


def lexical_search(
    query: str, *, drug_id: str | None = None, section_keys: Sequence[str] = (), limit: int = 20
) -> list[Evidence]:
    """ts_rank_cd over both columns; an exact-diacritics match counts double."""
    content = _content_phrase(query, drug_id)
    if not content:
        return []
    folded_q = SearchQuery(" | ".join(content.split()), search_type="raw", config="vi_unaccent")
    exact_terms = [w for w in re.findall(r"\w+", keep_lower(query)) if fold(w) in content.split()]
    exact_q = SearchQuery(" | ".join(exact_terms) or "x", search_type="raw", config="simple")
    chunks = _chunks().filter(fts_folded=folded_q)
    if drug_id:
        chunks = chunks.filter(section__drug__drug_id=drug_id)
    if section_keys:
        chunks = chunks.filter(section__section_key__in=list(section_keys))
    ranked = chunks.annotate(
        rank=SearchRank(F("fts_folded"), folded_q, cover_density=True, normalization=1)
        + 2 * SearchRank(F("fts_exact"), exact_q, cover_density=True, normalization=1)
    ).order_by("-rank", "id")[:limit]
    return [_evidence(c, float(c.rank), route="lexical") for c in ranked]


def dense_search(
    query: str,
    *,
    drug_id: str | None = None,
    section_keys: Sequence[str] = (),
    limit: int = 20,
    min_similarity: float = DENSE_MIN_SIMILARITY,
) -> list[Evidence]:
    try:
        embedder = get_embedder()
        vector = embedder.embed([query], query=True)[0]
    except EmbeddingUnavailable as exc:
        logger.warning("dense search skipped: %r", exc)
        return []
    chunks = _chunks().filter(embedding_model=embedder.name).exclude(embedding=None)
    if drug_id:
        chunks = chunks.filter(section__drug__drug_id=drug_id)
    if section_keys:
        chunks = chunks.filter(section__section_key__in=list(section_keys))
    near = chunks.annotate(distance=CosineDistance("embedding", vector)).order_by("distance")[
        :limit
    ]
    return [
        _evidence(c, 1 - float(c.distance), route="dense")
        for c in near
        if 1 - float(c.distance) >= min_similarity
    ]


def free_form(query: str, drug_id: str, *, max_tokens: int = MAX_CONTEXT_TOKENS) -> Packed:
    ranked = fuse(lexical_search(query, drug_id=drug_id), dense_search(query, drug_id=drug_id))
    return pack(rerank(query, ranked), max_tokens)


# Reverse lookup: condition → drugs -------------------------------------------------------


def find_by_indication(
    condition: str, section_key: str = SectionKey.CHI_DINH, *, dense: bool = True
) -> list[Evidence]:
    """Drugs whose Chỉ định (or another section: ADR, contraindications) names the condition,
    ranked: the whole phrase or a phrase the book uses for the same condition (the synonym
    table) counts fully; a contiguous part of two thirds of its words or more counts by its
    share ("viêm loét dạ dày tá tràng" finds "loét dạ dày tá tràng"); an earlier mention in a
    shorter chunk ranks higher. Dense search only when no phrase is found: a made-up condition
    still finds nothing by words."""
    best: dict[int, float] = {}
    drug_of: dict[int, str] = {}
    for phrase, weight in indication_phrases(condition):
        pattern = re.compile(rf"(?<![0-9a-z]){re.escape(phrase)}(?![0-9a-z])")
        found = paragraphs_saying(phrase, section_key)  # from memory, as the texts are
        texts = folded_texts([pk for pk, _ in found])
        for pk, drug_id in found:
            text = texts[pk]
            match = pattern.search(text)
            if match is None:
                continue
            position = len(text[: match.start()].split())
            n_words = len(text.split())
            score = weight * (1 + 1 / (1 + position) + 1 / (1 + n_words / 40))
            if pk not in best or best[pk] < score:
                best[pk] = score
                drug_of[pk] = drug_id
    if best:
        # Only the paragraphs that answer are read whole (the same pick as _group_by_drug's).
        picked = _group_by_drug([_Scored(pk, drug_of[pk], score) for pk, score in best.items()])
        rows = _chunks().in_bulk([p.chunk_id for p in picked])
        return [_evidence(rows[p.chunk_id], p.score, route="indication") for p in picked]
    hits = (
        dense_search(condition, section_keys=[section_key], limit=40)
        if dense and folded_phrase(condition)
        else []
    )
    return _group_by_drug(hits)


def indication_phrases(condition: str) -> list[tuple[str, float]]:
    """(folded phrase, weight): the condition and its synonyms at 1, then its contiguous parts
    of at least two words and two thirds of its length, weighted by their share of it. A part
    keeps every word of the condition rare in the book: "chẩn đoán" is no part of "chẩn đoán
    Kawasaki" (a diagnostic agent's line is no Kawasaki indication)."""
    phrase = folded_phrase(condition)
    if not phrase:
        return []
    found = {phrase: 1.0}
    for synonym in condition_synonyms(phrase):
        found.setdefault(synonym, 1.0)
    tokens = phrase.split()
    rare = set(printed_rare_words(phrase))
    shortest = max(2, -(-2 * len(tokens) // 3))
    for length in range(len(tokens) - 1, shortest - 1, -1):
        for start in range(0, len(tokens) - length + 1):
            if rare - set(tokens[start : start + length]):
                continue
            part = " ".join(tokens[start : start + length])
            found.setdefault(part, length / len(tokens))
            for synonym in condition_synonyms(part):
                found.setdefault(synonym, length / len(tokens))
    return list(found.items())


@dataclass(frozen=True)
class _Scored:
    chunk_id: int
    drug_id: str
    score: float


_G = TypeVar("_G", Evidence, _Scored)


def _group_by_drug(hits: Sequence[_G]) -> list[_G]:
    best: dict[str, float] = {}
    per_drug: dict[str, list[_G]] = {}
    for item in sorted(hits, key=lambda e: -e.score):
        best[item.drug_id] = max(best.get(item.drug_id, 0.0), item.score)
        per_drug.setdefault(item.drug_id, [])
        if len(per_drug[item.drug_id]) < INDICATION_CHUNKS_PER_DRUG:
            per_drug[item.drug_id].append(item)
    drugs = sorted(best, key=lambda d: (-best[d], d))[:INDICATION_MAX_DRUGS]
    return [e for d in drugs for e in per_drug[d]]


# Condition relation and patient safety ---------------------------------------------------


_own_names: dict[tuple[str, str], list[str]] = {}


def own_names(drug_id: str) -> list[str]:
    """A drug's own names (heading, other names, INN), not its brands: how other monographs
    refer to it in their interaction sections. Kept per version of the name tables."""
    key = (catalog_version(), drug_id)
    if key not in _own_names:
        if len(_own_names) > 4096:
            _own_names.clear()
        _own_names[key] = _read_own_names(drug_id)
    return list(_own_names[key])


def _read_own_names(drug_id: str) -> list[str]:
    kinds = [Alias.Kind.HEADING, Alias.Kind.OTHER_NAME, Alias.Kind.INN]
    names = {drug_id.replace("_", " ")}
    names.update(
        n.split("(")[0].strip()
        for n in Alias.objects.filter(drug__drug_id=drug_id, kind__in=kinds).values_list(
            "name", flat=True
        )
    )
    return sorted(n for n in names if n)


def find_condition_in_sections(
    drug_id: str, condition: str, section_keys: Sequence[str]
) -> list[Evidence]:
    """Chunks of the named sections that contain the condition phrase (folded, word-bounded)."""
    phrase = folded_phrase(condition)
    if not phrase:
        return []
    return printing_phrase(drug_id, phrase, section_keys, "condition")
