"""Model mode: nothing enters the frame that the question did not say (issue 25). The model is
the real OpenAI-compatible adapter talking to a scripted fake server on 127.0.0.1."""

import json

import pytest
from django.conf import settings
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from answering.model_frame import understand_turn
from answering.providers import Budget
from answering.quantities import read_quantities
from answering.turn import answer_turn
from answering.understanding import understand
from corpus.text import folded_phrase
from retrieval.catalog import get_resolver
from retrieval.phrases import populations, routes
from retrieval.situations import POPULATION_PHRASES, ROUTE_PHRASES

pytestmark = pytest.mark.django_db

CHILD_DOSE = "Cho mình xin liều paracetamol cho trẻ em với"  # dev-003: the book asks back


def test_a_weight_nobody_typed_is_dropped_and_named(scripted) -> None:  # type: ignore[no-untyped-def]
    # What Gemma 3 270M did under json_schema: the prompt's example weight in the frame.
    model = scripted({"turn_type": "drug_attribute", "drugs": ["paracetamol"], "weight_kg": 100})
    frame = understand_turn(CHILD_DOSE, provider=model, budget=Budget(10))
    assert frame.weight_kg is None and frame.population == "tre_em"
    assert frame.understanding_note == (
        "model_values_dropped: weight_kg=100.0 (no such weight in the question)"
    )


def test_the_ask_back_holds_in_model_mode(scripted) -> None:  # type: ignore[no-untyped-def]
    model = scripted(
        {"turn_type": "dosing_calc", "drugs": ["paracetamol"], "weight_kg": 100, "age_text": "5"},
        *["{}"] * 4,
    )
    result = answer_turn(CHILD_DOSE, provider=model)
    assert result.decision == "clarify", result.reason
    assert result.frame.weight_kg is None and result.frame.age_text is None
    assert "age_text='5' (no such age in the question)" in str(result.frame.understanding_note)


def test_a_value_of_an_earlier_turn_is_said_and_the_floors_value_is_kept(scripted) -> None:  # type: ignore[no-untyped-def]
    history = ["Bé 3 tuổi nặng 14 kg bị sốt"]
    said_before = understand_turn(
        "liều paracetamol?",
        history,
        provider=scripted(
            {"turn_type": "drug_attribute", "drugs": ["paracetamol"], "weight_kg": 14}
        ),
    )
    assert said_before.weight_kg == 14
    overwritten = understand_turn(
        "liều paracetamol cho bé 12 kg",
        provider=scripted(
            {
                "turn_type": "drug_attribute",
                "drugs": ["paracetamol"],
                "weight_kg": 20,
                "population": "nguoi_lon",
                "route": "tiem",
            }  # fmt: skip
        ),
    )
    assert overwritten.weight_kg == 12 and overwritten.population == "tre_em"
    assert overwritten.route is None
    assert "weight_kg=20.0 (the question reads 12.0)" in str(overwritten.understanding_note)


def test_names_not_typed_are_dropped_and_the_near_miss_offer_is_kept(scripted) -> None:  # type: ignore[no-untyped-def]
    # dev-015: Gemma listed the prompt's placeholders as the names not found, and the "did you
    # mean paracetamol" offer was lost.
    question = "Thuốc Paracetamolex 500 dùng cho phụ nữ có thai được không?"
    floor = understand(question)
    assert floor.did_you_mean
    placeholder = understand_turn(
        question,
        provider=scripted(
            {"turn_type": "drug_attribute", "unknown_drugs": ["<tên người dùng gõ>"]}
        ),
    )
    # A placeholder returned as it is fails the schema: the floor, offer and all.
    assert placeholder.understanding_note == "model_malformed_output"
    assert placeholder.did_you_mean == floor.did_you_mean
    frame = understand_turn(
        question,
        provider=scripted(
            {
                "turn_type": "drug_attribute",
                "drugs": [],
                "attribute": "thoi_ky_mang_thai",
                "unknown_drugs": ["Panadol Extra", "Paracetamolex"],
                "patient": {"breastfeeding": True, "pregnancy": True},
            }  # fmt: skip
        ),
    )
    assert frame.understood_by == "model"
    assert frame.unknown_drugs == floor.unknown_drugs
    assert frame.did_you_mean == floor.did_you_mean
    assert frame.patient.pregnancy and not frame.patient.breastfeeding
    note = str(frame.understanding_note)
    assert "unknown_drugs='Panadol Extra' (not a span of the question)" in note
    assert "patient.breastfeeding (no words for it in the question)" in note


def _questions() -> list[str]:
    dev = settings.BASE_DIR.parent / "shared" / "eval" / "dev.jsonl"
    generated = settings.BASE_DIR / "bench" / "ward_set_book.jsonl"
    rows = [
        json.loads(line) for f in (dev, generated) for line in f.read_text().splitlines() if line
    ]
    return [r["question"] for r in rows if not r.get("history")]


QUESTIONS = _questions() if (settings.BASE_DIR.parent / "shared" / "eval").is_dir() else []
_FLOORS: dict[str, object] = {}


def _plausible_frame(draw: st.DrawFn, question: str) -> dict[str, object]:
    ids = sorted(get_resolver().display)
    typed = question.split()
    text = st.one_of(st.sampled_from(typed), st.text(min_size=1, max_size=12))
    return {
        "turn_type": draw(st.sampled_from(["drug_attribute", "dosing_calc", "interaction"])),
        "drugs": draw(st.lists(st.sampled_from(ids), max_size=2)),
        "unknown_drugs": draw(st.lists(text, max_size=2)),
        "population": draw(st.none() | st.sampled_from(sorted(POPULATION_PHRASES))),
        "route": draw(st.none() | st.sampled_from(sorted(ROUTE_PHRASES))),
        "weight_kg": draw(st.none() | st.sampled_from([3.5, 10.0, 12.0, 20.0, 60.0, 100.0])),
        "age_text": draw(st.none() | st.sampled_from(["3 tuổi", "10 tháng", "70 tuổi", "5"])),
        "condition": draw(st.none() | text),
        "patient": {
            "renal": draw(st.booleans()),
            "pregnancy": draw(st.booleans()),
            "current_medicines": draw(st.lists(st.sampled_from(ids), max_size=1)),
            "comorbidities": draw(st.lists(text, max_size=1)),
        },
    }


@st.composite
def _question_and_frame(draw: st.DrawFn) -> tuple[str, dict[str, object]]:
    question = draw(st.sampled_from(QUESTIONS))
    return question, _plausible_frame(draw, question)


@pytest.mark.skipif(not QUESTIONS, reason="no evaluation questions at ../shared/eval")
@hypothesis_settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=_question_and_frame())
def test_a_random_plausible_frame_never_changes_the_floor_nor_adds_what_was_not_said(
    scripted, case: tuple[str, dict[str, object]]
) -> None:  # type: ignore[no-untyped-def]
    question, reply = case
    floor = _FLOORS.setdefault(question, understand(question))
    frame = understand_turn(question, provider=scripted(reply), budget=Budget(10))
    for name in ("weight_kg", "age_text", "age_months", "population", "route", "condition",
                 "pregnancy_weeks", "clcr"):  # fmt: skip
        if getattr(floor, name) not in (None, ""):
            assert getattr(frame, name) == getattr(floor, name), (name, question, reply)
    for flag in ("renal", "hepatic", "pregnancy", "breastfeeding"):
        if getattr(floor.patient, flag):
            assert getattr(frame.patient, flag), (flag, question)
    said = read_quantities(question)
    assert frame.weight_kg in (None, said.weight_kg), question
    assert frame.age_months in (None, said.age_months, floor.age_months), question
    assert frame.population in (None, floor.population, *populations(question)), question
    assert frame.route in (None, floor.route, *routes(question)), question
    folded = f" {folded_phrase(question)} "
    for name in frame.unknown_drugs:
        assert name in floor.unknown_drugs or f" {folded_phrase(name)} " in folded, name
    if frame.patient.renal and not floor.patient.renal:
        assert "suy_than" in populations(question), question
    if frame.patient.pregnancy and not floor.patient.pregnancy:
        assert "phu_nu_mang_thai" in populations(question) or floor.pregnancy_weeks, question


def test_a_rewritten_question_with_words_nobody_wrote_is_not_searched(scripted) -> None:  # type: ignore[no-untyped-def]
    question = "liều paracetamol cho người lớn"
    frame = understand_turn(
        question,
        provider=scripted(
            {
                "turn_type": "drug_attribute",
                "drugs": ["paracetamol"],
                "standalone_query": "liều paracetamol cho người lớn nặng 100 kg suy thận",
                "patient": {"comorbidities": ["suy thận"], "allergies": ["penicilin"]},
            }  # fmt: skip
        ),
    )
    assert frame.standalone_query == understand(question).standalone_query
    assert frame.patient.comorbidities == () and frame.patient.allergies == ()
    note = str(frame.understanding_note)
    assert "standalone_query (words not in the question)" in note
    assert "patient.allergies='penicilin' (not in the question)" in note


def test_a_turn_type_the_model_did_not_give_is_the_floors(scripted) -> None:  # type: ignore[no-untyped-def]
    # Gemma 3 270M under json_schema (fixtures/small-model-json-schema/gemma-3-270m-turns):
    # only the drug, upper-cased; the default turn type made the turn abstain.
    question = "Amlodipin là thuốc gì?"
    floor = understand(question)
    result = answer_turn(question, provider=scripted({"drugs": ["AMLODIPIN"]}, *["{}"] * 4))
    assert result.frame.turn_type == floor.turn_type == "drug_overview"
    assert result.decision == answer_turn(question, provider=None).decision == "answer"
