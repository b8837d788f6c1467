"""The folded text of the paragraphs a which-drug question searches, kept per worker and per
version of the chunks (`corpus.ChunkStamp`, moved by a trigger on every write of them).

`find_by_indication` asks PostgreSQL's full-text index which paragraphs say each phrase of
the condition, then places the phrase in each paragraph's folded words to rank it. Those
paragraphs were fetched whole and folded again for every phrase: at 7× the book (issue 23)
that was 90 % of a which-drug turn (p95 29 → 67 ms as the matching paragraphs grew). Now the
index query returns ids only, the folded text comes from here (folded once per version, from
the ranked index's paragraphs in memory, the database only for one it lacks), and only the
paragraphs that answer are fetched. A drug's own sections are searched for a phrase here too
(`printing_phrase`), with no query at all.
"""

import threading
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from corpus.models import Chunk, ChunkStamp
from corpus.text import folded_phrase
from retrieval.evidence import Evidence
from retrieval.ranked import get_index
from retrieval.turn_cache import once_per_turn

_lock = threading.Lock()
_texts: tuple[str, dict[int, str]] = ("", {})


def _stamp() -> str:
    version = ChunkStamp.objects.filter(pk=1).values_list("version", flat=True).first()
    return str(version or 0)


def folded_texts(ids: list[int]) -> dict[int, str]:
    """Each chunk's text as `folded_phrase` gives it, by id."""
    global _texts
    stamp = once_per_turn("chunks", _stamp)  # the same version the ranked index reads
    with _lock:
        if _texts[0] != stamp:
            _texts = (stamp, {})
        texts = _texts[1]
        missing = [pk for pk in ids if pk not in texts]
    if missing:
        # The paragraphs the ranked index holds are read from it; any other from the database.
        index = get_index()
        rows = {pk: index.row_of[pk] for pk in missing if pk in index.row_of}
        folded = {pk: folded_phrase(index.evidence[row].text) for pk, row in rows.items()}
        rest = [pk for pk in missing if pk not in rows]
        if rest:
            read = Chunk.objects.filter(pk__in=rest).values_list("id", "text")
            folded.update((pk, folded_phrase(text)) for pk, text in read)
        with _lock:
            if _texts[0] == stamp:
                _texts[1].update(folded)
        texts = {**texts, **folded}
    return {pk: texts[pk] for pk in ids}


def printing_phrase(
    drug_id: str, phrase: str, section_keys: Sequence[str], route: str
) -> list[Evidence]:
    """The drug's paragraphs of the sections given (in that order, book order within each)
    whose folded words print the folded phrase, as `route`: the phrase query of the full-text
    index, read from the paragraphs in memory (~2 ms of the database a query, two a turn)."""
    index = get_index()
    rows = [
        row for key in dict.fromkeys(section_keys) for row in index.sections.get((drug_id, key), ())
    ]
    texts = folded_texts([index.evidence[row].chunk_id for row in rows])
    padded = f" {phrase} "
    return [
        replace(index.evidence[row], route=route)
        for row in rows
        if padded in f" {texts[index.evidence[row].chunk_id]} "
    ]


def paragraphs_saying(phrase: str, section_key: str) -> list[tuple[int, str]]:
    """(chunk id, drug) of the section's prose paragraphs whose words hold every pair of the
    folded phrase's words (each word, for one word): the candidates the full-text index's
    phrase query gave, read from the ranked index's postings instead (issue 23: that query
    grew with the matching paragraphs, 1,638 for «tăng huyết áp» at 7× the book, and was half
    a which-drug turn's database time). The caller places the phrase in each one's text."""
    index = get_index()
    said = phrase.split()
    keys = [f"{a}_{b}" for a, b in zip(said, said[1:], strict=False)] or said
    rows = index.section_rows.get(section_key, np.empty(0, dtype=np.intp))
    indices, indptr = index.model.scores["indices"], index.model.scores["indptr"]
    for key in keys:
        column = index.vocab.get(key)
        if column is None or not len(rows):
            return []
        rows = np.intersect1d(rows, indices[indptr[column] : indptr[column + 1]])
    prose = [index.evidence[row] for row in rows]
    return [(e.chunk_id, e.drug_id) for e in prose if e.kind == Chunk.Kind.PROSE]
