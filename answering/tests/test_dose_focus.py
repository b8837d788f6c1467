"""Which dose paragraph a dose question is shown first (held-out set 16: a heart failure's
dose hidden behind hypertension's, a duration shown for "bao nhiêu mg", a child's infusion for
"uống"). Other monographs and wordings than the held-out set's where the book allows."""

import pytest

from answering.turn import answer_turn
from corpus.sections import SectionKey

pytestmark = pytest.mark.django_db


def _shown(question: str) -> list:
    shown = []
    for block in answer_turn(question).blocks:
        if block.collapsed:
            break
        shown.append(block)
    return shown


def _in_view(question: str) -> str:
    return " ".join(text for b in _shown(question) for text, _ in b.claims)


def test_an_indication_that_starts_with_suy_is_the_indications_heading() -> None:
    # "suy" names a population only before "thận", "gan": "Suy tim" is captopril's heading.
    assert "6,25 - 25 mg/lần, 3 lần/ngày" in _in_view("BN suy tim dùng captopril liều thế nào?")


def test_a_dose_shown_prints_an_amount() -> None:
    # The question's words fit the duration paragraph best; the adult dose is in view too.
    view = _in_view("Moxifloxacin trị viêm xoang cấp ở người lớn uống bao nhiêu mg một ngày?")
    assert "400 mg, ngày 1 lần" in view


def test_a_paragraph_headed_by_another_route_only_is_not_the_oral_dose() -> None:
    shown = _shown("Bé 3 tuổi 14kg sốt, paracetamol uống liều bao nhiêu mỗi lần?")
    dose = [b for b in shown if b.section_key == SectionKey.LIEU_LUONG_VA_CACH_DUNG]
    assert dose and "Truyền tĩnh mạch" not in dose[0].title
    assert "Trẻ em 1 tháng - 6 tuổi" in " ".join(t for b in shown for t, _ in b.claims)


def test_a_hepatic_patients_adjustment_leads_without_an_absolute_dose_before_it() -> None:
    shown = _shown("cetirizin người suy gan chỉnh liều thế nào")
    dose = [b for b in shown if b.section_key == SectionKey.LIEU_LUONG_VA_CACH_DUNG]
    assert "Suy gan" in dose[0].title


def test_a_heading_of_the_asked_section_naming_the_question_leads() -> None:
    # Abacavir's interactions are headed by what they are with ("Với alcohol (rượu)", "Với
    # methadon"): the one the question names is in view first.
    shown = _shown("BN HIV uống abacavir, tối nào cũng nhậu rượu, có tương tác gì không?")
    first = next(b for b in shown if b.section_key == SectionKey.TUONG_TAC_THUOC)
    assert "rượu" in first.title
