"""Which drug, where the book prints the answer outside Chỉ định (a dose paragraph headed by
what it treats, the pharmacology's "còn được dùng …"), and the dose asked of the drug found
(held-out set 16: the which-drug kind 0 of 8 in view at its commit).

Other monographs and wordings than the held-out set's."""

import pytest

from answering.shapes.which_drug import asked_of_the_drug_found
from answering.turn import answer_turn
from retrieval.catalog import get_resolver
from retrieval.classes import classes_said

pytestmark = pytest.mark.django_db


def _shown(question: str) -> tuple[list[str], list]:
    result = answer_turn(question)
    shown = []
    for block in result.blocks:
        if block.collapsed:
            break
        shown.append(block)
    return list(result.frame.drugs), shown


def _in_view(question: str) -> tuple[list[str], str]:
    drugs, shown = _shown(question)
    return drugs, " ".join(text for b in shown for text, _ in b.claims)


def test_an_indication_only_a_dose_paragraph_prints_is_found_and_shown() -> None:
    # Dexpanthenol's "Điều trị tăng kích thích nhu động ruột: …" is in Liều lượng; eight
    # indications saying only "phẫu thuật" (a compound word: no rarer than "phẫu") or the
    # story's common words far apart in a long paragraph are not listed.
    drugs, shown = _in_view("Thuốc nào trong DT dùng cho tăng kích thích nhu động ruột sau mổ?")
    assert drugs == ["acid_pantothenic"]
    assert "nhu động ruột" in shown


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("chảy máu cấp do tăng tiêu fibrin thì thuốc gì, truyền tốc độ bao nhiêu?", "tốc độ"),
        ("Bé ngộ độc sắt thì thuốc giải nào, liều ra sao?", "liều"),
        ("Có thuốc kháng giun nào có liều cho trẻ 1 tuổi không?", "có liều"),
    ],
)
def test_a_dose_asked_of_the_drug_found_is_asked_again(question: str, asked: str) -> None:
    assert asked in asked_of_the_drug_found(question)


def test_the_dose_asked_of_the_drug_found_is_in_view() -> None:
    drugs, shown = _shown("chảy máu cấp do tăng tiêu fibrin thì thuốc gì, truyền tốc độ ra sao?")
    assert drugs[0] == "acid_aminocaproic"
    assert ("acid_aminocaproic", "lieu_luong_va_cach_dung") in {
        (b.drug_id, b.section_key) for b in shown
    }


def test_a_plain_which_drug_question_asks_nothing_again() -> None:
    assert asked_of_the_drug_found("Thuốc nào điều trị gút?") == ""


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("có thuốc tiêu sợi huyết nào", "thuốc tiêu huyết khối"),
        ("thuốc chống tiêu sợi huyết nào cầm máu", "thuốc cầm máu"),
    ],
)
def test_the_ward_word_for_a_class_names_it(text: str, name: str) -> None:
    assert [c.name for c in classes_said(text)] == [name]


def test_a_brand_the_book_indexes_stands_for_its_ingredient_as_the_book_spells_it() -> None:
    assert "ifosfamid" in get_resolver().generics_of("holoxan")
    assert get_resolver().generics_of("zyxolit") == []


def _lines_in_view(question: str) -> tuple[str, str]:
    result = answer_turn(question)
    shown = []
    for block in result.blocks:
        if block.collapsed:
            break
        shown.append(block)
    return result.frame.attribute or "", " ".join(text for b in shown for text, _ in b.claims)


def test_a_brand_the_book_lacks_given_now_is_the_pair_asked_about_not_a_drug_asked_for() -> None:
    # "kê thêm Bactrim" beside "đang uống amantadin … bị X": the interaction, not which drug
    # treats X; the line naming Bactrim's ingredient (cotrimoxazol) is in view.
    attribute, shown = _lines_in_view(
        "BN Parkinson đang uống amantadin, nay viêm phổi BS kê Bactrim. Phối hợp 2 thuốc có "
        "vấn đề gì không?"
    )
    assert attribute != "chi_dinh"
    assert "Cotrimoxazol: Mê sảng nhiễm độc" in shown


def test_a_class_said_beside_a_drug_the_book_lacks_is_looked_for_in_the_lines() -> None:
    # Concor (bisoprolol) has no monograph here; acid ioxaglic's line prints the class.
    _, shown = _lines_in_view(
        "Đang uống Concor, tiêm acid ioxaglic để chụp cản quang có cần ngưng thuốc chẹn beta không?"
    )
    assert "Thuốc chẹn beta, thuốc co mạch" in shown


def test_how_a_drug_found_works_asked_after_a_comma_shows_its_pharmacology() -> None:
    # "…, tác dụng ra sao?" after the which-drug ask is asked of the drug found: its
    # pharmacology in view, whatever words of the story it says.
    drugs, view = _in_view("Thuốc nào trị sỏi mật cholesterol, cơ chế tác dụng thế nào?")
    assert drugs[0] == "acid_chenodeoxycholic"
    assert "acid mật chủ yếu có trong mật người" in view
