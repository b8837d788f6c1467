"""Names that would point at the wrong monograph are not answered (retrieval.name_conflicts),
on the real book and its index."""

import pytest

from answering.turn import answer_turn
from retrieval.catalog import get_resolver

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "question",
    [
        "Bệnh nhân đang uống Glyburid 5 mg, liều thế nào?",  # glibenclamide's, printed under gentamicin
        "Carmize dùng cho người suy thận được không?",
        "Norcuron tiêm tĩnh mạch liều bao nhiêu?",  # vecuronium's, the brand index says vancomycin
        "Venlixor 75 có gây buồn nôn không?",
    ],
)
def test_a_name_the_index_gives_to_an_unloaded_ingredient_answers_no_loaded_drug(
    question: str,
) -> None:
    found = get_resolver().resolve_detail(question)
    assert found.drugs == () and found.not_loaded


def test_a_combination_brand_still_answers_its_loaded_component() -> None:
    assert get_resolver().resolve("Unasyn tiêm bắp liều bao nhiêu?") == ("ampicilin",)


@pytest.mark.parametrize(
    ("question", "drug"),
    [
        ("Lỵ amip ở người lớn dùng metronidazol liều thế nào?", "metronidazol"),
        ("Áp xe gan do amip, thuốc nào điều trị?", None),
    ],
)
def test_a_brand_that_is_the_books_own_word_elsewhere_is_not_that_brand(
    question: str, drug: str | None
) -> None:
    assert "amlodipin" not in get_resolver().resolve(question)
    result = answer_turn(question, provider=None)
    assert "amlodipin" not in result.frame.drugs
    assert all(c.drug_id != "amlodipin" for c in result.citations)
    if drug:
        assert result.frame.drugs == (drug,)


def test_a_brand_its_own_monograph_prints_in_its_text_still_answers() -> None:
    assert get_resolver().resolve("Humalog tiêm trước ăn bao lâu?") == ("insulin",)


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("protein niệu khi dùng captopril có sao không", "protein"),
        ("BN creatinin 180, dùng metformin được không?", "creatinin"),
    ],
)
def test_a_word_the_book_prints_is_never_called_a_drug_not_found(question: str, word: str) -> None:
    result = answer_turn(question, provider=None)
    notices = [t for b in result.blocks for t, *_ in b.claims if f"«{word}»" in t]
    assert notices and all(
        "văn bản Dược thư" in t and "không phải tên thuốc" not in t for t in notices
    )
    assert not any(typed == word for typed, _ in result.frame.did_you_mean)


@pytest.mark.parametrize(
    ("question", "drugs"),
    [
        # A substance measured in the patient ("albumin niệu", "albumin máu") is a lab value.
        ("BN ĐTĐ có albumin niệu vi lượng, dùng losartan được không?", ("losartan",)),
        ("BN albumin máu 22 g/l, phù nhiều, dùng furosemid được không?", ("furosemid",)),
        # The drug itself still answers.
        ("truyền albumin 20% cho bn xơ gan được không?", ("albumin",)),
        # A drug's own level measured is that drug asked about, never a lab of the body's.
        ("Định lượng valproat huyết thanh ra 42, khoảng điều trị bao nhiêu?", ("acid_valproic",)),
        ("BN suy tim, digoxin máu 2,8 ng/ml, xử trí sao?", ("digoxin",)),
    ],
)
def test_a_substance_measured_in_the_patient_is_no_drug_named(
    question: str, drugs: tuple[str, ...]
) -> None:
    assert get_resolver().resolve(question) == drugs


@pytest.mark.parametrize(
    ("question", "drug"),
    [
        # A word of the drug's own name that another monograph's text prints ("acid
        # nalidixic" in ciprofloxacin's) is still that drug.
        ("tuyến dưới cho Nalidixic, có ổn không?", "acid_nalidixic"),
        ("tranexamic tiêm tĩnh mạch liều bao nhiêu", "acid_tranexamic"),
    ],
)
def test_a_word_of_the_drugs_own_name_is_that_drug_wherever_printed(
    question: str, drug: str
) -> None:
    assert get_resolver().resolve(question) == (drug,)
