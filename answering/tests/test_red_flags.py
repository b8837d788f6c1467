"""Issue 18's red flags: the emergency table, its admin rows, and the card they open."""

import pytest

from answering.delivery import delivery
from answering.red_flags import EMERGENCY, FIRST_LINES, POISONING, SELF_HARM, red_flag
from answering.turn import answer_turn
from corpus.models import RedFlag

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("BN đau ngực dữ dội, vã mồ hôi, có nên cho ngậm aspirin không?", EMERGENCY),
        ("bn dau nguc du doi va mo hoi", EMERGENCY),
        ("Sau tiêm ceftriaxon BN sốc phản vệ, xử trí sao?", EMERGENCY),
        ("bé lên cơn co giật, cho diazepam?", EMERGENCY),
        ("Bé 2 tuổi uống nhầm cả vỉ paracetamol 500mg", POISONING),
        ("be uong nham thuoc cua ba", POISONING),
        ("BN nữ 19t uống 20 viên panadol tự tử cách đây 5 tiếng", SELF_HARM),
        ("bn co y dinh tu tu", SELF_HARM),
        ("Paracetamol liều cho trẻ 5 tuổi?", None),
        # Diacritics typed decide: "tụ tủ" is not "tự tử"; "ngắt" is not "ngất".
        ("thuốc để tủ lạnh hay tụ tủ", None),
    ],
)
def test_the_table_reads_emergencies_as_wards_type_them(question: str, kind: str | None) -> None:
    assert red_flag(question) == kind


def test_a_pharmacist_adds_a_phrasing_or_switches_a_default_off() -> None:
    assert red_flag("BN khò khè thở rít sau tiêm") is None
    RedFlag.objects.create(phrase="thở rít", kind=RedFlag.Kind.EMERGENCY)
    assert red_flag("BN khò khè thở rít sau tiêm") == EMERGENCY
    RedFlag.objects.create(phrase="ngất", kind=RedFlag.Kind.EMERGENCY, active=False)
    assert red_flag("BN ngất khi đứng dậy") is None


def test_a_poisoning_is_answered_with_the_overdose_section_never_the_dose_table() -> None:
    result = answer_turn("Bé 2 tuổi uống nhầm cả vỉ paracetamol 500mg", provider=None)
    assert result.decision == "answer"
    assert result.blocks[0].claims[0][0] == FIRST_LINES[POISONING]
    sections = {(c.drug_id, c.section_key) for c in result.citations}
    assert ("paracetamol", "qua_lieu_va_xu_tri") in sections
    assert ("paracetamol", "lieu_luong_va_cach_dung") not in sections
    # The antidote's regimen for the poisoning is its dose section, shown beside it.
    assert {s for d, s in sections if d == "acetylcystein"} <= {
        "chi_dinh",
        "lieu_luong_va_cach_dung",
    }


def test_self_harm_opens_with_its_own_line() -> None:
    result = answer_turn("BN nữ 19t uống 20 viên panadol tự tử cách đây 5 tiếng", provider=None)
    assert result.answer_text.startswith(FIRST_LINES[SELF_HARM])
    assert result.frame.attribute == "qua_lieu_va_xu_tri"


def test_an_emergency_without_a_drug_still_says_what_to_do_first() -> None:
    result = answer_turn("BN đang co giật liên tục, làm gì?", provider=None)
    assert result.answer_text.startswith(FIRST_LINES[EMERGENCY])


@pytest.mark.parametrize(
    ("question", "line"),
    [
        (
            "tre 5 tuoi 18kg co giat lien tuc 10 phut chua cat, lorazepam tiem TM lieu bao nhieu",
            "Trạng thái động kinh: Tiêm tĩnh mạch: Trẻ nhỏ và trẻ em: 0,05 - 0,1 mg/kg",
        ),
        (
            "BN co giật liên tục 15 phút, phenytoin truyền TM liều bao nhiêu",
            "Điều trị trạng thái động kinh",
        ),
    ],
)
def test_a_dose_asked_for_treating_the_emergency_is_the_indications_dose(
    question: str, line: str
) -> None:
    result = answer_turn(question, provider=None)
    assert result.blocks[0].claims[0][0] == FIRST_LINES[EMERGENCY]
    assert result.frame.attribute == "lieu_luong_va_cach_dung"
    # The next block leads with the emergency's own indication, not another one's band.
    assert line in result.blocks[1].claims[0][0]


def test_an_emergency_that_followed_the_drug_is_answered_from_its_adr_management() -> None:
    result = answer_turn("BN tụt huyết áp sau khi tiêm furosemid liều bao nhiêu", provider=None)
    assert result.blocks[0].claims[0][0] == FIRST_LINES[EMERGENCY]
    assert result.frame.attribute == "huong_dan_cach_xu_tri_adr"
    assert "lieu_luong_va_cach_dung" not in {c.section_key for c in result.citations}


@pytest.mark.parametrize(
    ("question", "line"),
    [
        ("BN uống quá liều lorazepam, lơ mơ, thở chậm. Xử trí thế nào?", "uống than hoạt"),
        (
            "quá liều phenytoin, rung giật nhãn cầu, mất điều phối. Có thuốc giải độc ko?",
            "Không có thuốc giải độc đặc hiệu",
        ),
    ],
)
def test_an_overdose_shows_what_to_do_not_only_its_symptoms(question: str, line: str) -> None:
    # The question names the symptoms, the book's "*Xử trí:*" paragraph says what to do.
    result = answer_turn(question, provider=None)
    assert result.frame.attribute == "qua_lieu_va_xu_tri"
    assert delivery(result, line).before_collapsed


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("bé nuốt 12 viên sắt của mẹ", POISONING),
        ("uong het 15 vien amitriptylin", POISONING),
        # A dose is no count swallowed: per time, per day, a few.
        ("amlodipin uống 2 viên/lần", None),
        ("uong 10 vien moi ngay duoc ko", None),
        ("uống 3 viên paracetamol 500", None),
    ],
)
def test_many_tablets_swallowed_at_once_is_a_poisoning(question: str, kind: str | None) -> None:
    assert red_flag(question) == kind


def test_the_effect_reversed_asks_for_the_overdose_section() -> None:
    # "Hóa giải bằng gì" / "giải giãn cơ": the antidote, printed in the drug's Quá liều.
    for question in (
        "BN còn giãn cơ do alcuronium sau mổ, hóa giải bằng gì?",
        "het mo chua tu tho, giai gian co alcuronium bang gi",
    ):
        result = answer_turn(question, provider=None)
        assert result.frame.attribute == "qua_lieu_va_xu_tri", question


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Tiêm bắp vitamin K1 có nguy cơ sốc phản vệ không?", None),
        ("BN tiền sử phản vệ với penicilin, dùng cefalexin được không", None),
        ("dự phòng co giật do sốt cao cho trẻ thì dùng gì", None),
        ("thuốc nào có thể gây co giật ở người già", None),
        ("vừa tiêm cefotaxim xong BN phản vệ, tụt huyết áp", EMERGENCY),
        ("bé lên cơn co giật sau uống thuốc ho", EMERGENCY),
    ],
)
def test_a_sign_said_as_a_risk_a_history_or_a_prevention_is_no_emergency_now(
    question: str, kind: str | None
) -> None:
    assert red_flag(question) == kind
