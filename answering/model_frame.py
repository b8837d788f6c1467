"""The frame of one turn through a model: one bounded call over the candidate drugs, its
output validated field by field, then the narrow surface rewrites. Without a model the
deterministic frame of `understanding.py` is the frame."""

import logging
from collections.abc import Sequence
from dataclasses import replace

from django.conf import settings

from answering.cues import has
from answering.followup import merge_with_prior
from answering.frame_grounding import ground, note_of, said_in, unsaid_turn_type
from answering.intents import without_cue
from answering.policy import resolve_subject_scope
from answering.prompts import understanding_request
from answering.providers import Budget, Provider, ProviderError
from answering.results import clean_replies
from answering.schemas import FrameOut, PatientOut, json_schema, parse_output
from answering.understanding import as_relation, condition_words, recorded, understand
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
    """The frame of one turn: the deterministic frame is the floor; with a model (and
    UNDERSTANDING=model) one bounded call refines it within the named rules of `refine`."""
    floor = understand(question, claimed_scope)
    if provider is None or settings.UNDERSTANDING == "deterministic":
        return recorded(merge_with_prior(floor, prior, question))
    budget = budget or Budget(30)
    resolver = get_resolver()
    exact: list[str] = []
    for line in [*history[-6:], question]:
        for drug_id in resolver.resolve(line):
            if drug_id not in exact:
                exact.append(drug_id)
    # Fuzzy candidates help the model read a garbled name, but never answer (did you mean).
    fuzzy: list[str] = []
    if not exact:
        for line in [*history[-2:], question]:
            fuzzy += [d for d, _ in resolver.suggest(line, 5, 0.55) if d not in fuzzy]
    candidates = exact + fuzzy
    shown = [(d, resolver.display.get(d, d)) for d in candidates]
    known = prior.summary() if prior is not None else {}
    system, user = understanding_request(question, shown, known, list(history))
    try:
        raw = parse_output(
            provider.complete(
                system,
                user,
                budget,
                max_tokens=FRAME_MAX_TOKENS,
                kind="frame",
                schema=json_schema(FrameOut),
            ),
            FrameOut,
        )
    except ProviderError as exc:
        # The turn goes on with what the book's tables understood; the reason is recorded.
        logger.warning("understanding fell back to the deterministic frame: %s", exc)
        return recorded(merge_with_prior(_fallback(floor, exc.reason), prior, question))
    frame = _only_exact(frame_from_model(raw, candidates, question, claimed_scope), exact, question)
    frame = unsaid_turn_type(frame, floor, raw.turn_type)
    frame, dropped = ground(
        apply_surface_cues(frame, question), floor, said_in(floor, question, history)
    )
    refined = refine(floor, frame, raw)
    if dropped and refined.understood_by in ("model", "merged"):
        refined = replace(refined, understanding_note=note_of(dropped))
    return recorded(merge_with_prior(refined, prior, question))


# A frame is a few hundred tokens of JSON; more is a model running on.
FRAME_MAX_TOKENS = 400


def _fallback(floor: QueryFrame, reason: str) -> QueryFrame:
    return replace(floor, understood_by="deterministic", understanding_note=f"model_{reason}")


def _is_certain(floor: QueryFrame) -> bool:
    """An exact drug match and an explicit section phrase (or a which-drug question with its
    condition found): nothing a model says demotes it."""
    return bool(floor.drugs and floor.attribute) or (
        floor.turn_type in ("condition_to_drug", "condition_relation") and bool(floor.condition)
    )


def refine(floor: QueryFrame, model: QueryFrame, raw: FrameOut) -> QueryFrame:
    """The named rules when the deterministic frame and the model's disagree:
    1. an empty or schema-less model frame is no frame: the floor, note model_empty_frame;
    2. the model may not demote to out of scope, or drop the drugs of, a frame the floor
       understood (a named drug, a certain section): the floor, note model_demoted_frame —
       the human-only guard is the deterministic policy's, which the floor already applied;
    3. on a certain floor the model only fills what the floor left empty (population, age,
       weight, route, condition, patient): merged;
    4. otherwise the model's frame within bounds: model.
    """
    if not any(v not in (None, [], {}, "") for v in raw.model_dump().values()):
        return _fallback(floor, "empty_frame")
    if floor.turn_type in ("smalltalk", "out_of_scope") and model.turn_type != floor.turn_type:
        if not model.drugs:
            return _fallback(floor, "no_drug_for_a_floor_without_one")
    demoted = model.turn_type in ("out_of_scope", "smalltalk") and floor.turn_type not in (
        "out_of_scope",
        "smalltalk",
    )
    dropped = bool(floor.drugs) and not set(floor.drugs) & set(model.drugs)
    if demoted or (dropped and floor.turn_type not in ("condition_to_drug",)):
        return _fallback(floor, "demoted_frame")
    if _is_certain(floor):
        filled = {
            name: getattr(model, name)
            for name in ("population", "age_text", "weight_kg", "route", "condition", "indication")
            if getattr(floor, name) in (None, "") and getattr(model, name) not in (None, "")
        }
        if not floor.patient.has_context and model.patient.has_context:
            filled["patient"] = model.patient
        return replace(floor, **filled, understood_by="merged", understanding_note=None)
    return replace(model, understood_by="model", understanding_note=None)


def _only_exact(frame: QueryFrame, exact: Sequence[str], question: str) -> QueryFrame:
    """What the resolver knows stays known: names the book indexes but has not loaded are
    reported, and a drug the model took from the fuzzy candidates becomes a "did you mean"."""
    seen = get_resolver().resolve_detail(question)
    unknown = tuple(dict.fromkeys([*frame.unknown_drugs, *seen.not_loaded]))
    frame = replace(frame, not_loaded=seen.not_loaded, unknown_drugs=unknown)
    guessed = [d for d in frame.drugs if d not in exact]
    if not guessed:
        return frame
    typed = seen.unknown[0] if seen.unknown else "?"
    return replace(
        frame,
        drugs=tuple(d for d in frame.drugs if d in exact),
        unknown_drugs=tuple(dict.fromkeys([*frame.unknown_drugs, typed])),
        did_you_mean=((typed, tuple((d.replace("_", " "), d) for d in guessed)),),
    )


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
    raw: FrameOut, shown: Sequence[str], question: str, claimed_scope: str
) -> QueryFrame:
    """The model's frame within bounds: drugs outside the shown set become unknown, never
    substituted; values outside the closed sets are dropped."""
    drugs: list[str] = []
    unknown: list[str] = []
    for value in raw.drugs or []:
        drug_id = _id_in(value, shown)
        if drug_id is None:
            unknown.append(value)
        elif drug_id not in drugs:
            drugs.append(drug_id)
    unknown += [v for v in raw.unknown_drugs or [] if v not in unknown]
    turn_type = _enum(raw.turn_type, TURN_TYPES) or ("drug_attribute" if drugs else "out_of_scope")
    weight = raw.weight_kg
    patient = raw.patient or PatientOut()
    frame = QueryFrame(
        turn_type=turn_type,
        drugs=tuple(drugs),
        unknown_drugs=tuple(unknown),
        attribute=_enum(raw.attribute, SECTION_KEYS),
        population=_enum(raw.population, _POPULATIONS),
        weight_kg=weight if weight is not None and 0 < weight <= 500 else None,
        age_text=raw.age_text,
        indication=raw.indication,
        condition=raw.condition,
        relation=_enum(raw.relation, _RELATIONS),
        patient=PatientContext(
            comorbidities=tuple(patient.comorbidities or ()),
            allergies=tuple(patient.allergies or ()),
            current_medicines=tuple(patient.current_medicines or ()),
            renal=bool(patient.renal),
            hepatic=bool(patient.hepatic),
            pregnancy=bool(patient.pregnancy),
            breastfeeding=bool(patient.breastfeeding),
        ),
        context_action=_enum(raw.context_action, ("none", "continue", "new")) or "none",
        route=_enum(raw.route, _ROUTES),
        section_overview=raw.section_overview is True,
        standalone_query=raw.standalone_query or question,
        needs_clarify=raw.needs_clarify is True,
        clarify_reason=raw.clarify_reason,
        quick_replies=tuple(clean_replies(raw.quick_replies or [])),
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
    if (
        not frame.drugs
        and has(folded, "which_drug")
        and not has(folded, "causes", "contraindicated_in")
    ):
        return as_relation(frame, "indication", frame.condition or condition_words(question, ()))
    for cue, relation in (("causes", "adverse_effect"), ("contraindicated_in", "contraindication")):
        if has(folded, cue):
            condition = frame.condition or without_cue(condition_words(question, ()), cue)
            return as_relation(frame, relation, condition)
    if frame.drugs and has(folded, "what_effect"):
        return replace(frame, turn_type="drug_to_condition", attribute="chi_dinh")
    if (
        frame.drugs
        and has(folded, "has_contraindication")
        and frame.turn_type != "condition_relation"
    ):
        return replace(frame, turn_type="drug_attribute", attribute="chong_chi_dinh")
    return frame
