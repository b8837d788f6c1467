"""The ranked index holds every answerable paragraph as the queries would return it, and its
document frequencies (read from the BM25 matrix, not kept as a second table) count the
paragraphs that say each word (issue 23: the index's memory at 7× the book)."""

import math

import pytest

from corpus.models import Chunk
from corpus.text import typed_words, uncached_typed_words, uncached_words, words
from retrieval.paragraphs import as_evidence, chunk_rows
from retrieval.ranked import get_index, tokens

pytestmark = pytest.mark.django_db


def test_every_paragraph_is_held_as_the_queries_would_return_it() -> None:
    index = get_index()
    chunks = list(chunk_rows().order_by("id"))
    assert [e.chunk_id for e in index.evidence] == [c.id for c in chunks]
    assert index.evidence == [as_evidence(c) for c in chunks]
    for (drug_id, key), rows in list(index.sections.items())[:50]:
        parts = [Chunk.objects.get(pk=index.evidence[r].chunk_id).part_index for r in rows]
        assert parts == sorted(parts)
        assert {(index.evidence[r].drug_id, index.evidence[r].section_key) for r in rows} == {
            (drug_id, key)
        }


def test_a_words_document_frequency_counts_the_paragraphs_that_say_it() -> None:
    index = get_index()
    said = [set(tokens(f"{e.label} {e.text}")) for e in index.evidence]
    for word in ("warfarin", "thuốc", "loét dạ", "bilirubin", "=dạ", "zyxolit"):
        token = "_".join(words(word)) if not word.startswith("=") else word
        count = sum(token in s for s in said)
        assert index.says(token) == bool(count)
        if count:
            assert index.df[index.vocab[token]] == count
        assert index.idf(token) == pytest.approx(
            math.log((index.n - count + 0.5) / (count + 0.5) + 1)
        )


@pytest.mark.parametrize(
    "text", ["Loét dạ dày tiến triển.", "ĐIỀU TRỊ tăng huyết áp", "Clcr < 30 ml/phút", "ﬁ"]
)
def test_the_uncached_words_are_the_cached_words(text: str) -> None:
    assert uncached_words(text) == words(text)
    assert uncached_typed_words(text) == typed_words(text)
