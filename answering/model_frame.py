"""The frame of one turn through a model: one bounded call over the candidate drugs, its
output validated field by field, then the narrow surface rewrites. Without a model the
deterministic frame of `understanding.py` is the frame."""

import logging
from collections.abc import Sequence
from dataclasses import replace

from answering.cues import has
from answering.followup import merge_with_prior
from answering.intents import without_cue
from answering.policy import resolve_subject_scope
from answering.prompts import understanding_request
from answering.providers import Budget, Provider, ProviderError
from answering.results import clean_replies
from answering.schemas import FrameOut, PatientOut, parse_output
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
    """The frame of one turn: deterministic without a model, one bounded call with one."""
    if provider is None:
        return recorded(merge_with_prior(understand(question, claimed_scope), prior, question))
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
        raw = parse_output(provider.complete(system, user, budget, max_tokens=800), FrameOut)
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
    frame = _only_exact(frame_from_model(raw, candidates, question, claimed_scope), exact, question)
    return recorded(merge_with_prior(apply_surface_cues(frame, question), prior, question))


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
    if not frame.drugs and has(folded, "which_drug") and not has(folded, "causes", "contraindicated_in"):
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
