"""Query understanding: deterministic frames, the bounded model call, fail-closed validation."""

import pytest

from answering.model_frame import understand_turn
from answering.policy import resolve_subject_scope
from answering.providers import Budget, ProviderError
from answering.turn import answer_turn
from answering.understanding import understand

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("question", "turn_type", "attribute"),
    [
        (
            "Efferalgan chống chỉ định trong những trường hợp nào?",
            "drug_attribute",
            "chong_chi_dinh",
        ),
        ("Thuốc nào dùng điều trị động kinh?", "condition_to_drug", "chi_dinh"),
        (
            "Thuốc nào gây hội chứng Stevens-Johnson?",
            "condition_relation",
            "tac_dung_khong_mong_muon",
        ),
        (
            "Thuốc nào chống chỉ định cho người suy gan nặng?",
            "condition_relation",
            "chong_chi_dinh",
        ),
        ("Alverin citrat có tác dụng gì?", "drug_to_condition", "chi_dinh"),
        ("Amlodipin là thuốc gì?", "drug_overview", None),
        ("omeprazol", "drug_overview", None),
        (
            "Đang dùng warfarin có phối hợp thêm aspirin liều cao được không?",
            "interaction",
            "tuong_tac_thuoc",
        ),
        (
            "be 20kg truyen tinh mach paracetamol moi lan bao nhieu mg?",
            "dosing_calc",
            "lieu_luong_va_cach_dung",
        ),
        ("Cảm ơn bạn nhiều nhé!", "smalltalk", None),
    ],
)
def test_deterministic_frames(question: str, turn_type: str, attribute: str | None) -> None:
    frame = understand(question)
    assert (frame.turn_type, frame.attribute) == (turn_type, attribute)


def test_weight_is_accepted_only_within_0_to_500_kg() -> None:
    assert understand("bé 15 kg ibuprofen liều bao nhiêu").weight_kg == 15.0
    assert understand("paracetamol 900 kg liều bao nhiêu").weight_kg is None


def test_the_scope_policy_narrows_but_never_widens() -> None:
    assert resolve_subject_scope("Chó nhà tôi bị sốt", "human") == "non_human"
    assert resolve_subject_scope("Liều cho người lớn", "non_human") == "non_human"
    assert resolve_subject_scope("Liều cho người lớn", "human") == "human"
    assert resolve_subject_scope("thuốc thú y cho gia súc") == "non_human"


def test_the_model_sees_only_the_bounded_candidates_and_cannot_substitute(scripted) -> None:  # type: ignore[no-untyped-def]
    provider = scripted(
        {
            "turn_type": "drug_attribute",
            "drugs": ["acid_acetylsalicylic", "aspirinol"],
            "attribute": "thoi_ky_mang_thai",
            "population": "bà bầu",
            "weight_kg": 900,
            "quick_replies": ["a" * 50, "Có", "Có", "Không", "Chưa rõ", "Khác"],
        }
    )
    frame = understand_turn(
        "Bà bầu uống aspirinol được không?", provider=provider, budget=Budget(10)
    )
    system, user = provider.prompts[-1]
    assert "acid_acetylsalicylic" in user  # fuzzy candidate shown, with its own name first
    assert "ACID ACETYLSALICYLIC (Aspirin)" in user
    assert "warfarin" not in user  # not the whole formulary
    assert "KHÁC chống chỉ định" in user  # than_trong vs chong_chi_dinh spelled out
    # Reached only by fuzzy matching: offered back, never the drug answered for.
    assert frame.drugs == () and "aspirinol" in frame.unknown_drugs
    assert [d for _, offered in frame.did_you_mean for _, d in offered] == ["acid_acetylsalicylic"]
    # The invalid enum and the out-of-range weight are dropped; "bà bầu" is the floor's reading.
    assert frame.population == "phu_nu_mang_thai" and frame.weight_kg is None
    assert frame.quick_replies == ("Có", "Không", "Chưa rõ", "Khác")


def test_a_provider_outage_during_understanding_keeps_the_deterministic_frame(scripted) -> None:  # type: ignore[no-untyped-def]
    question = "Liều paracetamol cho người lớn?"
    result = answer_turn(
        question,
        provider=scripted(
            ProviderError("provider_unavailable"), ProviderError("provider_unavailable")
        ),
    )
    # Not "out of scope": the question is understood without the model; the answer call
    # failing too is the turn's reason.
    assert result.frame.drugs == ("paracetamol",)
    assert result.frame.attribute == "lieu_luong_va_cach_dung"
    assert result.frame.understood_by == "deterministic"
    assert result.frame.understanding_note == "model_provider_unavailable"
    assert result.mode == "book_after_model_failed" and result.reason == "provider_unavailable"


def test_an_unparseable_or_empty_frame_falls_back_with_its_reason(scripted) -> None:  # type: ignore[no-untyped-def]
    question = "Liều paracetamol cho người lớn?"
    for reply, note in (
        ("tôi nghĩ là paracetamol", "model_malformed_output"),
        ("{}", "model_empty_frame"),
    ):
        frame = understand_turn(question, provider=scripted(reply))
        assert frame.understood_by == "deterministic" and frame.understanding_note == note
        assert frame.drugs == ("paracetamol",) and frame.turn_type == "drug_attribute"


def test_the_model_cannot_demote_a_certain_frame_and_only_fills_its_gaps(scripted) -> None:  # type: ignore[no-untyped-def]
    question = "Liều paracetamol cho người lớn?"
    demoted = understand_turn(question, provider=scripted({"turn_type": "out_of_scope"}))
    assert (
        demoted.turn_type == "drug_attribute"
        and demoted.understanding_note == "model_demoted_frame"
    )
    refined = understand_turn(
        question,
        provider=scripted(
            {
                "turn_type": "drug_attribute",
                "drugs": ["paracetamol"],
                "attribute": "chong_chi_dinh",
                "route": "uong",
            }
        ),
    )
    # The certain section stays; a route nobody said is not taken (issue 25), and the note
    # says so.
    assert refined.attribute == "lieu_luong_va_cach_dung" and refined.route is None
    assert refined.understood_by == "merged"
    assert refined.understanding_note == (
        "model_values_dropped: route='uong' (no words for it in the question)"
    )


def test_understanding_deterministic_uses_the_model_for_answers_only(scripted, settings) -> None:  # type: ignore[no-untyped-def]
    settings.UNDERSTANDING = "deterministic"
    model = scripted()
    frame = understand_turn("Liều paracetamol cho người lớn?", provider=model)
    assert frame.drugs == ("paracetamol",) and model.prompts == []


def test_surface_cues_override_the_model_where_the_form_is_unambiguous(scripted) -> None:  # type: ignore[no-untyped-def]
    wrong = {
        "turn_type": "condition_to_drug",
        "drugs": [],
        "attribute": "chi_dinh",
        "condition": "suy gan",
    }
    frame = understand_turn(
        "Thuốc nào chống chỉ định cho người suy gan nặng?",
        provider=scripted(wrong),
        budget=Budget(10),
    )
    assert frame.turn_type == "condition_relation" and frame.relation == "contraindication"
    named = {"turn_type": "drug_overview", "drugs": ["alverin_citrat"]}
    frame = understand_turn(
        "Alverin citrat có tác dụng gì?", provider=scripted(named), budget=Budget(10)
    )
    assert frame.turn_type == "drug_to_condition"


def test_a_different_drug_follow_up_inherits_nothing_from_the_model_path(scripted) -> None:  # type: ignore[no-untyped-def]
    prior = understand("Omeprazol liều cho người lớn?")
    frame = understand_turn(
        "Còn loratadin thì sao?",
        ["Omeprazol liều cho người lớn?"],
        prior,
        provider=scripted(
            {"turn_type": "drug_attribute", "drugs": ["loratadin"], "context_action": "continue"}
        ),
        budget=Budget(10),
    )
    assert frame.drugs == ("loratadin",)
    assert frame.attribute is None and frame.population is None


def test_medicines_the_patient_takes_are_context_not_the_question() -> None:
    frame = understand(
        "Bệnh nhân suy thận đang uống metformin, bị tăng huyết áp nên dùng thuốc nào?"
    )
    assert frame.turn_type == "condition_to_drug" and frame.drugs == ()
    assert frame.condition == "tang huyet ap"
    assert frame.patient.current_medicines == ("metformin",)
    assert frame.patient.renal and frame.patient.comorbidities == ("suy thận",)
    # Named drugs without "đang dùng" stay the subject of the question.
    assert (
        understand("Đang dùng warfarin có phối hợp thêm aspirin liều cao được không?").turn_type
        == "interaction"
    )


@pytest.mark.parametrize(
    ("question", "scope"),
    [
        ("heparin nguồn ruột lợn có dùng cho người dị ứng thịt lợn không", "human"),
        ("điều trị sán lợn bằng albendazol liều bao nhiêu", "human"),
        ("bé bị chó cắn tiêm gì", "human"),
        ("bn dị ứng sữa bò dùng thuốc được không", "human"),
        ("còn cho con bú?", "human"),
        ("con cho bu duoc khong", "human"),
        ("cho cho uong paracetamol duoc khong", "non_human"),
        ("con chó nhà tôi bị ghẻ", "non_human"),
        ("cho meo uong thuoc gi", "non_human"),
        ("chó bị ghẻ dùng ivermectin được không", "non_human"),
    ],
)
def test_an_animal_word_counts_only_when_the_animal_is_the_patient(
    question: str, scope: str
) -> None:
    assert resolve_subject_scope(question) == scope
