"""The surface reading of one question: names, section phrase, population, ages and weights,
route, the cues it says — what every question shape (answering.shapes) recognises from.

Rules that carry no drug or disease knowledge; the book's words come from the tables
(`cues.py`, `retrieval.phrases`) and the drug resolver.
"""

import re
from dataclasses import dataclass, replace
from typing import Any

from answering.cues import (
    POPULATION_CONDITIONS,
    POPULATION_SECTIONS,
    YES_NO,
    abbreviations,
    asks_for_a_drug,
    book_words,
    has,
)
from answering.intents import antidote_subject, current_medicines, without_cue
from answering.policy import resolve_subject_scope
from answering.quantities import read_quantities
from corpus.sections import SectionKey
from corpus.text import CASE_FILLER, KEPT_TOGETHER, fold, folded_phrase, is_filler, typed_words
from retrieval.bands import ADULT_MONTHS
from retrieval.catalog import Resolution, get_resolver
from retrieval.frame import PatientContext, QueryFrame, TurnType
from retrieval.labs import lab_value, matched_labs
from retrieval.phrases import (
    population_matches,
    populations,
    route_section,
    routes,
    section_matches,
)
from retrieval.question_words import situation_of

# A clause that reports a normal finding or who is asking says nothing of the situation
# ("xét nghiệm công thức máu bình thường", "hiện ổn định", "em đang trực khoa nội, hỏi nhanh"):
# its words never enter the condition (folded, word-bounded; a clause ends at . , ; ? !).
TOLD_CONTEXT = (
    "binh thuong",
    "on dinh",
    "tinh tao",
    "tiep xuc tot",
    "trong gioi han",
    "dang truc",
    "hoi nhanh",
    "nguoi nha hoi",
    "hoi lai cho chac",
)
_CLAUSE = re.compile(r"[^.,;?!]+[.,;?!]*")


def without_told_context(question: str) -> str:
    """The question without its clauses of normal findings and of who is asking."""
    kept = []
    for clause in _CLAUSE.findall(question):
        padded = f" {folded_phrase(clause)} "
        if not any(f" {c} " in padded for c in TOLD_CONTEXT):
            kept.append(clause)
    return "".join(kept) if kept else question


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
    question = without_told_context(question)
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


def patient_context(current: tuple[str, ...], population: str | None) -> PatientContext:
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
    "indication": (TurnType.CONDITION_TO_DRUG, SectionKey.CHI_DINH),
    "adverse_effect": (TurnType.CONDITION_RELATION, SectionKey.TAC_DUNG_KHONG_MONG_MUON),
    "contraindication": (TurnType.CONDITION_RELATION, SectionKey.CHONG_CHI_DINH),
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


SENTENCE = re.compile(r"[^.?!]+[.?!]*")


def asks_a_drug(folded: str) -> bool:
    return asks_for_a_drug(folded) or has(folded, "which_drug_strict", "which_drug", "treat")


def asking_sentences(question: str) -> str:
    """The sentence that asks for a drug ("… Thuốc nào trị?"), with the one before it when it
    says no informative word of its own ("BN nữ khí hư nhiều, soi tươi thấy Trichomonas.
    Thuốc nào trị?", "… Trong Dược thư có thuốc nào thay thế?");
    the other sentences are the case told around it. The whole question when none asks."""
    told = [s for s in SENTENCE.findall(question) if s.strip()]
    asking = [n for n, s in enumerate(told) if asks_a_drug(folded_phrase(s))]
    # With a question mark typed, only a sentence ending in one asks ("người đang dùng bất cứ
    # thuốc chống đông máu nào. Cho Lifenac được không?" tells a case, then asks of a drug).
    marked = [n for n, s in enumerate(told) if s.rstrip().endswith("?")]
    if marked:
        asking = [n for n in asking if n in marked]
        if not asking and len(told) > 1:
            return told[marked[-1]]
    if not asking or len(told) == 1:
        return question
    n = asking[-1]
    asked = without_cue(condition_words(told[n], (), drop_populations=True), "asking")
    said = situation_of(asked).weights
    return "".join(told[n - 1 : n + 1]) if not said and n > 0 else told[n]


def condition_to_drug(
    frame: QueryFrame, question: str, taken: tuple[str, ...] = ()
) -> QueryFrame | None:
    """ "Thuốc nào trị …": the indication looked for, or None; the medicines taken are no part."""
    # From the sentence that asks, else the story ("thuốc uống nào là lựa chọn điều trị?").
    for told in dict.fromkeys((asking_sentences(question), question)):
        condition = without_cue(condition_words(told, taken, drop_populations=True), "asking")
        if condition:
            break
    return as_relation(frame, "indication", condition, unknown_drugs=()) if condition else None


@dataclass(frozen=True)
class Reading:
    """What the question says on its surface, before any shape reads it."""

    question: str  # in the book's words ("THA" → "tăng huyết áp")
    folded: str
    resolution: Resolution
    frame: QueryFrame  # the frame every shape starts from (drugs, section, population, …)
    current: tuple[str, ...]  # the drugs the patient already takes ("đang dùng warfarin")
    yes_no: bool
    paired: bool  # two drugs said together ("dùng với", "+")
    # The medicines the patient takes that no monograph here answers for ("đang uống lithi").
    current_unknown: tuple[str, ...] = ()

    @property
    def drugs(self) -> tuple[str, ...]:
        return self.frame.drugs

    @property
    def section(self) -> str | None:
        return self.frame.attribute

    @property
    def unknown(self) -> tuple[str, ...]:
        return self.frame.unknown_drugs

    @property
    def names(self) -> tuple[str, ...]:
        """The drugs' names as the question may say them (ids and the typed spans)."""
        ids = tuple(d.replace("_", " ") for d in self.drugs)
        return ids + tuple(s for s, _ in self.resolution.spans)

    def says(self, *cues: str) -> bool:
        return has(self.folded, *cues)


def without_names(question: str, resolution: Resolution) -> str:
    """The question as typed without the drugs' names: a section phrase the name split
    ("tiêm dextran 1 thế nào", "uống Glucophage bao nhiêu") is whole again (diacritics kept:
    "nồng độ thuốc" is no "do thuốc")."""
    tokens = list(re.finditer(r"\w+", question))
    folded = [fold(t.group(0)) for t in tokens]
    cut = [False] * len(tokens)
    for phrase, _ in resolution.spans:
        words = phrase.split()
        for i in range(len(tokens) - len(words) + 1):
            if folded[i : i + len(words)] == words:
                cut[i : i + len(words)] = [True] * len(words)
    return " ".join(t.group(0) for t, gone in zip(tokens, cut, strict=True) if not gone)


# The antidote asked for: "thuốc giải (độc)", or the effect reversed ("hóa giải bằng gì",
# "giải giãn cơ", "đối kháng tác dụng").
_ANTIDOTE = re.compile(
    r"(?<![a-z0-9])(?:thuoc giai(?: doc)?|hoa giai|giai gian co|doi khang tac dung)(?![a-z0-9])"
)
# Giving a drug, said right before its name ("truyền ifosfamid liều cao", "tiêm Actrapid").
_GIVEN = ("truyen", "tiem", "uong", "dung", "nho", "boi")


def _taken_unknown(folded: str, unknown: tuple[str, ...]) -> tuple[str, ...]:
    """The names no monograph here answers for that the patient takes or is given: after
    "đang dùng" / "sau uống", or right after a verb of giving."""
    current = current_medicines(folded, [(fold(u), u) for u in unknown])
    padded = f" {folded} "
    given = [u for u in unknown if any(f" {v} {fold(u)} " in padded for v in _GIVEN)]
    return tuple(dict.fromkeys([*current, *given]))


def read(question: str, claimed_scope: str = "human") -> Reading:
    """The surface reading: names, quantities (as typed), section, population, route."""
    resolution = get_resolver().resolve_detail(question)
    # A ward abbreviation the table writes out ("MetHb") is no drug name nobody knows.
    written_out = abbreviations()
    resolution = replace(
        resolution,
        unknown=tuple(u for u in resolution.unknown if u.upper() not in written_out),
        near_misses=tuple(m for m in resolution.near_misses if m[0].upper() not in written_out),
    )
    quantities = read_quantities(question)  # as typed: "12,5 kg", "ngưng 1 tuần" (issue 24)
    question = book_words(question)  # "THA", "cao huyết áp" are searched as "tăng huyết áp"
    folded = folded_phrase(question)
    drugs = resolution.drugs
    unknown = tuple(dict.fromkeys(resolution.not_loaded + resolution.unknown))
    section = route_section(question) or route_section(without_names(question, resolution))
    if drugs and section in (None, SectionKey.LIEU_LUONG_VA_CACH_DUNG) and _ANTIDOTE.search(folded):
        # "Bé nhỏ homatropin quá nhiều … thuốc giải là gì, liều?": the named drug's antidote,
        # printed in its Quá liều và xử trí (with no drug named it asks which drug).
        section = SectionKey.QUA_LIEU_VA_XU_TRI
    found_populations = populations(question)
    population = found_populations[0] if found_populations else None
    if {"phu_nu_mang_thai", "cho_con_bu"} <= set(found_populations):
        # "sản phụ sau sinh 1 tuần …, có nên cho bé bú không": a mother nursing now.
        population = "cho_con_bu"
    found_routes = routes(question)
    weight_kg = quantities.weight_kg
    months = quantities.age_months
    child = months is not None and months < ADULT_MONTHS
    # "thai 8 tuần" is a pregnancy, its weeks never an age; "đẻ non 32 tuần" with a newborn
    # is the child's gestation.
    if quantities.pregnancy_weeks and population in (None, "tre_em") and not child:
        # "thai 36 tuần …, sinh ra bé có bị ảnh hưởng gì": the baby is the pregnancy's, no
        # child with an age or a weight of its own.
        if population is None or weight_kg is None:
            population = "phu_nu_mang_thai"
    if weight_kg is not None and population is None and months is None:
        population = "tre_em" if weight_kg < 40 else None
    if population == "tre_em" and months is not None and not child:
        # "BN 86t …, liều so với người trẻ": the patient's age says who is asked about; a
        # child's word beside an adult's age is a comparison, never the child's band.
        population = None
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
        quantity_words=tuple(quantities.sources()),
        pregnancy_weeks=quantities.pregnancy_weeks.value if quantities.pregnancy_weeks else None,
        clcr=lab_value(quantities.labs, "clcr"),
        labs=matched_labs(quantities.labs),
        route=found_routes[0] if found_routes else None,
        subject_scope=resolve_subject_scope(question, claimed_scope),
        not_loaded=resolution.not_loaded,
        did_you_mean=resolution.near_misses,
        standalone_query=question,
    )
    paired = has(folded, "together") or "+" in question  # "heparin dùng với warfarin"
    return Reading(
        question=question,
        folded=folded,
        resolution=resolution,
        frame=_poisoned_first(frame, resolution, folded, paired),
        current=current_medicines(folded, resolution.spans),
        current_unknown=_taken_unknown(folded, unknown),
        yes_no=bool(YES_NO.search(folded)),
        paired=paired,
    )


def _poisoned_first(
    frame: QueryFrame, resolution: Resolution, folded: str, paired: bool
) -> QueryFrame:
    """The drug a poisoning is with as the subject, the others named as its antidotes."""
    drugs, section = frame.drugs, frame.attribute
    if section == SectionKey.QUA_LIEU_VA_XU_TRI and len(drugs) > 1:
        # The poisoned-with drug is the subject; the others named are its antidotes.
        subject = re.search(r"(?:ngo doc|qua lieu)\s+(\S+(?:\s\S+)?)", folded)
        if subject:
            named = get_resolver().resolve(subject.group(1))
            if named:
                companions = tuple(d for d in drugs if d != named[0])
                drugs = named[:1]
                frame = replace(frame, drugs=drugs, companions=companions)
    if section in (None, SectionKey.LIEU_LUONG_VA_CACH_DUNG) and not paired:
        # An antidote is named before its poison ("glucagon cho … insulin", "protamin trung
        # hòa heparin"); an unknown word after the drug ("xanh methylen dùng cho methemoglobin
        # huyết") is what the drug is given for, not another drug.
        first = min((folded.find(phrase) for phrase, _ in resolution.spans), default=-1)
        unknown = tuple(u for u in resolution.unknown if folded.find(fold(u)) < first)
        poisoned = antidote_subject(drugs, unknown + resolution.not_loaded)
        if poisoned is not None:
            # "NAC cho paracetamol", "glucagon cho insulin": the book names the antidote in the
            # poison's Quá liều và xử trí, so that section answers, whatever words were used.
            companions = tuple(d for d in drugs if d != poisoned)
            drugs, section = (poisoned,), SectionKey.QUA_LIEU_VA_XU_TRI
            frame = replace(frame, drugs=drugs, attribute=section, companions=companions)
    return frame
