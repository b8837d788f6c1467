"""A drug mixed with a fluid or another drug, in a bag, a syringe or a line (issue 17: a new
shape is one module, one registry line and its tests; issue 18: both drugs answered).

Asked in ward words of other monographs than the development cases; the book's sentence
naming what is mixed is in view, in the lead."""

import pytest

from answering.delivery import delivery
from answering.turn import answer_turn

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("question", "line"),
    [
        # A fluid named, the book's name for it found ("NaCl" is "natri clorid").
        ("papaverin tiem tron voi ringer lactat duoc ko", "với dung dịch tiêm Ringer lactat"),
        (
            "Aldesleukin pha bằng NaCl 0,9% được không?",
            "dung dịch natri clorid 0,9% để pha thuốc vì sẽ làm tăng kết tủa thuốc",
        ),
        (
            "furosemid tiem pha loang voi glucose 5% dc khong",
            "không được trộn lẫn hoặc pha loãng trong dung dịch glucose",
        ),
        # Nothing named: how the book makes it up, the route's paragraph first.
        (
            "digoxin tiêm tĩnh mạch pha loãng thế nào?",
            "phải pha loãng thuốc tiêm digoxin với thể tích ít nhất gấp 4 lần",
        ),
    ],
)
def test_what_a_drug_is_mixed_with_leads(question: str, line: str) -> None:
    result = answer_turn(question)
    assert result.frame.shape == "mixing"
    lead = next(b for b in result.blocks if b.title.endswith("nêu trong sách"))
    assert any(line in " ".join(text.split()) for text, _ in lead.claims)
    assert delivery(result, line).before_collapsed


@pytest.mark.parametrize(
    "question",
    [
        "ceftriaxon với vancomycin chạy chung dây truyền được không",
        "vancomycin + ceftriaxon tiêm chung đường truyền dc ko",
    ],
)
def test_two_drugs_in_one_line_answer_both(question: str) -> None:
    result = answer_turn(question)
    assert set(result.frame.drugs) == {"ceftriaxon", "vancomycin"}
    # Each monograph's line naming the other, whatever the order typed.
    assert delivery(
        result, "không được pha lẫn với các aminoglycosid, amsacrin, vancomycin"
    ).before_collapsed
    assert delivery(result, "Đã thấy có tương kỵ giữa vancomycin với aminophylin").before_collapsed


def test_an_in_use_time_stays_a_storage_question() -> None:
    result = answer_turn("Actilyse đã pha với nước cất, để được bao lâu?")
    assert result.frame.attribute == "do_on_dinh_va_bao_quan"


@pytest.mark.parametrize(
    "question",
    [
        # One container said by the ward's words ("chung túi", "hút chung … 1 bơm tiêm").
        "cho ceftriaxon vào chung túi với dung dịch Ringer lactat được không?",
        "hút chung amikacin với ampicilin 1 bơm tiêm được ko",
    ],
)
def test_one_container_in_ward_words_is_a_mixing_question(question: str) -> None:
    result = answer_turn(question)
    assert result.frame.attribute == "tuong_ky"
    assert "không nêu đích danh" not in result.answer_text
