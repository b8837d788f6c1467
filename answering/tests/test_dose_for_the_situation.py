"""Issue 17 on the real corpus: a dose question that names its indication, its patient's
dialysis or its emergency in ward words sees the book's line for it without a click."""

import pytest

from answering.delivery import delivery
from answering.turn import answer_turn

pytestmark = pytest.mark.django_db


def _in_view(question: str, key: str) -> bool:
    return delivery(answer_turn(question, provider=None), key).before_collapsed


@pytest.mark.parametrize(
    ("question", "key"),
    [
        # The dose section's best-ranked paragraph says the indication (rare words: Giardia,
        # Blastocystis); the general dose leads the card, the paragraph for it is in view too.
        (
            "BN nhiễm Giardia, metronidazol uống liều bao nhiêu, mấy ngày?",
            "3 lần/ngày trong 5 - 7 ngày",
        ),
        ("bn nhiem Blastocystis hominis, metronidazol lieu sao", "dùng trong 10 ngày"),
        # The heading that names the indication is in the chunk of the dose it heads.
        (
            "BN loạn năng thất trái không triệu chứng sau NMCT, enalapril liều khởi đầu?",
            "Liều ban đầu 2,5 mg 2 lần mỗi ngày",
        ),
        # "chạy thận nhân tạo": the book's dose lines for a patient on dialysis ("thẩm phân").
        (
            "BN 65t suy thận mạn chạy thận nhân tạo 3 lần/tuần, vancomycin liều thế nào so với buổi lọc?",
            "thẩm phân",
        ),
        # Status epilepticus as the ward describes it (CONDITION_SYNONYMS).
        (
            "BN co giật toàn thân liên tục 15 phút chưa dứt, lorazepam tiêm TM liều bao nhiêu?",
            "4 mg/liều tiêm tĩnh mạch chậm",
        ),
    ],
)
def test_the_books_line_for_what_the_question_names_is_in_view(question: str, key: str) -> None:
    assert _in_view(question, key)


def test_a_dose_question_without_a_situation_gets_no_extra_paragraph() -> None:
    """A paragraph is added for the question's rare words, never for words it only shares."""
    result = answer_turn("Liều metronidazol cho người lớn?", provider=None)
    assert not any("đoạn có các từ của câu hỏi" in block.title for block in result.blocks)
