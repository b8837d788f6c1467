"""A pregnancy or breast-feeding told now, asked "xử trí" of the drug the patient takes (the
pregnancy_found shape, `answering/shapes/pregnancy_found.py`): the drug's pregnancy or
breast-feeding section answers, on monographs the outside sets' misses were not about; a
symptom told since the drug stays the ADR management's question."""

import pytest

from answering.turn import answer_turn

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("question", "section", "line"),
    [
        (
            "BN có thai 8 tuần đang uống captopril, xử trí thế nào?",
            "thoi_ky_mang_thai",
            "Sử dụng captopril hoặc các chất ức chế ACE khác",
        ),
        (
            "me dang cho con bu 2 thang, dang uong amiodaron, xu tri the nao",
            "thoi_ky_cho_con_bu",
            "Amiodaron và chất chuyển hóa của thuốc bài tiết nhiều vào sữa mẹ",
        ),
    ],
)
def test_a_pregnancy_told_now_is_answered_from_its_section(
    question: str, section: str, line: str
) -> None:
    result = answer_turn(question)
    assert result.frame.shape == "pregnancy_found"
    assert result.frame.attribute == section
    assert line in result.blocks[0].claims[0][0]


def test_a_symptom_since_the_drug_in_pregnancy_stays_the_managements() -> None:
    result = answer_turn("bn mang thai 20 tuan uong amoxicilin bi noi man, xu tri sao")
    assert result.frame.shape == "adverse"
    assert result.frame.attribute == "huong_dan_cach_xu_tri_adr"


@pytest.mark.parametrize(
    "question",
    [
        "Mổ lấy thai, gây tê tủy sống bằng morphin thì em bé sơ sinh có bị ảnh hưởng không?",
        "sản phụ chuyển dạ đau nhiều, tiêm pethidin hay morphin có ảnh hưởng bé sơ sinh không",
    ],
)
def test_a_delivery_is_the_mothers_pregnancy_not_the_newborns_dose(question: str) -> None:
    result = answer_turn(question)
    assert result.frame.population == "phu_nu_mang_thai"
    shown = []
    for block in result.blocks:
        if block.collapsed:
            break
        shown.append(block.section_key)
    assert "thoi_ky_mang_thai" in shown
