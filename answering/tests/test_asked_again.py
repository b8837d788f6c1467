"""Two asks in one question: which drug, then something of the drug found ("… thuốc nào …?
Tiêm nhanh quá có sao không?"): the list, then the first drug's best paragraphs for what is
asked (not its indications, which the list shows); and a pregnant patient's each drug's
section for her, whatever the reading (issues 17 and 18)."""

import pytest

from answering.floors import in_view
from answering.shapes.which_drug import asked_of_the_drug_found
from answering.turn import answer_turn
from corpus.sections import SectionKey
from retrieval.indication_list import ranked_indications
from retrieval.which_drug_search import ABOUT

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("question", "again"),
    [
        ("Thuốc nào trị methemoglobin huyết? Liều bao nhiêu?", "Liều bao nhiêu?"),
        ("co thuoc nao tri nam candida ko. dung bao lau thi do", "dung bao lau thi do"),
        ("Thuốc nào trị nấm candida miệng, và dùng bao lâu?", "dùng bao lâu?"),
        ("Thuốc nào trị nấm và candida?", ""),
        ("Thuốc nào trị methemoglobin huyết, nó tác dụng ra sao?", "nó tác dụng ra sao?"),
        ("Thuốc nào dùng để điều trị methemoglobin huyết?", ""),
        # The case told before the ask is no second ask.
        ("BN tím tái, SpO2 85%. Thuốc nào điều trị?", ""),
    ],
)
def test_what_is_asked_again_after_the_which_drug_sentence(question: str, again: str) -> None:
    assert asked_of_the_drug_found(question) == again


def test_asked_again_the_first_drugs_paragraphs_for_it_are_in_view() -> None:
    asked = "Có thuốc nào trong sách dùng để điều trị methemoglobin huyết không?"
    plain = answer_turn(asked, provider=None)
    twice = answer_turn(f"{asked} Tiêm nhanh quá thì có sao không?", provider=None)
    first = twice.frame.drugs[0]
    assert first == plain.frame.drugs[0]
    about = [b for b in in_view(twice.blocks) if b.drug_id == first and b.section_key != "chi_dinh"]
    assert 1 <= len({b.claims[0][0] for b in about}) <= ABOUT + 1  # + the safety floor's lines
    assert not [
        b for b in in_view(plain.blocks) if b.drug_id == first and b.section_key != "chi_dinh"
    ]


def test_a_pregnant_patients_poisoning_shows_the_antidotes_pregnancy_section() -> None:
    result = answer_turn(
        "Thai phụ 30 tuần bị ngộ độc paracetamol, truyền acetylcystein liều thế nào?",
        provider=None,
    )
    shown = {(b.drug_id, b.section_key) for b in in_view(result.blocks)}
    assert ("acetylcystein", "thoi_ky_mang_thai") in shown
    assert ("paracetamol", "thoi_ky_mang_thai") in shown


def test_the_pharmacology_section_is_searched_for_what_no_indication_says() -> None:
    asked = "Trong sách có thuốc nào được dùng làm thuốc long đờm không?"
    # Mesna's Chỉ định says nothing of it; its Dược lý: "... được dùng làm thuốc long đờm."
    assert "mesna" not in {e.drug_id for e in ranked_indications(asked)}
    found = ranked_indications(asked, (SectionKey.DUOC_LY_VA_CO_CHE_TAC_DUNG,))
    assert "mesna" in {e.drug_id for e in found}
    assert {e.section_key for e in found} == {SectionKey.DUOC_LY_VA_CO_CHE_TAC_DUNG}
