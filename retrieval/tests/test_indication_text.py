"""The which-drug search keeps the folded text of the paragraphs it ranks in memory and finds
its candidates there too: an edit of a paragraph is searched as edited at once (the chunks'
stamp moves), never as it was; every paragraph printing a phrase is a candidate."""

import re

import pytest

from corpus.models import Chunk
from corpus.sections import SectionKey
from corpus.text import folded_phrase
from retrieval.indication_text import paragraphs_saying
from retrieval.queries import find_by_indication

pytestmark = pytest.mark.django_db


def test_an_edited_indication_is_found_by_its_new_words_and_not_its_old() -> None:
    before = find_by_indication("tăng huyết áp")
    assert before  # and the folded paragraphs are now held in memory
    chunk = Chunk.objects.get(pk=before[0].chunk_id)
    assert chunk.section.section_key == SectionKey.CHI_DINH
    Chunk.objects.filter(pk=chunk.pk).update(text="Điều trị bệnh zyxolit mạn tính.")
    found = find_by_indication("bệnh zyxolit")
    assert [e.chunk_id for e in found] == [chunk.pk]
    assert found[0].text == "Điều trị bệnh zyxolit mạn tính."
    assert chunk.pk not in {e.chunk_id for e in find_by_indication("tăng huyết áp")}


@pytest.mark.parametrize(
    "phrase", ["tang huyet ap", "dong kinh", "hoi chung stevens johnson", "soi mat", "gut"]
)
def test_the_phrase_candidates_from_memory_hold_every_paragraph_printing_the_phrase(
    phrase: str,
) -> None:
    # Every prose indication whose folded text prints the phrase is a candidate (the full-text
    # index's phrase query, the candidates' source before, missed "Stevens-Johnson" printed
    # without spaces: paracetamol's serious skin reactions).
    pattern = re.compile(rf"(?<![0-9a-z]){re.escape(phrase)}(?![0-9a-z])")
    rows = Chunk.objects.filter(
        section__section_key=SectionKey.CHI_DINH,
        kind=Chunk.Kind.PROSE,
        section__drug__retired_at__isnull=True,
    ).values_list("id", "section__drug__drug_id", "text")
    printing = {(pk, drug) for pk, drug, text in rows if pattern.search(folded_phrase(text))}
    found = set(paragraphs_saying(phrase, SectionKey.CHI_DINH))
    assert printing and printing <= found
