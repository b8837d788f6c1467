"""The ward's words read as the book prints them (`answering.ward_words`, `cues.book_words`):
a capital "K" before an organ is its cancer; the wards' small "k" ("không") and "K máu"
(potassium) are not."""

import pytest

from answering.cues import book_words

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("BN K thận tế bào sáng", "BN ung thư thận tế bào sáng"),
        ("bn K phoi giai doan cuoi", "bn ung thư phoi giai doan cuoi"),
        ("bn k than phien gi", "bn k than phien gi"),
        ("K máu 5,6", "kali máu 5,6"),
        ("K+ 3,0 mmol/L", "K+ 3,0 mmol/L"),
        ("catheter TMTT bị tắc", "catheter tĩnh mạch trung tâm bị tắc"),
        ("điều trị HKTMS", "điều trị huyết khối tĩnh mạch sâu"),
    ],
)
def test_ward_words_are_read_as_the_book_writes_them(typed: str, read: str) -> None:
    assert book_words(typed) == read


def test_a_one_syllable_lay_word_is_read_only_as_typed() -> None:
    # "mổ" is "phẫu thuật"; folded, "mo" is "mở" as often ("chai mo ra").
    assert book_words("sau mổ 3 ngày") == "sau phẫu thuật 3 ngày"
    assert book_words("chai mo ra truyen do") == "chai mo ra truyen do"


@pytest.mark.parametrize(
    ("question", "line"),
    [
        # Alcohol as wards say it: "nhậu", "uống bia" are the book's "uống rượu".
        ("đang uống metformin, tối nay đi nhậu được không", "Tránh hoặc hạn chế uống rượu"),
        (
            "dang dung metronidazol, cuoi tuan uong bia duoc ko",
            "Metronidazol ức chế các enzym oxy hóa rượu",
        ),
    ],
)
def test_alcohol_in_ward_words_finds_the_books_alcohol_line(question: str, line: str) -> None:
    from answering.delivery import delivery
    from answering.turn import answer_turn

    assert delivery(answer_turn(question), line).before_collapsed, line


def test_a_pregnancy_planned_and_may_it_yet_are_read() -> None:
    from answering.cues import YES_NO
    from answering.turn import answer_turn
    from corpus.text import folded_phrase

    # "muốn có con" is a pregnancy asked about; "được chưa" asks as "được không".
    result = answer_turn("BN nữ 28t đang dùng acitretin, muốn có con thì sao?")
    assert result.frame.population == "phu_nu_mang_thai"
    assert result.frame.attribute == "thoi_ky_mang_thai"
    assert YES_NO.search(folded_phrase(book_words("ngưng thuốc 5 tuần, uống rượu đc chưa?")))
