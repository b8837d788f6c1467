"""Issue 17 on the real corpus: a question about a measured drug's peak or trough sees the
level the book keeps it within; a dose given by mistake ("bơm nhầm", "pha nhầm", "uống một
lúc 5 viên") is read as an overdose."""

import pytest

from answering.delivery import delivery
from answering.turn import answer_turn
from answering.understanding import understand
from corpus.sections import SectionKey
from retrieval.monitoring import asks_levels, tells_a_step

pytestmark = pytest.mark.django_db


def test_a_level_is_a_step_only_when_the_question_asks_for_the_levels() -> None:
    line = "nồng độ đáy (trước liều sau) phải dưới 2 microgam/ml"
    assert tells_a_step(line, levels=True) and not tells_a_step(line)
    assert asks_levels("nồng độ đỉnh/đáy bao nhiêu là cao")
    assert asks_levels("dinh lương nong do thi day phai duoi bao nhieu")
    assert not asks_levels("có bắt buộc đo nồng độ thuốc trong máu không")
    assert not asks_levels("loét dạ dày đang dùng gì")


@pytest.mark.parametrize(
    ("question", "key"),
    [
        ("BN dùng vancomycin 1g mỗi 12h, nồng độ đáy nên giữ bao nhiêu?", "nồng độ"),
        # Asked whether levels must be measured, a "must measure" line of the book stays in
        # view (Thận trọng's "Nhất thiết phải định lượng nồng độ thuốc trong huyết thanh khi
        # dùng cho người bị tổn thương thận", or the dose section's for amikacin).
        (
            "bn suy than dung amikacin co bat buoc do nong do thuoc trong mau ko",
            ("Nhất thiết phải định lượng nồng độ", "nhất thiết phải định lượng nồng độ"),
        ),
    ],
)
def test_a_levels_question_sees_the_books_levels(question: str, key: str) -> None:
    assert delivery(answer_turn(question, provider=None), key).before_collapsed


@pytest.mark.parametrize(
    "question",
    [
        "ĐD bơm nhầm 2 ống morphin cho BN, thở chậm, xử trí sao?",
        "bé 3 tuổi uống cả vỉ paracetamol 500mg của mẹ, làm gì bây giờ",
        "pha nhầm digoxin gấp đôi liều truyền cho BN, nhịp chậm, xử trí?",
        "cụ bà uống một lúc 6 viên amlodipin 5mg, HA tụt, xử trí thế nào",
    ],
)
def test_a_dose_given_by_mistake_is_asked_of_the_overdose_section(question: str) -> None:
    assert understand(question).attribute == SectionKey.QUA_LIEU_VA_XU_TRI


@pytest.mark.parametrize(
    "question",
    [
        # Read as a monitoring and a mixing question: the overdose lines are in view too.
        "bơm nhầm 3 ống furosemid cho cụ, giờ cần theo dõi gì?",
        "ĐD pha nhầm insulin gấp 10 lần vào dịch truyền, BN vã mồ hôi, dùng glucose bao nhiêu?",
    ],
)
def test_a_mistake_asked_of_another_section_keeps_the_overdose_lines_in_view(question: str) -> None:
    result = answer_turn(question, provider=None)
    assert result.frame.attribute != SectionKey.QUA_LIEU_VA_XU_TRI
    in_view = [
        b
        for b in result.blocks[
            : next((n for n, b in enumerate(result.blocks) if b.collapsed), None)
        ]
    ]
    assert any(b.section_key == SectionKey.QUA_LIEU_VA_XU_TRI for b in in_view)
