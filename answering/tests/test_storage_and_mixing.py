"""How long a made-up drug keeps, and what it must not be mixed with, in ward words.

Each question is asked without the section's name ("để được mấy ngày", "pha loãng với NaCl
0,9% được không", "tiêm chung dây truyền"); the line that answers is in view.
"""

import pytest

from answering.delivery import delivery
from answering.turn import answer_turn

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("question", "section", "line"),
    [
        (
            "Amphotericin B sau hoàn nguyên pha loãng với NaCl 0,9% truyền được không?",
            "tuong_ky",
            "không được pha với dung dịch tiêm natri clorid 0,9%",
        ),
        (
            "furosemid tiêm pha loãng với glucose 5% được ko",
            "tuong_ky",
            "không được trộn lẫn hoặc pha loãng trong dung dịch glucose",
        ),
        (
            "phenytoin tiêm trộn với thuốc khác trong dịch truyền được không",
            "tuong_ky",
            "bị kết tủa khi trộn lẫn với các thuốc khác",
        ),
        (
            "ceftriaxon tiêm chung dây truyền với vancomycin có sao không",
            "tuong_ky",
            "Dây truyền hoặc bơm tiêm phải được tráng rửa cẩn thận",
        ),
        (
            "hon dich amoxicillin da pha cho be de duoc may ngay",
            "do_on_dinh_va_bao_quan",
            "hỗn dịch này có thể bền vững trong 14 ngày",
        ),
        (
            "Augmentin hỗn dịch đã pha để được mấy ngày",
            "do_on_dinh_va_bao_quan",
            "thuốc giữ được trong 7 ngày",
        ),
        ("heparin dung dịch tự pha để được bao lâu", "do_on_dinh_va_bao_quan", "Dung dịch tự pha"),
    ],
)
def test_keeping_and_mixing_questions_show_the_answering_line(
    question: str, section: str, line: str
) -> None:
    result = answer_turn(question, provider=None)
    assert result.frame.attribute == section
    assert delivery(result, line).before_collapsed, question
    assert "Glucose:" not in result.answer_text  # a fluid's "5%" is no blood glucose


@pytest.mark.parametrize(
    ("question", "line"),
    [
        ("lọ acetylcystein đã mở nắp thì dùng trong bao lâu?", "phải dùng trong vòng 96 giờ"),
        ("alopurinol natri truyền TM pha xong dùng trong bao lâu?", "dùng trong vòng 10 giờ"),
        ("Depakine tiêm sau khi pha dùng trong bao lâu?", "trong vòng ít nhất 24 giờ"),
    ],
)
def test_how_long_once_made_up_is_the_in_use_time_not_the_treatments(
    question: str, line: str
) -> None:
    result = answer_turn(question, provider=None)
    assert result.frame.attribute == "do_on_dinh_va_bao_quan"
    assert delivery(result, line).delivered


def test_how_long_a_treatment_lasts_is_still_the_dose() -> None:
    result = answer_turn("vancomycin điều trị viêm nội tâm mạc dùng trong bao lâu?", provider=None)
    assert result.frame.attribute == "lieu_luong_va_cach_dung"


@pytest.mark.parametrize(
    ("question", "line"),
    [
        # A container part used and the rest kept, typed without diacritics ("mo ra" is
        # "mở ra", never "mổ"): how long it keeps once opened.
        (
            "lo acetylcystein tiem mo ra con du, de danh mai dung tiep dc ko",
            "phải dùng trong vòng 96 giờ",
        ),
        ("lọ insulin mở ra dùng dở, để dành được bao lâu?", "nhiệt độ phòng"),
    ],
)
def test_a_container_part_used_asks_how_long_it_keeps(question: str, line: str) -> None:
    result = answer_turn(question)
    assert result.frame.attribute == "do_on_dinh_va_bao_quan"
    assert delivery(result, line).before_collapsed


@pytest.mark.parametrize(
    ("question", "section", "line"),
    [
        # Into a fluid's bottle or bag, the drug's dose between ("pha … vào chai …").
        (
            "ĐD pha furosemid vào chai glucose 5% truyền được ko?",
            "tuong_ky",
            "không được trộn lẫn hoặc pha loãng trong dung dịch glucose",
        ),
        (
            "Amphotericin B pha vào túi NaCl 0,9% để truyền dc ko",
            "tuong_ky",
            "Không pha thuốc bột đông khô với dung dịch tiêm dextrose 5%",
        ),
        # Made up ahead and kept for later.
        (
            "pha sẵn ceftriaxon từ sáng để đến chiều tiêm được không",
            "do_on_dinh_va_bao_quan",
            "Nên dùng dung dịch mới pha.",
        ),
    ],
)
def test_into_a_bottle_or_made_up_ahead_shows_the_answering_line(
    question: str, section: str, line: str
) -> None:
    result = answer_turn(question)
    assert result.frame.attribute == section
    assert delivery(result, line).before_collapsed, line
