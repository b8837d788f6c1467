"""A symptom the patient has since the drug, asked whether the drug caused it or what to do
(the adverse shape, `answering/shapes/adverse.py`), on monographs the outside sets' misses
were not about: the ADR management's line naming the symptom and what the book says to do
next, the ADR line naming it, both in view; a general "có gây … không" stays the effect's."""

import pytest

from answering.delivery import delivery
from answering.turn import answer_turn

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("question", "lines"),
    [
        (
            # What to do is in the management, asked as "xử trí sao".
            "BN tiêm heparin ngày thứ 3 thấy tiểu cầu giảm nhẹ, xử trí sao?",
            ["có thể đỡ khi tiếp tục điều trị"],
        ),
        (
            # Typed without diacritics, asked bare ("xu tri?").
            "bn dung morphin giam dau ung thu, buon non nhieu. xu tri?",
            ["có thể khắc phục bằng cách tiêm dưới da"],
        ),
        (
            # "Cần làm gì" after the symptoms: the management names them.
            "Uống metronidazol 3 ngày nay bị chóng mặt, lú lẫn. Cần làm gì?",
            ["Ngừng điều trị khi bị chóng mặt, lú lẫn, mất điều hòa."],
        ),
        (
            # Asked whether the drug caused it: the ADR list's line, and the management's
            # line naming it ("ù tai") with it.
            "Đang tiêm furosemid liều cao thì BN kêu ù tai, có phải do thuốc không?",
            ["ù tai"],
        ),
    ],
)
def test_the_symptoms_management_and_adr_lines_are_in_view(question: str, lines: list[str]) -> None:
    result = answer_turn(question, provider=None)
    assert result.frame.shape == "adverse", result.frame.shape
    for line in lines:
        assert delivery(result, line).before_collapsed, line


def test_a_sentence_ending_in_a_colon_brings_the_paragraph_it_introduces() -> None:
    # The book: "Điều trị phù mạch ở lưỡi, thanh môn hoặc thanh quản, bao gồm các biện pháp
    # sau:" and, a paragraph later, the measures. "Sưng môi" is the book's "phù mạch".
    result = answer_turn("bn uống enalapril bị sưng môi, sưng lưỡi. Xử trí thế nào?", provider=None)
    assert delivery(result, "Ngừng dùng enalapril và cho người bệnh vào viện").before_collapsed


def test_the_lead_names_the_symptom_before_the_paragraphs() -> None:
    result = answer_turn("BN uống captopril 1 tháng mất vị giác, có phải do thuốc?", provider=None)
    lead = result.blocks[0]
    assert "nêu trong sách" in lead.title
    assert "vị giác" in " ".join(text for text, _ in lead.claims)


def test_a_general_does_it_cause_question_stays_the_effects() -> None:
    result = answer_turn("Metformin có gây nhiễm toan lactic không?", provider=None)
    assert result.frame.shape == "effect"


def test_an_effect_told_as_history_is_no_symptom_now() -> None:
    result = answer_turn("tiền sử phù mạch, dùng captopril được không", provider=None)
    assert result.frame.shape != "adverse"
    assert result.frame.relation == "contraindication"


def test_a_symptom_no_paragraph_names_is_quoted_as_asked_without_an_absence_claim() -> None:
    result = answer_turn("BN uống amlodipin bị rụng tóc, có phải do thuốc không?", provider=None)
    assert result.decision == "answer"
    assert "không nêu" not in result.answer_text.lower()
    assert any(b.section_key == "tac_dung_khong_mong_muon" for b in result.blocks)


@pytest.mark.parametrize(
    ("question", "line"),
    [
        # A symptom told after the drug, asked whether it passes or the drug must stop, with
        # no section's word; the book's words for it ("Ỉa chảy", "phù cổ chân").
        (
            "mới uống metformin 1 tuần bị tiêu chảy, buồn nôn, có tự hết không?",
            "Ỉa chảy (10 - 53%)",
        ),
        (
            "đang truyền vancomycin thì bn đỏ bừng mặt cổ, ngứa, có phải ngưng không?",
            "phải ngừng thuốc ngay nếu thấy dấu hiệu này",
        ),
        # No ADR management printed: the ADR list answers, never an abstention.
        (
            "bắt đầu uống amlodipin thì bị phù mắt cá chân, có sao không?",
            "Phản ứng phụ thường gặp nhất của amlodipin là phù cổ chân",
        ),
    ],
)
def test_a_symptom_since_the_drug_asked_with_no_section_word(question: str, line: str) -> None:
    result = answer_turn(question)
    assert result.frame.shape == "adverse"
    assert result.decision == "answer"
    assert delivery(result, line).before_collapsed


def test_a_switch_to_another_drug_is_no_symptom() -> None:
    result = answer_turn(
        "BN đang uống bisoprolol, muốn chuyển sang clonidin, có cần ngừng trước không?"
    )
    assert result.frame.shape != "adverse"
