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
