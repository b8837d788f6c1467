"""Issue 18 on the real corpus: a lab value the question gives ("INR 9", "INR 6,5", "kali
6,2") puts the book's line for that range in view; asked to undo the named drug's effect
("dùng thuốc gì để đảo ngược"), its overdose section answers, never another drug indicated
for the story's words."""

import pytest

from answering.delivery import delivery
from answering.turn import answer_turn
from answering.understanding import understand
from corpus.sections import SectionKey
from retrieval.labs import Band, lab_bands, lines_for_labs

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "lab", "bands"),
    [
        ("Nếu INR > 5 nhưng < 9 và người bệnh", "inr", [Band(5, 9)]),
        ("INR bằng hoặc lớn hơn 9,0", "inr", [Band(9, float("inf"))]),
        ("duy trì INR từ 2 đến 3", "inr", [Band(2, 3)]),
        ("INR 2,0 - 3,0 là thích hợp", "inr", [Band(2, 3)]),
        ("số lượng tiểu cầu <100 000/mm<sup>3</sup>", "tieu_cau", [Band(0, 100000)]),
        ("glucose huyết lúc đói dưới 70 mg/dl", "glucose", [Band(0, 70)]),
        ("5 < INR < 8, có chảy máu nhẹ: Ngừng thuốc", "inr", [Band(5, 8)]),
        ("có INR (tỉ lệ chuẩn hóa quốc tế) > 1,7", "inr", [Band(1.7, float("inf"))]),
        # A share is no value of the lab; a lab named without a bound prints no band.
        ("số lượng tiểu cầu giảm tương đối từ 30 - 50%", "tieu_cau", []),
        ("phải theo dõi INR thường xuyên", "inr", []),
    ],
)
def test_the_bands_a_line_prints_for_a_lab(text: str, lab: str, bands: list[Band]) -> None:
    assert lab_bands(text, lab) == bands


def test_the_narrowest_band_holding_the_value_comes_first_and_an_edge_holds_both() -> None:
    lines = ["Nếu INR > 20, tiêm", "Nếu INR > 9, không xuất huyết", "Nếu INR > 5 nhưng < 9 và"]
    assert lines_for_labs(lines, [("inr", 9.0)]) == [lines[2], lines[1]]
    assert lines_for_labs(lines, [("inr", 6.5)]) == [lines[2]]
    assert lines_for_labs(lines, [("inr", 1.2)]) == []


@pytest.mark.parametrize(
    ("question", "key"),
    [
        (
            "BN nữ 70t đang dùng warfarin, INR 9, chảy máu chân răng. Dùng thuốc gì để đảo ngược?",
            "Nếu INR > 9, không xuất huyết, bỏ 1 lần thuốc và cho vitamin K",
        ),
        ("bn uong warfarin inr 6,5 ko chay mau xu tri sao", "Nếu INR > 5 nhưng < 9"),
        (
            "Cụ ông đang dùng Sintrom, INR 7, chảy máu nhẹ, xử trí thế nào?",
            "5 < INR < 8, có chảy máu nhẹ",
        ),
    ],
)
def test_a_lab_value_puts_the_books_line_for_its_range_in_view(question: str, key: str) -> None:
    assert delivery(answer_turn(question, provider=None), key).before_collapsed


def test_undoing_the_named_drugs_effect_is_its_overdose_not_another_drugs_indication() -> None:
    frame = understand("BN đang dùng warfarin, chảy máu chân răng. Dùng thuốc gì để đảo ngược?")
    assert frame.drugs == ("warfarin",)
    assert frame.attribute == SectionKey.QUA_LIEU_VA_XU_TRI
    # A new condition of the patient on the drug is still a which-drug question.
    other = understand("BN đang dùng warfarin, bị nấm candida miệng dùng thuốc gì?")
    assert other.shape == "which_drug"
