"""The which-drug search keeps the folded text of the paragraphs it ranks in memory: an edit
of a paragraph is searched as edited at once (the chunks' stamp moves), never as it was."""

import pytest

from corpus.models import Chunk
from corpus.sections import SectionKey
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
