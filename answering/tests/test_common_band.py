"""The common effects asked for ("hay gặp những tác dụng phụ gì?", "tác dụng phụ phổ biến"):
the ADR section's "Thường gặp" band is in view first, whatever other words the question has."""

import pytest

from answering.turn import answer_turn
from corpus.sections import SectionKey

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "question",
    [
        "furosemid hay gặp những tác dụng phụ gì?",
        "tác dụng phụ phổ biến của amoxicilin là gì",
        "Dùng ibuprofen thường bị tác dụng không mong muốn nào?",
    ],
)
def test_the_common_band_leads_when_the_common_effects_are_asked(question: str) -> None:
    result = answer_turn(question)
    first = result.blocks[0]
    assert first.section_key == SectionKey.TAC_DUNG_KHONG_MONG_MUON
    assert "Thường gặp" in first.title
    assert not first.collapsed


def test_the_effects_asked_without_their_frequency_keep_the_book_order() -> None:
    first = answer_turn("tác dụng phụ của furosemid").blocks[0]
    assert "Thường gặp" not in first.title
