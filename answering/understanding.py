"""One QueryFrame per turn. Without a model it is built deterministically from the drug
resolver, the section phrase table, population/route cues and a few surface-form rules
that carry no drug or disease knowledge."""

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from answering.policy import resolve_subject_scope
from corpus.text import folded_phrase, keep_lower
from retrieval.catalog import get_resolver
from retrieval.sections import (
    population_matches,
    populations,
    route_section,
    routes,
    section_matches,
)

if TYPE_CHECKING:
    from answering.providers import Budget, Provider

logger = logging.getLogger("duocthu.understanding")

TURN_TYPES = (
    "drug_attribute",
    "drug_overview",
    "interaction",
    "symptom_to_drug",
    "condition_to_drug",
    "drug_to_condition",
    "condition_relation",
    "dosing_calc",
    "smalltalk",
    "out_of_scope",
)

_SMALLTALK = ("chao", "xin chao", "cam on", "cam on ban", "tam biet", "hello", "hi", "ok", "chuc")
_OUT_OF_SCOPE = ("gia", "bao nhieu tien", "mua o dau", "cach nau", "thoi tiet")
_TO_DRUG = ("thuoc nao", "dung thuoc gi", "thuoc gi", "lua chon thuoc nao", "nen dung thuoc")
_DRUG_TO_CONDITION = (
    "dung de tri benh gi",
    "tri benh gi",
    "co tac dung gi",
    "dung de lam gi",
    "tri gi",
    "chua benh gi",
    "dieu tri benh gi",
    "dung de tri",
)
_TO_DRUG_STRICT = (
    "thuoc nao",
    "dung thuoc gi",
    "uong thuoc gi",
    "lua chon thuoc nao",
    "nen dung thuoc",
    "co thuoc nao",
)
_OVERVIEW = ("la thuoc gi", "la gi", "thuoc gi")
_YES_NO = re.compile(r"(duoc khong|duoc ko|co .* khong$|co .* khong\b|duoc k\b)")
_WEIGHT = re.compile(r"(\d+(?:[.,]\d+)?)\s*kg\b")
_AGE = re.compile(
    r"\b\d+\s*(?:-\s*\d+\s*)?(?:tuổi|tuoi|tháng tuổi|thang tuoi|tháng|thang|tuần|tuan)(?!\w)|sơ sinh|so sinh"
)
_COMPARE = ("so sanh", "khac nhau", "khac gi", "giong nhau")
_INTERACTION_CUES = ("them", "cung", "chung", "phoi hop", "ket hop", "tuong tac", "nguy co")
# An organ-function question is found by the book's own term, not the patient's story.
_ORGAN_TERMS = {"suy_than": "clcr", "suy_gan": "suy gan"}
_CAUSE = ("thuoc nao gay", "thuoc gi gay", "thuoc nao lam")
_CONTRA = ("thuoc nao chong chi dinh", "chong chi dinh voi thuoc nao")
_CONDITION_STOP = set(
    "co khong duoc ko dung thuoc nao gi cho benh nhan nguoi bi dang uong khi trong dot "
    "thi la va voi hay tri dieu chua ma de the sao a nhe oi toi minh nen uong em anh "
    "chi hoi xin nhu gi bn".split()
)


@dataclass
class PatientContext:
    comorbidities: tuple[str, ...] = ()
    allergies: tuple[str, ...] = ()
    current_medicines: tuple[str, ...] = ()
    renal: bool = False
    hepatic: bool = False
    pregnancy: bool = False


@dataclass
class QueryFrame:
    turn_type: str
    drugs: tuple[str, ...] = ()
    unknown_drugs: tuple[str, ...] = ()
    attribute: str | None = None
    population: str | None = None
    weight_kg: float | None = None
    age_text: str | None = None
    indication: str | None = None
    condition: str | None = None
    relation: str | None = None  # indication | adverse_effect | contraindication | unknown
    patient: PatientContext = field(default_factory=PatientContext)
    context_action: str = "none"  # none | continue | new
    route: str | None = None
    section_overview: bool = False
    standalone_query: str | None = None
    needs_clarify: bool = False
    clarify_reason: str | None = None
    quick_replies: tuple[str, ...] = ()
    system_error: str | None = None
    subject_scope: str = "human"
    not_loaded: tuple[str, ...] = ()

    def summary(self) -> dict[str, object]:
        return {
            "turn_type": self.turn_type,
            "drugs": list(self.drugs),
            "unknown_drugs": list(self.unknown_drugs),
            "attribute": self.attribute,
            "population": self.population,
            "weight_kg": self.weight_kg,
            "age_text": self.age_text,
            "condition": self.condition,
            "relation": self.relation,
            "route": self.route,
            "needs_clarify": self.needs_clarify,
            "system_error": self.system_error,
        }


def _has(folded: str, phrases: tuple[str, ...]) -> bool:
    return any(re.search(rf"(?<![a-z0-9]){re.escape(p)}(?![a-z0-9])", folded) for p in phrases)


def condition_words(
    question: str, drug_names: tuple[str, ...], *, drop_populations: bool = False
) -> str:
    """The question with drug names, section phrases (and population phrases) and filler removed."""
    folded = folded_phrase(question)
    matches = section_matches(question) + (population_matches(question) if drop_populations else [])
    for match in sorted(matches, key=lambda m: -m.start):
        if folded[match.start : match.start + len(match.phrase)] != match.phrase:
            continue  # overlapping a phrase already cut
        folded = (
            folded[: match.start]
            + " " * len(match.phrase)
            + folded[match.start + len(match.phrase) :]
        )
    folded = f" {folded} ".replace(" bat dau ", " ").replace(" dieu tri ", " ").strip()
    names = {w for name in drug_names for w in folded_phrase(name).split()}
    kept = [
        w for w in folded.split() if w not in names and w not in _CONDITION_STOP and not w.isdigit()
    ]
    return " ".join(kept)


_CURRENT_CUES = ("dang dung", "dang uong", "dang su dung", "dang tiem", "dang dieu tri bang")
# Organ function and pregnancy states that the safety facets search for by the book's words.
_POPULATION_CONDITIONS = {"suy_than": "suy thận", "suy_gan": "suy gan"}


def _current_medicines(folded: str, spans: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """Drugs named after "đang dùng/đang uống" (the patient's medicines, not the question's)."""
    found: list[str] = []
    for cue in _CURRENT_CUES:
        for match in re.finditer(rf"(?<![a-z]){cue}(?![a-z])", folded):
            tail = folded[match.end() : match.end() + 80]
            for phrase, drug_id in spans:
                if (
                    re.search(rf"(?<![a-z0-9]){re.escape(phrase)}(?![a-z0-9])", tail)
                    and drug_id not in found
                ):
                    found.append(drug_id)
    return tuple(found)


def _patient(current: tuple[str, ...], population: str | None) -> PatientContext:
    condition = _POPULATION_CONDITIONS.get(population or "")
    return PatientContext(
        current_medicines=current,
        comorbidities=(condition,) if condition else (),
        renal=population == "suy_than",
        hepatic=population == "suy_gan",
        pregnancy=population == "phu_nu_mang_thai",
    )


# The frame each relation becomes: (turn type, the section that holds the relation).
_RELATION_FRAMES = {
    "indication": ("condition_to_drug", "chi_dinh"),
    "adverse_effect": ("condition_relation", "tac_dung_khong_mong_muon"),
    "contraindication": ("condition_relation", "chong_chi_dinh"),
}


def _as_relation(
    frame: QueryFrame, relation: str, condition: str | None, **changes: Any
) -> QueryFrame:
    """The frame rewritten as a condition question of this relation."""
    turn_type, attribute = _RELATION_FRAMES[relation]
    if relation == "indication":
        changes.setdefault("indication", condition)
    changes.setdefault("attribute", attribute)
    return replace(frame, turn_type=turn_type, relation=relation, condition=condition, **changes)


def _condition_to_drug(frame: QueryFrame, question: str) -> QueryFrame | None:
    condition = condition_words(question, (), drop_populations=True)
    if not condition:
        return None
    return _as_relation(frame, "indication", condition, unknown_drugs=())


def understand(question: str, claimed_scope: str = "human") -> QueryFrame:
    """The deterministic frame of one turn."""
    folded = folded_phrase(question)
    resolution = get_resolver().resolve_detail(question)
    drugs = resolution.drugs
    unknown = tuple(dict.fromkeys(resolution.not_loaded + resolution.unknown))
    section = route_section(question)
    found_populations = populations(question)
    population = found_populations[0] if found_populations else None
    found_routes = routes(question)
    weight = _WEIGHT.search(folded)
    weight_kg = float(weight.group(1).replace(",", ".")) if weight else None
    if weight_kg is not None and not 0 < weight_kg <= 500:
        weight_kg = None
    age = _AGE.search(keep_lower(question))  # as printed: "2 - 4 tuổi", matched against the book
    frame = QueryFrame(
        turn_type="drug_attribute",
        drugs=drugs,
        unknown_drugs=unknown,
        attribute=section,
        population=population,
        weight_kg=weight_kg,
        age_text=age.group(0) if age else None,
        route=found_routes[0] if found_routes else None,
        subject_scope=resolve_subject_scope(question, claimed_scope),
        not_loaded=resolution.not_loaded,
        standalone_query=question,
    )
    if weight_kg is not None and population is None:
        frame.population = "tre_em" if weight_kg < 40 else None

    if section == "qua_lieu_va_xu_tri" and len(drugs) > 1:
        # The poisoned-with drug is the subject; the others named are its antidotes.
        subject = re.search(r"(?:ngo doc|qua lieu)\s+(\S+(?:\s\S+)?)", folded)
        if subject:
            named = get_resolver().resolve(subject.group(1))
            if named:
                frame.drugs = drugs = named[:1]
    if frame.subject_scope != "human":
        frame.turn_type = "out_of_scope"
        return frame
    current = _current_medicines(folded, resolution.spans)
    if drugs and set(drugs) <= set(current) and _has(folded, _TO_DRUG_STRICT):
        # "BN đang dùng warfarin, đau khớp dùng thuốc gì?": the named drugs are the patient's
        # medicines, the question is which drug treats the condition.
        names = tuple(d.replace("_", " ") for d in drugs) + tuple(p for p, _ in resolution.spans)
        condition = condition_words(question, names, drop_populations=True)
        if condition:
            return _as_relation(
                frame,
                "indication",
                condition,
                drugs=(),
                unknown_drugs=(),
                patient=_patient(current, frame.population),
            )
    if not drugs and _has(folded, _CAUSE):
        # "Thuốc nào gây hội chứng Stevens-Johnson?": the foreign words name the condition.
        return _as_relation(
            frame, "adverse_effect", condition_words(question, ()), unknown_drugs=()
        )
    if (
        not drugs
        and section is None
        and _has(folded, _TO_DRUG_STRICT)
        and not _has(folded, _OVERVIEW)
    ):
        # "Có thuốc nào trị nấm candida không?": the foreign word names the condition.
        reverse = _condition_to_drug(frame, question)
        if reverse is not None:
            return reverse
    if not drugs and not unknown and section is None:
        if _has(folded, _TO_DRUG) or _has(folded, ("dieu tri", "tri")):
            reverse = _condition_to_drug(frame, question)
            if reverse is not None:
                return reverse
        if len(folded.split()) <= 12 and _has(folded, _SMALLTALK):
            return replace(frame, turn_type="smalltalk")
        return replace(frame, turn_type="out_of_scope")
    if _has(folded, _CONTRA) and not drugs:
        return _as_relation(frame, "contraindication", condition_words(question, ()))
    if drugs and _has(folded, _OUT_OF_SCOPE) and section is None:
        return replace(frame, turn_type="out_of_scope")
    if not drugs:
        return frame  # an unknown or not-loaded drug: the answer abstains naming it
    if _has(folded, _DRUG_TO_CONDITION) and section in (None, "chi_dinh"):
        return replace(frame, turn_type="drug_to_condition", attribute="chi_dinh")
    yes_no = bool(_YES_NO.search(folded))
    if len(drugs) >= 2 and section is None and yes_no and not _has(folded, _INTERACTION_CUES):
        # Several drugs, no interaction cue, a yes/no question: it is about the drug named
        # last (the earlier ones are the patient's context), e.g. "...có còn được tiếp tục
        # metformin không".
        frame.drugs = drugs = (resolution.spans[-1][1],)
    if len(drugs) >= 2 and section is None and _has(folded, _COMPARE):
        return replace(frame, turn_type="drug_overview")
    if len(drugs) >= 2 and section in (None, "tuong_tac_thuoc"):
        return replace(frame, turn_type="interaction", attribute="tuong_tac_thuoc")
    if section == "lieu_luong_va_cach_dung" and weight_kg is not None:
        return replace(frame, turn_type="dosing_calc")
    if section is None and not yes_no:
        words_left = condition_words(question, drugs)
        if not words_left or _has(folded, _OVERVIEW):
            return replace(frame, turn_type="drug_overview")
        return frame
    if yes_no and section in (None, "chong_chi_dinh"):
        condition = condition_words(
            question,
            tuple(d.replace("_", " ") for d in drugs) + tuple(s for s, _ in resolution.spans),
        )
        if section is None and frame.population == "tre_em":
            return replace(frame, attribute="chong_chi_dinh")
        if frame.population in _ORGAN_TERMS:
            condition = _ORGAN_TERMS[frame.population]
        return _as_relation(
            frame, "contraindication", condition or None, attribute=section or "chong_chi_dinh"
        )
    if section is None and frame.population == "suy_than":
        return _as_relation(frame, "contraindication", frame.condition)
    return frame


# Multi-turn and the model ---------------------------------------------------------------

_CONTINUE_CUES = ("con", "the con", "vay con", "con neu", "neu", "thi sao", "the nao")


def merge_with_prior(frame: QueryFrame, prior: QueryFrame | None, question: str) -> QueryFrame:
    """Inherit from the previous turn only when continuing the same case.

    A turn that names a different drug inherits nothing: the predecessor once answered a
    headache question about OMEPRAZOL because a prior frame bled into it.
    """
    if prior is None or frame.context_action == "new" or frame.subject_scope != "human":
        return frame
    continuing = (
        frame.context_action == "continue"
        or prior.needs_clarify
        or (
            not frame.drugs
            and not frame.unknown_drugs
            and (
                frame.attribute
                or frame.population
                or frame.age_text
                or frame.weight_kg
                or _has(folded_phrase(question), _CONTINUE_CUES)
            )
        )
    )
    if not continuing or not prior.drugs:
        return frame
    if frame.drugs and set(frame.drugs) != set(prior.drugs):
        return frame
    if frame.unknown_drugs:
        return frame
    merged = replace(
        frame,
        drugs=prior.drugs,
        attribute=frame.attribute or prior.attribute,
        population=frame.population or prior.population,
        route=frame.route or prior.route,
        weight_kg=frame.weight_kg if frame.weight_kg is not None else prior.weight_kg,
        age_text=frame.age_text or prior.age_text,
        context_action="continue",
        standalone_query=f"{prior.standalone_query or ''} {question}".strip(),
    )
    if merged.turn_type in ("smalltalk", "out_of_scope") or (
        not frame.drugs and frame.turn_type == "drug_overview"
    ):
        merged.turn_type = (
            prior.turn_type
            if prior.turn_type not in ("smalltalk", "out_of_scope")
            else "drug_attribute"
        )
    if merged.attribute == "lieu_luong_va_cach_dung" and merged.weight_kg is not None:
        merged.turn_type = "dosing_calc"
    merged.needs_clarify = False
    merged.quick_replies = ()
    return merged


def understand_turn(
    question: str,
    history: Sequence[str] = (),
    prior: QueryFrame | None = None,
    *,
    provider: "Provider | None" = None,
    budget: "Budget | None" = None,
    claimed_scope: str = "human",
) -> QueryFrame:
    """The frame of one turn: deterministic without a model, one bounded call with one."""
    if provider is None:
        return merge_with_prior(understand(question, claimed_scope), prior, question)
    from answering.providers import Budget, ProviderError

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
    from answering.prompts import understanding_request

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
    from answering.providers import parse_json_object

    return parse_json_object(text)


_POPULATIONS = (
    "tre_em",
    "nguoi_lon",
    "nguoi_cao_tuoi",
    "suy_than",
    "suy_gan",
    "phu_nu_mang_thai",
    "cho_con_bu",
)
_ROUTES = (
    "uong",
    "tiem_tinh_mach",
    "tiem_bap",
    "dat_truc_trang",
    "xit_hit",
    "nho_mat",
    "boi_ngoai_da",
)
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
    from corpus.sections import SECTION_KEYS

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
        frame.turn_type = "out_of_scope"
    return frame


def apply_surface_cues(frame: QueryFrame, question: str) -> QueryFrame:
    """Narrow, knowledge-free rewrites where the surface form is unambiguous."""
    folded = folded_phrase(question)
    if frame.turn_type == "out_of_scope" and frame.subject_scope != "human":
        return frame
    if not frame.drugs and _has(folded, _TO_DRUG) and not _has(folded, _CAUSE + _CONTRA):
        return _as_relation(frame, "indication", frame.condition or condition_words(question, ()))
    for cues, relation in ((_CAUSE, "adverse_effect"), (_CONTRA, "contraindication")):
        if _has(folded, cues):
            return _as_relation(frame, relation, frame.condition or condition_words(question, ()))
    if frame.drugs and _has(folded, ("co tac dung gi",)):
        return replace(frame, turn_type="drug_to_condition", attribute="chi_dinh")
    if (
        frame.drugs
        and _has(folded, ("co chong chi dinh",))
        and frame.turn_type != "condition_relation"
    ):
        return replace(frame, turn_type="drug_attribute", attribute="chong_chi_dinh")
    return frame
