"""Plain ranked retrieval: BM25 over the book's paragraphs, no rules.

The floor under every reading of a question (issue 17) and the measure its rules are held
against. Each paragraph is a bag of folded syllables, their bigrams ("loet_da", "da_day")
and, for syllables with diacritics, the exact syllable ("=dạ": typed with diacritics, `dạ`
is preferred over `da`). IDF comes from the whole book; a search kept to some drugs or
sections ranks only their paragraphs, with the book's IDF.

What a question says as these words, and which of them a paragraph says, is
`retrieval.question_words`. The index is built in memory with `bm25s` (a maintained,
numpy-only BM25) from every chunk, once per version of the chunks (`corpus.ChunkStamp`,
moved by a trigger on every write of their text), ~0.5 s for the shared corpus."""

import logging
import math
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import bm25s
import numpy as np

from corpus.memory import give_back_freed_memory
from corpus.models import ChunkStamp
from corpus.text import (
    typed_words,
    uncached_typed_words,
    uncached_words,
    words,
)
from retrieval.evidence import Evidence
from retrieval.paragraphs import book_paragraphs
from retrieval.ranked_store import stored_or_built
from retrieval.turn_cache import once_per_turn

logging.getLogger("bm25s").setLevel(logging.WARNING)  # its index build logs at debug


def tokens(text: str, *, exact: bool = True) -> list[str]:
    """Folded syllables, their bigrams and (typed with diacritics) the exact syllables."""
    return _tokens(words(text), typed_words(text) if exact else None)


def _tokens(folded: list[str], kept: list[str] | None) -> list[str]:
    out = folded + [f"{a}_{b}" for a, b in zip(folded, folded[1:], strict=False)]
    if kept is not None and len(kept) == len(folded):
        out += [f"={k}" for f, k in zip(folded, kept, strict=True) if f != k]
    return out


@dataclass
class _Index:
    stamp: str
    model: bm25s.BM25
    chunk_ids: np.ndarray
    evidence: list[Evidence]  # per row: the paragraph as evidence, for searches to return
    vocab: dict[str, int]  # token → its column
    df: np.ndarray  # column → the paragraphs that say the token
    n: int
    row_of: dict[int, int]  # chunk id → row
    part_of: list[int]  # row → the chunk's part index in its section
    sections: dict[tuple[str, str], list[int]]  # (drug, section) → rows in book order
    drug_rows: dict[str, np.ndarray]  # drug → its rows
    section_rows: dict[str, np.ndarray]  # section key → its rows

    def says(self, word: str) -> bool:
        """Whether some paragraph says the folded word (or pair)."""
        column = self.vocab.get(word)
        return column is not None and self.df[column] > 0

    def idf(self, word: str) -> float:
        column = self.vocab.get(word)
        df = int(self.df[column]) if column is not None else 0
        return math.log((self.n - df + 0.5) / (df + 0.5) + 1)


_lock = threading.Lock()
_index: _Index | None = None
# The last few indexes by stamp: a stamp seen again is the same chunks (a test's rolled-back
# edit returns to the previous one, rebuilt each time before, ~2 s of CPU).
_built: "OrderedDict[str, _Index]" = OrderedDict()
_KEEP = 3


def _stamp() -> str:
    """The chunks' version, moved by a database trigger on every write of their text."""
    version = ChunkStamp.objects.filter(pk=1).values_list("version", flat=True).first()
    return str(version or 0)


def get_index() -> _Index:
    """The index of the chunks as they are now (rebuilt after an ingest or an edit)."""
    global _index
    # Retiring or renaming a drug moves the chunks' stamp too (migration 0013), not only a
    # write of their text; an alias edit does not, and rebuilds nothing here.
    stamp = once_per_turn("chunks", _stamp)
    with _lock:
        if _index is None or _index.stamp != stamp:
            if (_index := _built.get(stamp)) is None:
                _index = _build(stamp)
                give_back_freed_memory()
            _built[stamp] = _index
            _built.move_to_end(stamp)
            while len(_built) > _KEEP:
                _built.popitem(last=False)
        return _index


def _build(stamp: str) -> _Index:
    chunks: list[Evidence] = []
    part_of: list[int] = []
    for evidence, part in book_paragraphs():
        chunks.append(evidence)
        part_of.append(part)
    rows = [(e.chunk_id, e.drug_id, e.section_key) for e in chunks]
    sections: dict[tuple[str, str], list[int]] = {}
    for row, (_, drug_id, section_key) in enumerate(rows):
        sections.setdefault((drug_id, section_key), []).append(row)
    for members in sections.values():
        members.sort(key=lambda row: part_of[row])
    texts = [f"{e.label} {e.text}" for e in chunks]
    model = stored_or_built(texts, lambda: _scored(texts))
    return _Index(
        stamp=stamp,
        model=model,
        chunk_ids=np.array([r[0] for r in rows] or [0]),
        evidence=chunks,
        vocab=model.vocab_dict,
        df=np.diff(model.scores["indptr"]),
        n=max(len(rows), 1),
        row_of={r[0]: n for n, r in enumerate(rows)},
        part_of=part_of,
        sections=sections,
        drug_rows=_rows_by(r[1] for r in rows),
        section_rows=_rows_by(r[2] for r in rows),
    )


def _rows_by(keys: Iterable[str]) -> dict[str, np.ndarray]:
    by: dict[str, list[int]] = {}
    for row, key in enumerate(keys):
        by.setdefault(key, []).append(row)
    return {key: np.array(rows, dtype=np.intp) for key, rows in by.items()}


def _scored(texts: list[str]) -> bm25s.BM25:
    """The BM25 model of the paragraphs, each tokenized into ids as it is read (the book's
    token strings at once were ~600 MB at 7× it, issue 23)."""
    vocab: dict[str, int] = {}
    ids = []
    for text in texts or ["_"]:
        toks = _tokens(uncached_words(text), uncached_typed_words(text))
        ids.append(np.fromiter((vocab.setdefault(t, len(vocab)) for t in toks), np.int32))
    model, corpus = bm25s.BM25(), bm25s.tokenization.Tokenized(ids=ids, vocab=vocab)
    model.index(corpus, create_empty_token=False, show_progress=False)  # no query is ""
    return model


def section_evidence(drug_id: str, section_key: str) -> list[Evidence]:
    """Every paragraph of one section in book order (the section route, without a query)."""
    index = get_index()
    return [index.evidence[row] for row in index.sections.get((drug_id, section_key), ())]


def rank(
    query: str,
    drug_ids: Sequence[str] | None = None,
    section_keys: Sequence[str] | None = None,
    k: int = 5,
) -> list[tuple[int, float]]:
    """(row, BM25 score) of the best paragraphs, limited to the drugs / sections given."""
    index = get_index()
    asked = [t for t in tokens(query) if t in index.vocab]
    if not asked:
        return []
    scores = index.model.get_scores(asked)
    mask = np.ones(len(scores), dtype=bool)
    if drug_ids is not None:
        mask &= _rows_in(index.drug_rows, drug_ids, len(mask))
    if section_keys is not None:
        mask &= _rows_in(index.section_rows, section_keys, len(mask))
    scores = np.where(mask, scores, 0.0)
    best = np.argsort(-scores, kind="stable")[:k]
    return [(int(i), float(scores[i])) for i in best if scores[i] > 0]


def _rows_in(rows_of: dict[str, np.ndarray], keys: Iterable[str], n: int) -> np.ndarray:
    """A mask of the rows of these keys (np.isin on object arrays: ~0.1 ms a search)."""
    mask = np.zeros(n, dtype=bool)
    for key in keys:
        if (rows := rows_of.get(key)) is not None:
            mask[rows] = True
    return mask


def ranked_evidence(
    query: str,
    drug_ids: Sequence[str] | None = None,
    section_keys: Sequence[str] | None = None,
    k: int = 5,
) -> list[Evidence]:
    """The best paragraphs as evidence, best first (route "ranked", score = BM25)."""
    rows = get_index().evidence
    found = rank(query, drug_ids, section_keys, k)
    return [replace(rows[row], score=score, route="ranked") for row, score in found]
