"""One QueryFrame per turn. Without a model it is built deterministically from the drug
resolver, the section phrase table, population/route cues and a few surface-form rules
that carry no drug or disease knowledge."""

import re
from dataclasses import dataclass, field, replace

from answering.policy import resolve_subject_scope
from corpus.text import folded_phrase
from retrieval.catalog import get_resolver
from retrieval.sections import populations, route_section, routes, section_matches

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
_OVERVIEW = ("la thuoc gi", "la gi", "thuoc gi")
_YES_NO = re.compile(r"(duoc khong|duoc ko|co .* khong$|co .* khong\b|duoc k\b)")
_WEIGHT = re.compile(r"(\d+(?:[.,]\d+)?)\s*kg\b")
_AGE = re.compile(r"\b\d+\s*(?:-\s*\d+\s*)?(?:tuoi|thang tuoi|thang|tuan)\b|\bso sinh\b")
_INTERACTION_CUES = ("them", "cung", "chung", "phoi hop", "ket hop", "tuong tac", "nguy co")
# An organ-function question is found by the book's own term, not the patient's story.
_ORGAN_TERMS = {"suy_than": "clcr", "suy_gan": "suy gan"}
_CAUSE = ("thuoc nao gay", "thuoc gi gay", "thuoc nao lam")
_CONTRA = ("thuoc nao chong chi dinh", "chong chi dinh voi thuoc nao")
_CONDITION_STOP = set(
    "co khong duoc ko dung thuoc nao gi cho benh nhan nguoi bi dang uong khi trong dot "
    "bat dau thi la va voi hay tri dieu chua dieu ma de the sao a nhe oi".split()
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


def condition_words(question: str, drug_names: tuple[str, ...]) -> str:
    """The question with drug names, section phrases, populations and filler removed."""
    folded = folded_phrase(question)
    for match in sorted(section_matches(question), key=lambda m: -m.start):
        folded = folded[: match.start] + " " + folded[match.start + len(match.phrase) :]
    names = {w for name in drug_names for w in folded_phrase(name).split()}
    kept = [
        w for w in folded.split() if w not in names and w not in _CONDITION_STOP and not w.isdigit()
    ]
    return " ".join(kept)


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
    age = _AGE.search(folded)
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
    if not drugs and not unknown and section is None:
        if _has(folded, _CAUSE):
            return replace(
                frame,
                turn_type="condition_relation",
                relation="adverse_effect",
                attribute="tac_dung_khong_mong_muon",
                condition=condition_words(question, ()),
            )
        if _has(folded, _TO_DRUG) or _has(folded, ("dieu tri", "tri")):
            condition = condition_words(question, ())
            if condition:
                return replace(
                    frame,
                    turn_type="condition_to_drug",
                    relation="indication",
                    attribute="chi_dinh",
                    condition=condition,
                    indication=condition,
                )
        if len(folded.split()) <= 12 and _has(folded, _SMALLTALK):
            return replace(frame, turn_type="smalltalk")
        return replace(frame, turn_type="out_of_scope")
    if _has(folded, _CONTRA) and not drugs:
        return replace(
            frame,
            turn_type="condition_relation",
            relation="contraindication",
            attribute="chong_chi_dinh",
            condition=condition_words(question, ()),
        )
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
        relation_frame = replace(
            frame,
            turn_type="condition_relation",
            relation="contraindication",
            attribute=section or "chong_chi_dinh",
            condition=condition or None,
        )
        return relation_frame
    if section is None and frame.population == "suy_than":
        return replace(
            frame,
            turn_type="condition_relation",
            relation="contraindication",
            attribute="chong_chi_dinh",
        )
    return frame
