"""Issue 18 on the real corpus: a symptom the patient's own drug causes, asked for a remedy
("đang dùng metformin bị tiêu chảy nhiều, dùng thuốc gì?", "truyền morphin bị ngứa, dùng
thuốc gì?"), is answered from that drug's ADR management — never by the first monograph
indicated for the symptom's word, nor by the drug's overview."""

import pytest

from answering.delivery import delivery
from answering.turn import answer_turn
from answering.understanding import understand
from corpus.sections import SectionKey

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("question", "drug", "key"),
    [
        (
            "BN truyền morphin bị ngứa khắp người, dùng thuốc gì?",
            "morphin_sulfat",
            "kháng histamin",
        ),
        (
            "BN K phổi đang dùng morphin bị táo bón 4 ngày, cho thuốc gì?",
            "morphin_sulfat",
            "bisacodyl",
        ),
        ("BN đang dùng metformin bị tiêu chảy nhiều, dùng thuốc gì?", "metformin", "Ỉa chảy"),
    ],
)
def test_a_remedy_for_the_drugs_own_effect_is_its_adr_management(
    question: str, drug: str, key: str
) -> None:
    frame = understand(question)
    assert frame.drugs == (drug,)
    assert frame.attribute in (
        SectionKey.HUONG_DAN_CACH_XU_TRI_ADR,
        SectionKey.TAC_DUNG_KHONG_MONG_MUON,
    )
    assert delivery(answer_turn(question, provider=None), key).before_collapsed


def test_what_the_drug_is_stays_an_overview_and_a_new_condition_a_which_drug() -> None:
    assert understand("cho hỏi dexamethason là thuốc gì").shape == "overview"
    assert understand("Amlodipin thuốc gì vậy?").shape == "overview"
    # A condition the drug's ADR sections do not name, or name only among the rare ones
    # (metformin's "Ít gặp: … viêm phổi"), is the patient's new problem.
    assert understand("bn dang dung metformin bi viem phoi thi dung thuoc gi").shape == (
        "which_drug"
    )
    assert understand("BN đang dùng warfarin, bị nấm candida miệng dùng thuốc gì?").shape == (
        "which_drug"
    )
