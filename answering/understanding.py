"""The deterministic QueryFrame of one turn, from the drug resolver, the section phrase
table, population/route cues and the wording cues of `cues.py`: rules that carry no drug or
disease knowledge."""

import re
from dataclasses import replace
from typing import Any

from answering.cues import (
    ORGAN_TERMS,
    POPULATION_CONDITIONS,
    POPULATION_SECTIONS,
    YES_NO,
    age_months,
    book_words,
    has,
)
from answering.intents import (
    antidote_subject,
    current_medicines,
    inside_a_condition,
    named_in_monograph,
    situation_phrase,
    without_cue,
)
from answering.policy import resolve_subject_scope
from answering.quantities import read_quantities
from answering.red_flags import EMERGENCY, red_flag
from answering.red_flags import SECTIONS as RED_FLAG_SECTIONS
from corpus.sections import SectionKey
from corpus.text import (
    CASE_FILLER,
    KEPT_TOGETHER,
    as_typed,
    folded_phrase,
    is_filler,
    typed_words,
)
from retrieval.bands import ADULT_MONTHS
from retrieval.catalog import get_resolver
from retrieval.frame import PatientContext, QueryFrame, TurnType
from retrieval.phrases import (
    population_matches,
    populations,
    route_section,
    routes,
    section_matches,
)


def condition_words(
    question: str,
    drug_names: tuple[str, ...],
    *,
    drop_populations: bool = False,
    keep_sections: bool = False,
) -> str:
    """The question with drug names, section phrases (and population phrases) and filler removed.

    A filler word typed with other diacritics is a word of the condition ("hội chứng" keeps
    "hội"; "xin hỏi" drops "hỏi").
    """
    tokens = folded_phrase(question).split()
    typed = typed_words(question)
    if len(typed) != len(tokens):
        typed = tokens
    cut = [False] * len(tokens)
    matches = [] if keep_sections else section_matches(question)
    matches += population_matches(question) if drop_populations else []
    for match in matches:
        first = folded_phrase(question).count(" ", 0, match.start)
        for k in range(first, min(first + len(match.phrase.split()), len(tokens))):
            cut[k] = True
    kept_pair = [False] * len(tokens)
    for k in range(len(tokens) - 1):
        if (tokens[k], tokens[k + 1]) in (("bat", "dau"), ("dieu", "tri")):
            cut[k] = cut[k + 1] = True
        if (tokens[k], tokens[k + 1]) in KEPT_TOGETHER:
            kept_pair[k] = kept_pair[k + 1] = True
    names = {w for name in drug_names for w in folded_phrase(name).split()}
    # A number is an age or a dose, not the condition, except a type's ("typ 2").
    typed_number = {k for k in range(1, len(tokens)) if tokens[k - 1] in ("typ", "type", "tuyp")}
    kept = [
        w
        for k, (w, t, gone, pair) in enumerate(zip(tokens, typed, cut, kept_pair, strict=True))
        if not gone
        and w not in names
        and (not w.isdigit() or k in typed_number)
        and (pair or not is_filler(w, t, CASE_FILLER))
    ]
    return " ".join(kept)


def _patient(current: tuple[str, ...], population: str | None) -> PatientContext:
    condition = POPULATION_CONDITIONS.get(population or "")
    return PatientContext(
        current_medicines=current,
        comorbidities=(condition,) if condition else (),
        renal=population == "suy_than",
        hepatic=population == "suy_gan",
        pregnancy=population == "phu_nu_mang_thai",
        breastfeeding=population == "cho_con_bu",
    )


# The frame each relation becomes: (turn type, the section that holds the relation).
_RELATION_FRAMES = {
    "indication": ("condition_to_drug", SectionKey.CHI_DINH),
    "adverse_effect": ("condition_relation", SectionKey.TAC_DUNG_KHONG_MONG_MUON),
    "contraindication": ("condition_relation", SectionKey.CHONG_CHI_DINH),
}


def as_relation(
    frame: QueryFrame, relation: str, condition: str | None, **changes: Any
) -> QueryFrame:
    """The frame rewritten as a condition question of this relation."""
    turn_type, attribute = _RELATION_FRAMES[relation]
    if relation == "indication":
        changes.setdefault("indication", condition)
    changes.setdefault("attribute", attribute)
    return replace(frame, turn_type=turn_type, relation=relation, condition=condition, **changes)


def _condition_to_drug(frame: QueryFrame, question: str) -> QueryFrame | None:
    condition = without_cue(condition_words(question, (), drop_populations=True), "asking")
    if not condition:
        return None
    return as_relation(frame, "indication", condition, unknown_drugs=())


# What a patient eats, drinks or smokes: interaction words of the phrase table that are the
# thing asked about ("nước bưởi", "rượu bia"), folded.
_CONSUMED = ("nuoc buoi", "ruou bia", "ruou", "bia", "thuc an", "sua", "ca phe", "thuoc la")


def understand(question: str, claimed_scope: str = "human") -> QueryFrame:
    """The deterministic frame of one turn, with what it found recorded on it."""
    return recorded(_understand(question, claimed_scope))


def recorded(frame: QueryFrame) -> QueryFrame:
    """The frame with its situation in the user's words and its age in months."""
    typed = frame.standalone_query or ""
    folded = folded_phrase(typed)
    frame = as_red_flag(frame, red_flag(typed))
    return replace(
        frame,
        asks_use=bool(frame.drugs)
        and (has(folded, "use") or bool(YES_NO.search(folded)))
        and not has(folded, "effect"),
        situation=as_typed(typed, frame.condition) if frame.condition else None,
        age_months=frame.age_months if frame.age_months is not None else age_months(frame.age_text),
    )


def as_red_flag(frame: QueryFrame, flag: str | None) -> QueryFrame:
    """An emergency described: a named drug is answered with its overdose or ADR management
    (poisoning and self-harm always; another emergency instead of a dose), never its dose."""
    if flag is None:
        return frame
    frame = replace(frame, red_flag=flag)
    if not frame.drugs or frame.turn_type in (TurnType.INTERACTION, TurnType.CONDITION_TO_DRUG):
        return frame
    if flag != EMERGENCY or frame.attribute in (None, SectionKey.LIEU_LUONG_VA_CACH_DUNG):
        attribute = RED_FLAG_SECTIONS[flag]
        return replace(
            frame, turn_type=TurnType.DRUG_ATTRIBUTE, attribute=attribute, needs_clarify=False
        )
    return frame


def _understand(question: str, claimed_scope: str) -> QueryFrame:
    resolution = get_resolver().resolve_detail(question)
    quantities = read_quantities(question)  # as typed: "12,5 kg", "ngưng 1 tuần" (issue 24)
    question = book_words(question)  # "THA", "cao huyết áp" are searched as "tăng huyết áp"
    folded = folded_phrase(question)
    drugs = resolution.drugs
    unknown = tuple(dict.fromkeys(resolution.not_loaded + resolution.unknown))
    section = route_section(question)
    found_populations = populations(question)
    population = found_populations[0] if found_populations else None
    found_routes = routes(question)
    weight_kg = quantities.weight_kg
    months = quantities.age_months
    child = months is not None and months < ADULT_MONTHS
    # "thai 8 tuần" is a pregnancy, its weeks never an age; "đẻ non 32 tuần" with a newborn
    # is the child's gestation.
    if quantities.pregnancy_weeks and population is None and not child:
        population = "phu_nu_mang_thai"
    if weight_kg is not None and population is None and months is None:
        population = "tre_em" if weight_kg < 40 else None
    if population is None and months is not None:
        # An adult's age never picks a child's band; from 60 the book's "người cao tuổi".
        population = "tre_em" if child else ("nguoi_cao_tuoi" if quantities.elderly else None)
    if section is None and population in POPULATION_SECTIONS and drugs:
        section = POPULATION_SECTIONS[population]
    frame = QueryFrame(
        turn_type=TurnType.DRUG_ATTRIBUTE,
        drugs=drugs,
        unknown_drugs=unknown,
        attribute=section,
        population=population,
        weight_kg=weight_kg,
        age_text=quantities.age.book if quantities.age else None,
        age_months=months,
        quantities=tuple(quantities.understood()),
        pregnancy_weeks=quantities.pregnancy_weeks.value if quantities.pregnancy_weeks else None,
        clcr=next(
            (float(value.replace(",", ".")) for key, value, _ in quantities.labs if key == "clcr"),
            None,
        ),
        route=found_routes[0] if found_routes else None,
        subject_scope=resolve_subject_scope(question, claimed_scope),
        not_loaded=resolution.not_loaded,
        did_you_mean=resolution.near_misses,
        standalone_query=question,
    )

    if section == SectionKey.QUA_LIEU_VA_XU_TRI and len(drugs) > 1:
        # The poisoned-with drug is the subject; the others named are its antidotes.
        subject = re.search(r"(?:ngo doc|qua lieu)\s+(\S+(?:\s\S+)?)", folded)
        if subject:
            named = get_resolver().resolve(subject.group(1))
            if named:
                companions = tuple(d for d in drugs if d != named[0])
                drugs = named[:1]
                frame = replace(frame, drugs=drugs, companions=companions)
    paired = has(folded, "together") or "+" in question  # "heparin dùng với warfarin"
    if section in (None, SectionKey.LIEU_LUONG_VA_CACH_DUNG) and not paired:
        poisoned = antidote_subject(drugs, resolution.unknown + resolution.not_loaded)
        if poisoned is not None:
            # "NAC cho paracetamol", "glucagon cho insulin": the book names the antidote in the
            # poison's Quá liều và xử trí, so that section answers, whatever words were used.
            companions = tuple(d for d in drugs if d != poisoned)
            drugs, section = (poisoned,), SectionKey.QUA_LIEU_VA_XU_TRI
            frame = replace(frame, drugs=drugs, attribute=section, companions=companions)
    if frame.subject_scope != "human":
        return replace(frame, turn_type=TurnType.OUT_OF_SCOPE)
    current = current_medicines(folded, resolution.spans)
    if drugs and set(drugs) <= set(current) and has(folded, "which_drug_strict"):
        # "BN đang dùng warfarin, đau khớp dùng thuốc gì?": the named drugs are the patient's
        # medicines, the question is which drug treats the condition.
        names = tuple(d.replace("_", " ") for d in drugs) + tuple(p for p, _ in resolution.spans)
        condition = condition_words(question, names, drop_populations=True)
        if condition:
            return as_relation(
                frame,
                "indication",
                condition,
                drugs=(),
                unknown_drugs=(),
                patient=_patient(current, frame.population),
            )
    if not drugs and has(folded, "causes"):
        # "Thuốc nào gây hội chứng Stevens-Johnson?": the foreign words name the condition.
        condition = without_cue(condition_words(question, ()), "causes")
        return as_relation(frame, "adverse_effect", condition, unknown_drugs=())
    if (
        not drugs
        and section
        in (None, SectionKey.CHI_DINH, SectionKey.LOAI_THUOC, *POPULATION_SECTIONS.values())
        and has(folded, "which_drug_strict")
        and not has(folded, "what_is_strict")
    ):
        # "Có thuốc nào trị nấm candida không?": the foreign word names the condition. A
        # pregnancy or breast-feeding said with it is the patient's, for the safety lines.
        # "Những thuốc nào có chỉ định điều trị động kinh?": the section word is the relation
        # ("những loại thuốc nào": with no drug named, no drug's Loại thuốc is asked).
        reverse = _condition_to_drug(frame, question)
        if reverse is not None:
            return replace(reverse, patient=_patient((), frame.population))
    if (
        not drugs
        and section is None
        and has(folded, "which_drug", "treat")
        and all(get_resolver().mentioned_in_book(u) for u in resolution.unknown)
        and not resolution.not_loaded
    ):
        # "methemoglobin huyết điều trị bằng thuốc gì": a word the book uses is the condition.
        reverse = _condition_to_drug(frame, question)
        if reverse is not None:
            return reverse
    if not drugs and not unknown and section is None:
        if has(folded, "which_drug", "treat"):
            reverse = _condition_to_drug(frame, question)
            if reverse is not None:
                return reverse
        if len(folded.split()) <= 12 and has(folded, "smalltalk"):
            return replace(frame, turn_type=TurnType.SMALLTALK)
        return replace(frame, turn_type=TurnType.OUT_OF_SCOPE)
    if has(folded, "contraindicated_in") and not drugs:
        return as_relation(frame, "contraindication", condition_words(question, ()))
    if drugs and has(folded, "out_of_scope") and section is None:
        return replace(frame, turn_type=TurnType.OUT_OF_SCOPE)
    if not drugs:
        return frame  # an unknown or not-loaded drug: the answer abstains naming it
    if has(folded, "what_for") and section in (None, SectionKey.CHI_DINH):
        return replace(frame, turn_type=TurnType.DRUG_TO_CONDITION, attribute=SectionKey.CHI_DINH)
    yes_no = bool(YES_NO.search(folded))
    if len(drugs) >= 2 and section is None and yes_no and not has(folded, "compare"):
        # Several drugs in a yes/no question, whatever the connector ("dùng với", "+", "đổi
        # sang"): each one is answered, with its lines naming the other (issue 18: answering
        # only the drug named last dropped the patient's own medicine and every interaction).
        return replace(frame, turn_type=TurnType.INTERACTION, attribute=SectionKey.TUONG_TAC_THUOC)
    if len(drugs) >= 2 and section is None and has(folded, "compare"):
        return replace(frame, turn_type=TurnType.DRUG_OVERVIEW)
    if len(drugs) >= 2 and section in (None, SectionKey.TUONG_TAC_THUOC):
        return replace(frame, turn_type=TurnType.INTERACTION, attribute=SectionKey.TUONG_TAC_THUOC)
    if section == SectionKey.LIEU_LUONG_VA_CACH_DUNG and weight_kg is not None:
        return replace(frame, turn_type=TurnType.DOSING_CALC)
    if section is None and not yes_no:
        words_left = condition_words(question, drugs)
        if not words_left or has(folded, "what_is"):
            return replace(frame, turn_type=TurnType.DRUG_OVERVIEW)
        return frame
    names = tuple(d.replace("_", " ") for d in drugs) + tuple(s for s, _ in resolution.spans)
    if yes_no and inside_a_condition(question, section):
        # "nifedipin dùng cho người rối loạn chuyển hóa porphyrin được không?"
        condition = condition_words(question, names, keep_sections=True)
        return as_relation(frame, "contraindication", condition or None)
    situation = situation_phrase(question, section) if yes_no else None
    if situation is not None:
        return as_relation(
            frame, "contraindication", situation, attribute=SectionKey.CHONG_CHI_DINH
        )
    if yes_no and section in (None, SectionKey.CHONG_CHI_DINH):
        condition = condition_words(
            question,
            tuple(d.replace("_", " ") for d in drugs) + tuple(s for s, _ in resolution.spans),
        )
        if section is None and frame.population == "tre_em":
            return replace(frame, attribute=SectionKey.CHONG_CHI_DINH)
        if frame.population in ORGAN_TERMS:
            condition = ORGAN_TERMS[frame.population]
        return as_relation(
            frame,
            "contraindication",
            condition or None,
            attribute=section or SectionKey.CHONG_CHI_DINH,
        )
    if section is None and frame.population == "suy_than":
        return as_relation(frame, "contraindication", frame.condition)
    if yes_no and section == SectionKey.TAC_DUNG_KHONG_MONG_MUON and len(drugs) == 1:
        # "Metformin có gây nhiễm toan lactic không?": the effect asked about is looked for
        # wherever the monograph says it (ADR, cautions, overdose); the section answers.
        effect = condition_words(question, names)
        if effect:
            return replace(frame, condition=effect, unknown_drugs=(), did_you_mean=())
    if yes_no and section == SectionKey.TUONG_TAC_THUOC and len(drugs) == 1 and not unknown:
        # "Amlodipin có tương tác với nước bưởi không?": a food, a drink or a habit the
        # monograph names nowhere is said to be not named ("không nêu"), in the user's words;
        # one it names stays an interaction question (its lines are in the section).
        taken = [f for f in _CONSUMED if f" {f} " in f" {folded} "]
        condition = " ".join(dict.fromkeys([*taken, *condition_words(question, names).split()]))
        if condition and not named_in_monograph(drugs[0], condition, taken):
            return as_relation(frame, "contraindication", condition, attribute=section)
    return frame
