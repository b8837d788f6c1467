"""Readings that folding or a stray word used to turn the wrong way (issues 17, 18), each on
other monographs than the outside sets' lines."""

import pytest

from answering.reading import read
from answering.turn import answer_turn

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "question",
    [
        # Folded "gia" is "già" as well as "giá": an elderly patient's dose is no price.
        "Người già dùng amantadin liều tối đa bao nhiêu?",
        "nguoi gia dung acenocoumarol lieu khoi dau the nao",
    ],
)
def test_the_elderly_are_no_price(question: str) -> None:
    result = answer_turn(question)
    assert result.frame.turn_type != "out_of_scope" and result.decision != "abstain"


def test_a_price_is_still_out_of_scope() -> None:
    assert (
        answer_turn("Giá thuốc amlodipin bao nhiêu tiền một hộp?").frame.turn_type == "out_of_scope"
    )


@pytest.mark.parametrize(
    ("question", "population"),
    [
        # A postpartum mother asked about nursing: breast-feeding, not the pregnancy.
        ("Sản phụ sau sinh 5 ngày dùng ceftriaxon, có cho bé bú được không?", "cho_con_bu"),
        # Weeks of pregnancy, and the baby she carries: the pregnancy, not a child's band.
        (
            "Thai 32 tuần, mẹ đang uống carbamazepin, bé sinh ra có bị ảnh hưởng không?",
            "phu_nu_mang_thai",
        ),
        # A child with a weight of its own stays the child.
        ("bé 14kg, mẹ có thai 20 tuần, cho bé uống paracetamol liều bao nhiêu?", "tre_em"),
    ],
)
def test_who_the_patient_is(question: str, population: str) -> None:
    assert read(question).frame.population == population


def test_a_drug_named_inside_the_mixing_phrase_is_still_mixing() -> None:
    # "pha <drug> bằng <fluid>": the name splits the phrase; Ringer lactat is one of the
    # book's calcium solutions ("dung dịch chứa calci (như dung dịch Ringer lactat …)").
    result = answer_turn("pha ceftriaxon bằng Ringer lactat để truyền được không")
    assert result.frame.shape == "mixing"
    lead = next(b for b in result.blocks if b.title.endswith("nêu trong sách"))
    assert any("calci" in text for text, _ in lead.claims)


@pytest.mark.parametrize(
    "question",
    [
        # Given by mistake or too much, and an antidote asked for a named drug: the poison's
        # Quá liều và xử trí, the emergency line first, never the dose table or an ask-back.
        "tiêm nhầm heparin liều cao cho bn, dùng thuốc giải nào, liều bao nhiêu?",
        "bé uống quá nhiều paracetamol của mẹ, thuốc giải là gì, liều?",
    ],
)
def test_too_much_or_the_wrong_drug_reads_as_an_overdose(question: str) -> None:
    result = answer_turn(question)
    assert result.frame.attribute == "qua_lieu_va_xu_tri"
    assert result.decision == "answer"
    assert result.blocks[0].title.startswith("Xử trí cấp cứu")


def test_an_antidote_asked_with_no_drug_named_stays_which_drug() -> None:
    result = answer_turn("ngộ độc nitroprusiat thì dùng thuốc giải gì?")
    assert result.frame.turn_type == "condition_to_drug" and "xanh_methylen" in result.frame.drugs


def test_a_case_told_with_any_drug_of_a_class_asks_of_the_named_drug() -> None:
    # "người đang dùng bất cứ thuốc chống đông máu nào" tells the case; the sentence with the
    # question mark asks of diclofenac: its contraindication, not a which-drug list.
    result = answer_turn(
        "BN 66 tuổi đang dùng bất cứ thuốc chống đông máu nào, nằm nội trú. Cho diclofenac được không?"
    )
    assert result.frame.turn_type != "condition_to_drug"
    assert "diclofenac" in result.frame.drugs


def test_a_missing_section_of_a_may_it_be_given_question_shows_the_contraindications() -> None:
    # Chymotrypsin prints no Thời kỳ mang thai: a pregnant patient's question is answered from
    # Chống chỉ định, never abstained.
    result = answer_turn("Thai phụ 20 tuần dùng chymotrypsin được không?")
    assert result.decision == "answer"
    assert result.frame.attribute == "chong_chi_dinh"


def test_a_start_asked_without_the_word_dose_is_a_dose_question() -> None:
    assert read("BN THA mới, amlodipin uống khởi đầu thế nào?").frame.attribute == (
        "lieu_luong_va_cach_dung"
    )
    assert read("phù do xơ gan, furosemid ngày đầu cho bao nhiêu").frame.attribute == (
        "lieu_luong_va_cach_dung"
    )


def test_drops_or_puffs_counted_ask_the_dose() -> None:
    # "mấy giọt" is a dose; "được không" beside it keeps the contraindications in view (floor).
    result = answer_turn("bé 7 tuổi ngạt mũi, nhỏ xylometazolin được không, mấy giọt?")
    assert result.frame.attribute == "lieu_luong_va_cach_dung"
    first_folded = next((n for n, b in enumerate(result.blocks) if b.collapsed), len(result.blocks))
    shown = result.blocks[:first_folded]
    assert any("Trẻ em từ 6 tuổi đến 12 tuổi" in t for b in shown for t, _ in b.claims)
    assert any(b.section_key == "chong_chi_dinh" for b in shown)


@pytest.mark.parametrize(
    "question",
    ["Liều vancomycin cho người lớn bao nhiêu?", "Liều metronidazol uống cho người lớn?"],
)
def test_a_sentence_of_labs_or_vitals_told_before_a_dose_question_moves_nothing(
    question: str,
) -> None:
    def in_view(asked: str) -> list[str]:
        shown = []
        for block in answer_turn(asked).blocks:
            if block.collapsed:
                break
            shown.append(block.claims[0][0])
        return shown

    plain = in_view(question)
    for told in (
        "Xét nghiệm công thức máu và điện giải đồ trong giới hạn bình thường.",
        "Mạch 78 lần/phút, huyết áp 120/80 mmHg, tỉnh táo.",
    ):
        assert in_view(f"{told} {question}") == plain, told
