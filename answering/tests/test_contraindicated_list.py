"""Which drugs the book contraindicates in a condition or for a patient: each drug's line
that says it, labelled with the drug, and nothing that only shares a word (held-out set 16:
"… loại thuốc khí dung … nào trong DT bị chống chỉ định vì lý do này?").

Other conditions and wordings than the held-out set's."""

import pytest

from answering.reading import condition_words
from answering.turn import answer_turn
from corpus.sections import SectionKey

pytestmark = pytest.mark.django_db

LISTED = "Các thuốc Dược thư ghi chống chỉ định"


def _lead(question: str):
    result = answer_turn(question)
    return result, next(b for b in result.blocks if b.title == LISTED)


def test_the_drugs_contraindicated_in_a_condition_lead_with_their_lines() -> None:
    result, lead = _lead("Loại thuốc nào bị chống chỉ định khi bị nhược cơ?")
    assert result.frame.attribute == SectionKey.CHONG_CHI_DINH
    lines = [text for text, _ in lead.claims]
    assert {"ALCURONIUM CLORID", "AMIKACIN", "ALPRAZOLAM"} <= {t.split(":")[0] for t in lines}
    assert all("nhược cơ" in t.lower() for t in lines)


def test_the_found_drugs_interactions_with_each_other_are_not_in_view() -> None:
    # Found, not given together: paracetamol's "… enzym ở microsom gan" and the other
    # drugs' interaction lines never stand between the list and the folded paragraphs.
    result = answer_turn("Những thuốc nào chống chỉ định ở người suy gan nặng?")
    shown = []
    for block in result.blocks:
        if block.collapsed:
            break
        shown.append(block)
    assert shown[0].title == LISTED
    assert SectionKey.TUONG_TAC_THUOC not in {b.section_key for b in shown}
    assert all("suy gan nặng" in t.lower() for t, _ in shown[0].claims)


def test_a_paragraph_sharing_only_a_word_of_the_question_is_not_listed() -> None:
    # Dexamethason's "sốt rét thể não" shares "sốt rét" with the class asked for; the
    # condition is the enzyme deficiency (G6PD, as the book writes it out).
    result = answer_turn("BN thiếu men G6PD, thuốc kháng sốt rét nào bị chống chỉ định?")
    assert "dexamethason" not in result.frame.drugs
    _, lead = _lead("BN thiếu men G6PD, thuốc kháng sốt rét nào bị chống chỉ định?")
    assert all("glucose-6 phosphat dehydrogenase" in t for t, _ in lead.claims)


def test_only_the_patient_said_lists_the_drugs_contraindicated_for_her() -> None:
    _, lead = _lead("Những thuốc nào chống chỉ định cho phụ nữ có thai?")
    lines = [text for text, _ in lead.claims]
    assert len(lines) >= 3
    assert all("thai" in t.lower() for t in lines)


@pytest.mark.parametrize(
    ("question", "kept"),
    [
        ("Những thuốc nào chống chỉ định ở người suy gan nặng?", "suy gan nang"),
        ("thuốc gì dùng được cho các bệnh nhân hen", "hen"),
    ],
)
def test_those_and_at_say_nothing_of_the_condition(question: str, kept: str) -> None:
    assert condition_words(question, ()) == kept


def test_those_typed_with_other_diacritics_is_a_word_of_the_condition() -> None:
    assert condition_words("thuốc nào gây kích ứng khi nhúng tay vào nước", ()).startswith(
        "gay kich ung nhung tay"
    )
