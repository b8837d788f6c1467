"""A word the question says with one qualifier is not said by a text that says it with the
opposite one ("QRS hẹp" / "QRS rộng", "hạ kali" / "tăng kali", "gút mạn" / "gút cấp"): such a
text shares the word, not the situation (issue 18: no word-sharing line as the answer)."""

import pytest

from answering.understanding import understand
from retrieval.question_words import coverage, situation_of
from retrieval.which_drug_search import drugs_for_condition

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("question", "word", "opposite", "same"),
    [
        ("nhịp nhanh QRS hẹp", "qrs", "Nhịp nhanh có phức hợp QRS rộng.", "QRS hẹp, đều."),
        ("bn ha kali mau", "kali", "Tăng kali huyết.", "Giảm kali huyết tạm thời."),
        ("đợt gút mạn tính", "gut", "Đợt gút cấp.", "Viêm khớp gút mạn tính."),
        ("Bệnh nhân cường giáp", "giap", "Suy giáp.", "Nhiễm độc giáp, cường giáp."),
        ("huyết áp thấp", "ap", "Huyết áp cao.", "Hạ huyết áp, huyết áp thấp."),
    ],
)
def test_a_word_said_with_the_opposite_qualifier_is_not_said(
    question: str, word: str, opposite: str, same: str
) -> None:
    situation = situation_of(question)
    assert word in situation.weights
    assert word not in situation.said_in(opposite)
    assert word in situation.said_in(same)
    assert coverage(opposite, situation) < coverage(same, situation)


def test_a_question_saying_both_qualifiers_keeps_both() -> None:
    situation = situation_of("tăng hay hạ kali máu thì dùng thuốc nào")
    assert "kali" in situation.said_in("Tăng kali huyết.")
    assert "kali" in situation.said_in("Hạ kali huyết.")


def test_a_which_drug_list_is_not_led_by_the_opposite_indication() -> None:
    question = "Nhịp nhanh phức bộ QRS hẹp chưa rõ cơ chế, thuốc gì tiêm TM vừa chẩn đoán?"
    found = drugs_for_condition(understand(question), question)
    assert "adenosin" in found.frame.drugs
    assert found.frame.drugs[0] != "amiodaron"  # its line says "QRS rộng"
