"""Issue 18 on the real corpus: a "may it be given" question keeps in view the book's lines
that forbid the drug for the patient's situation, wherever the book prints them: a
contraindication written among the doses counts as one."""

import pytest

from answering.delivery import delivery
from answering.turn import answer_turn
from corpus.sections import SectionKey
from retrieval.floor import safety_floor
from retrieval.question_words import situation_of
from retrieval.retrieve import own_names

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("drug", "story", "line"),
    [
        (
            "amikacin",
            "viêm nội tâm mạc do Enterococcus, tiêm 1 lần/ngày liều cao",
            "Phải tránh dùng phác đồ liều cao, tiêm 1 lần/ngày amikacin",
        ),
        ("ciprofloxacin", "lậu biến chứng", "Không nên dùng kháng sinh nhóm fluoroquinolon"),
        (
            "acid_ethacrynic",
            "suy thận, độ thanh thải creatinin 8",
            "Tránh dùng cho người bệnh suy thận",
        ),
    ],
)
def test_a_dose_line_that_forbids_the_drug_for_the_situation_is_in_the_floor(
    drug: str, story: str, line: str
) -> None:
    floor = safety_floor([drug], situation_of(story, own_names(drug)))
    dose_lines = [
        text
        for f in floor
        if f.evidence.section_key == SectionKey.LIEU_LUONG_VA_CACH_DUNG
        for text in f.lines
    ]
    assert any(line in text for text in dose_lines), dose_lines


def test_a_dose_line_that_only_shares_the_words_is_not() -> None:
    """Only lines that forbid: the dose lines for a renal patient are the dose floor's."""
    floor = safety_floor(["amoxicilin"], situation_of("viêm tai giữa", own_names("amoxicilin")))
    assert not [f for f in floor if f.evidence.section_key == SectionKey.LIEU_LUONG_VA_CACH_DUNG]


@pytest.mark.parametrize(
    ("question", "key"),
    [
        # "ĐTĐ"/"DTD" is searched as the book's "đái tháo đường"; heavy drinking as "nghiện rượu".
        ("BN nghiện rượu nặng, xơ gan, dùng paracetamol được không?", "rượu"),
        (
            "BN nam 70t suy thận, dùng Xatral XL viên tác dụng kéo dài được không?",
            "Chống chỉ định dùng viên tác dụng kéo dài",
        ),
        (
            "BN nam 45t viêm nội tâm mạc do Enterococcus, amikacin tiêm 1 lần/ngày liều cao được không?",
            "viêm nội tâm mạc",
        ),
    ],
)
def test_the_forbidding_line_is_in_view(question: str, key: str) -> None:
    assert delivery(answer_turn(question, provider=None), key).before_collapsed


@pytest.mark.parametrize(
    ("question", "key"),
    [
        (
            "BN động kinh đang uống carbamazepin, viêm bàng quang, kê acid nalidixic được không?",
            "động kinh",
        ),
        (
            "BN rung nhĩ đang uống digoxin, nay tiền sử huyết khối tắc mạch, cho acid tranexamic "
            "được không?",
            "huyết khối",
        ),
    ],
)
def test_a_contraindication_naming_the_patient_is_not_followed_by_a_not_named_notice(
    question: str, key: str
) -> None:
    """The pair is not named in Tương tác thuốc, but the second drug's contraindication names
    the patient's disease: that is the answer, and no "không nêu" reads as reassurance."""
    result = answer_turn(question, provider=None)
    assert delivery(result, key).before_collapsed
    assert "không nêu" not in result.answer_text


def test_the_not_named_notice_stays_when_no_contraindication_names_the_patient() -> None:
    result = answer_turn(
        "BN đang uống digoxin, cho thêm acid tranexamic được không?", provider=None
    )
    assert "không nêu đích danh tương tác" in result.answer_text
