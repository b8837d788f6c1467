"""Vietnamese full-text search over chunks, with and without diacritics."""

import pytest
from django.contrib.postgres.search import SearchQuery

from corpus.models import Chunk

pytestmark = pytest.mark.django_db


def _folded(phrase: str) -> set[int]:
    query = SearchQuery(phrase, search_type="phrase", config="vi_unaccent")
    return set(Chunk.objects.filter(fts_folded=query).values_list("id", flat=True))


def _exact(phrase: str) -> set[int]:
    query = SearchQuery(phrase, search_type="phrase", config="simple")
    return set(Chunk.objects.filter(fts_exact=query).values_list("id", flat=True))


def test_loet_da_day_is_found_with_and_without_diacritics() -> None:
    with_marks = _folded("loét dạ dày")
    without = _folded("loet da day")
    assert len(with_marks) >= 10
    assert with_marks == without
    assert all(
        "dạ dày" in t.lower() or "da day" in t.lower()
        for t in Chunk.objects.filter(id__in=with_marks).values_list("text", flat=True)
    )


def test_the_diacritics_kept_column_separates_words_that_folding_merges() -> None:
    exact = _exact("loét dạ dày")
    assert exact and exact <= _folded("loét dạ dày")
    # "da" (skin) folds together with "dạ" (stomach); the exact column keeps them apart.
    assert _exact("da") != _folded("da")
    assert len(_folded("da")) > len(_exact("da"))
