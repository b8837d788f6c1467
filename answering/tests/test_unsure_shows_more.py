"""Unsure, the card shows more of the book (issue 18): the contraindications whole when none
of their lines says the patient's situation in its words, a pregnancy or breast-feeding told
in ward words read as one (and that section of each drug in view), drug names as wards
shorten them."""

import pytest

from answering import floors
from answering.delivery import delivery
from answering.turn import answer_turn
from retrieval.catalog import get_resolver
from retrieval.floor import book_lines, safety_floor
from retrieval.phrases import populations
from retrieval.queries import find_by_section
from retrieval.question_words import situation_of

pytestmark = pytest.mark.django_db


def in_view(result, key: str) -> bool:  # type: ignore[no-untyped-def]
    return delivery(result, key).before_collapsed


@pytest.mark.parametrize(
    ("question", "drug"),
    [
        # Long sections (> 600 characters) none of whose lines prints the patient's words.
        ("BN nam 58t bệnh Graves, đau khớp gối, dùng diclofenac được không?", "diclofenac"),
        ("Ông 70t mới mổ thay khớp háng tuần trước, dùng Glucophage được ko", "metformin"),
        ("bn nu 45t viem khop dang dieu tri, cho warfarin duoc khong", "warfarin"),
    ],
)
def test_a_long_contraindication_section_no_line_of_which_says_the_situation_is_shown_whole(
    question: str, drug: str
) -> None:
    result = answer_turn(question, provider=None)
    section = [e for e in find_by_section(drug, "chong_chi_dinh") if not e.needs_visual_check]
    assert sum(len(e.text) for e in section) > 600
    for line in (line for e in section for line in book_lines(e.text)):
        assert in_view(result, line[:60]), line


def test_a_line_saying_the_situation_still_stands_for_the_long_section() -> None:
    # "nghiện rượu" is printed: the floor holds that line, not the whole section.
    situation = situation_of("BN nghiện rượu nặng, dùng metformin được không?", ["metformin"])
    lines = [
        f
        for f in safety_floor(["metformin"], situation)
        if f.evidence.section_key == "chong_chi_dinh"
    ]
    assert lines and not any(f.whole for f in lines)
    assert all("nghiện rượu" in line for f in lines for line in f.lines)


@pytest.mark.parametrize(
    ("text", "population"),
    [
        ("2 vợ chồng chuẩn bị có em bé, uống thuốc này được không", "phu_nu_mang_thai"),
        ("trễ kinh 1 tuần, que thử 2 vạch", "phu_nu_mang_thai"),
        ("đang làm IVF, sắp chuyển phôi", "phu_nu_mang_thai"),
        ("mẹ sau sinh đang cho bé ti", "cho_con_bu"),
        ("chị đang hút sữa cho bé", "cho_con_bu"),
    ],
)
def test_a_pregnancy_or_breast_feeding_in_ward_words_is_read_as_one(
    text: str, population: str
) -> None:
    assert populations(text)[:1] == [population]


@pytest.mark.parametrize(
    ("question", "section"),
    [
        (
            "Chị đang hút sữa cho bé 2 tháng, bị mề đay, uống cetirizin được không?",
            "thoi_ky_cho_con_bu",
        ),
        ("Vợ chồng chuẩn bị có em bé, chồng hỏi vợ uống enalapril được ko", "thoi_ky_mang_thai"),
        (
            "BN nữ 30t động kinh đang uống carbamazepin, chuẩn bị có em bé, uống tiếp được không "
            "hay phải đổi thuốc?",
            "thoi_ky_mang_thai",
        ),
    ],
)
def test_the_patients_section_is_in_view_when_told_in_ward_words(
    question: str, section: str
) -> None:
    result = answer_turn(question, provider=None)
    # Told since the drug and "hay phải đổi": the patient's situation, not an ADR's story.
    assert result.frame.attribute != "huong_dan_cach_xu_tri_adr"
    drug = result.frame.drugs[0]
    first = next(e for e in find_by_section(drug, section) if not e.needs_visual_check)
    assert in_view(result, book_lines(first.text)[0][:60]), [b.title for b in result.blocks]


@pytest.mark.parametrize(
    ("typed", "drug"),
    [
        ("enalaprilat", "enalapril"),
        ("PABA", "acid_para_aminobenzoic"),
        ("amio", "amiodaron"),
        ("CBZ", "carbamazepin"),
        ("vit C", "acid_ascorbic"),
        ("vit B9", "acid_folic"),
    ],
)
def test_a_drug_name_as_wards_shorten_it_is_the_drug(typed: str, drug: str) -> None:
    assert get_resolver().resolve(typed) == (drug,)


@pytest.mark.parametrize(
    ("question", "section"),
    [
        (
            "Thai phụ 24 tuần bị nhiễm khuẩn tiết niệu, liều amoxicilin bao nhiêu?",
            "thoi_ky_mang_thai",
        ),
        ("Mẹ đang cho bé bú, sốt 38,5, uống paracetamol liều bao nhiêu?", "thoi_ky_cho_con_bu"),
    ],
)
def test_a_pregnant_or_nursing_womans_dose_is_an_adults_with_her_section_beside_it(
    question: str, section: str
) -> None:
    result = answer_turn(question, provider=None)
    assert result.frame.attribute == "lieu_luong_va_cach_dung"
    shown = floors.in_view(result.blocks)
    assert shown[0].section_key == "lieu_luong_va_cach_dung"
    assert "Trẻ em" not in shown[0].title and "sơ sinh" not in shown[0].claims[0][0].lower()[:80]
    assert section in {b.section_key for b in shown}
