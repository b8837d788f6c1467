"""The frame of one turn through a model: one bounded call over the candidate drugs, its
output validated field by field, then the narrow surface rewrites. Without a model the
deterministic frame of `understanding.py` is the frame."""

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from answering.cues import has
from answering.policy import resolve_subject_scope
from answering.prompts import understanding_request
from answering.providers import Budget, Provider, ProviderError, parse_json_object
from answering.understanding import as_relation, condition_words, merge_with_prior, understand
from corpus.sections import SECTION_KEYS
from corpus.text import folded_phrase
from retrieval.catalog import get_resolver
from retrieval.frame import TURN_TYPES, PatientContext, QueryFrame
from retrieval.phrases import POPULATION_PHRASES, ROUTE_PHRASES

logger = logging.getLogger("duocthu.understanding")


def understand_turn(
    question: str,
    history: Sequence[str] = (),
    prior: QueryFrame | None = None,
    *,
    provider: Provider | None = None,
    budget: Budget | None = None,
    claimed_scope: str = "human",
) -> QueryFrame:
    """The frame of one turn: deterministic without a model, one bounded call with one."""
    if provider is None:
        return merge_with_prior(understand(question, claimed_scope), prior, question)
    budget = budget or Budget(30)
    resolver = get_resolver()
    candidates: list[str] = []
    for line in [*history[-6:], question]:
        for drug_id in resolver.resolve(line):
            if drug_id not in candidates:
                candidates.append(drug_id)
    if not candidates:
        for line in [*history[-2:], question]:
            candidates += [d for d, _ in resolver.suggest(line, 5, 0.55) if d not in candidates]
    shown = [(d, resolver.display.get(d, d)) for d in candidates]
    known = prior.summary() if prior is not None else {}
    system, user = understanding_request(question, shown, known, list(history))
    try:
        raw = parse_model_frame(provider.complete(system, user, budget, max_tokens=800))
    except ProviderError as exc:
        logger.warning("understanding failed closed: %s", exc)
        reason = (
            "understanding_malformed_output"
            if exc.reason == "malformed_output"
            else "understanding_provider_unavailable"
        )
        return QueryFrame(
            turn_type="out_of_scope",
            needs_clarify=True,
            system_error=reason,
            standalone_query=question,
        )
    frame = frame_from_model(raw, candidates, question, claimed_scope)
    return merge_with_prior(apply_surface_cues(frame, question), prior, question)


def parse_model_frame(text: str) -> dict[str, Any]:
    return parse_json_object(text)


# The model picks from the same closed sets as the phrase tables.
_POPULATIONS = tuple(POPULATION_PHRASES)
_ROUTES = tuple(ROUTE_PHRASES)
_RELATIONS = ("indication", "adverse_effect", "contraindication", "unknown")


def _enum(value: object, allowed: Sequence[str]) -> str | None:
    return value if isinstance(value, str) and value in allowed else None


def _id_in(value: object, shown: Sequence[str]) -> str | None:
    if not isinstance(value, str):
        return None
    key = value.strip().lower().replace(" ", "_")
    return key if key in shown else None


def frame_from_model(
    raw: dict[str, Any], shown: Sequence[str], question: str, claimed_scope: str
) -> QueryFrame:
    """Validate the model's frame: drugs outside the shown set become unknown, never substituted."""
    drugs: list[str] = []
    unknown: list[str] = []
    for value in raw.get("drugs") or []:
        drug_id = _id_in(value, shown)
        if drug_id is None:
            unknown.append(str(value))
        elif drug_id not in drugs:
            drugs.append(drug_id)
    unknown += [str(v) for v in raw.get("unknown_drugs") or [] if str(v) not in unknown]
    turn_type = _enum(raw.get("turn_type"), TURN_TYPES) or (
        "drug_attribute" if drugs else "out_of_scope"
    )
    weight = raw.get("weight_kg")
    weight_kg = (
        float(weight) if isinstance(weight, int | float) and 0 < float(weight) <= 500 else None
    )
    replies = raw.get("quick_replies") or []
    quick = tuple(
        dict.fromkeys(r.strip() for r in replies if isinstance(r, str) and 0 < len(r.strip()) <= 40)
    )[:4]
    patient: dict[str, Any] = raw["patient"] if isinstance(raw.get("patient"), dict) else {}
    frame = QueryFrame(
        turn_type=turn_type,
        drugs=tuple(drugs),
        unknown_drugs=tuple(unknown),
        attribute=_enum(raw.get("attribute"), SECTION_KEYS),
        population=_enum(raw.get("population"), _POPULATIONS),
        weight_kg=weight_kg,
        age_text=raw.get("age_text") if isinstance(raw.get("age_text"), str) else None,
        indication=raw.get("indication") if isinstance(raw.get("indication"), str) else None,
        condition=raw.get("condition") if isinstance(raw.get("condition"), str) else None,
        relation=_enum(raw.get("relation"), _RELATIONS),
        patient=PatientContext(
            comorbidities=tuple(str(x) for x in patient.get("comorbidities") or []),
            allergies=tuple(str(x) for x in patient.get("allergies") or []),
            current_medicines=tuple(str(x) for x in patient.get("current_medicines") or []),
            renal=bool(patient.get("renal")),
            hepatic=bool(patient.get("hepatic")),
            pregnancy=bool(patient.get("pregnancy")),
            breastfeeding=bool(patient.get("breastfeeding")),
        ),
        context_action=_enum(raw.get("context_action"), ("none", "continue", "new")) or "none",
        route=_enum(raw.get("route"), _ROUTES),
        section_overview=raw.get("section_overview") is True,
        standalone_query=raw.get("standalone_query")
        if isinstance(raw.get("standalone_query"), str)
        else question,
        needs_clarify=raw.get("needs_clarify") is True,
        clarify_reason=raw.get("clarify_reason")
        if isinstance(raw.get("clarify_reason"), str)
        else None,
        quick_replies=quick,
        subject_scope=resolve_subject_scope(question, claimed_scope),
    )
    if frame.subject_scope != "human":
        return replace(frame, turn_type="out_of_scope")
    return frame


def apply_surface_cues(frame: QueryFrame, question: str) -> QueryFrame:
    """Narrow, knowledge-free rewrites where the surface form is unambiguous."""
    folded = folded_phrase(question)
    if frame.turn_type == "out_of_scope" and frame.subject_scope != "human":
        return frame
    if not frame.drugs and has(folded, "which_drug") and not has(folded, "causes", "contraindicated_in"):
        return as_relation(frame, "indication", frame.condition or condition_words(question, ()))
    for cue, relation in (("causes", "adverse_effect"), ("contraindicated_in", "contraindication")):
        if has(folded, cue):
            return as_relation(frame, relation, frame.condition or condition_words(question, ()))
    if frame.drugs and has(folded, "what_effect"):
        return replace(frame, turn_type="drug_to_condition", attribute="chi_dinh")
    if (
        frame.drugs
        and has(folded, "has_contraindication")
        and frame.turn_type != "condition_relation"
    ):
        return replace(frame, turn_type="drug_attribute", attribute="chong_chi_dinh")
    return frame
