"""The sentence that answers, before the paragraphs it sits in.

A pharmacist reads out one line of the monograph: the contraindication that names the
situation, the interaction line that names the other drug (or its class, "coumarin"), the dose
of the child's band. These are cut from the cited chunks as *units*: a sentence inside one
paragraph (never across a paragraph break), with the label it sits under kept in front of it
("Thuốc uống chống đông máu: … nên paracetamol được ưa dùng hơn …"); a list of dose bands is
cut only where the next band begins, so a band keeps its "tối đa …" with it. Tables are never
cut. The paragraphs themselves follow, one click away.
"""

import re
from collections.abc import Sequence

from answering.grounding import numeric_tokens
from answering.ranking import indication_words, prints_phrase
from answering.results import Citation
from answering.units import said, units
from corpus.sections import SITUATION_SECTIONS, SectionKey
from corpus.text import words
from retrieval.bands import age_in_bands, prints_age, weight_in_bands
from retrieval.catalog import get_resolver
from retrieval.classes import class_words
from retrieval.frame import QueryFrame, TurnType
from retrieval.queries import own_names
from retrieval.question_words import (
    Situation,
    coverage,
    pairs_said,
    rare_words,
    situation_of,
    specificity,
)
from retrieval.retrieved import sub_phrases
from retrieval.situations import GENERIC_SITUATION_WORDS, POPULATION_TERMS, condition_phrases

# The lead of a situation answer: at most this many of the book's sentences naming it; of a
# which-drug answer, one line for each drug found (retrieval returns at most eight).
LEAD_SENTENCES = 3
LIST_LINES = 8
# A which-drug condition's sub-phrases looked for in the listed drugs' lines (a 20-word
# vignette has 190).
LISTING_PHRASES = 200


def lead_sentences(
    frame: QueryFrame, citations: Sequence[Citation], in_focus: Sequence[Citation] = ()
) -> list[tuple[str, Citation]]:
    """The units of the cited prose that answer: for a situation, those naming it,
    contraindications first; for a combination, those naming the other drug or its class; for
    "which drug treats …", one line per drug in the order found; for a child's dose with an
    age or weight, the band that holds it."""
    if frame.attribute == SectionKey.LIEU_LUONG_VA_CACH_DUNG and frame.turn_type not in (
        TurnType.CONDITION_RELATION,
        TurnType.INTERACTION,
    ):
        return _dose_lead(frame, in_focus or citations)
    if frame.attribute == SectionKey.QUA_LIEU_VA_XU_TRI:
        return _antidote_lead(frame, citations)
    listing = frame.turn_type == TurnType.CONDITION_TO_DRUG
    # Two drugs asked together, as an interaction or an incompatibility ("Vancomycin có tương
    # kỵ với heparin không?"): each one's lines naming the other.
    combination = len(frame.drugs) >= 2 and (
        frame.turn_type == TurnType.INTERACTION
        or frame.attribute in (SectionKey.TUONG_KY, SectionKey.TUONG_TAC_THUOC)
    )
    # "Aspirin cho trẻ em được không?": the population is the situation searched for.
    # "Thuốc nào chống chỉ định cho phụ nữ có thai?": each drug's line for her.
    population = (
        (
            frame.turn_type == TurnType.DRUG_ATTRIBUTE
            or (frame.turn_type == TurnType.CONDITION_RELATION and not frame.condition)
        )
        and frame.attribute == SectionKey.CHONG_CHI_DINH
        and frame.population in POPULATION_TERMS
    )
    # "Metformin có gây nhiễm toan lactic không?": the effect's lines lead.
    effect = frame.turn_type == TurnType.DRUG_ATTRIBUTE and bool(frame.condition)
    if (
        not combination
        and not population
        and not effect
        and (
            frame.turn_type not in (TurnType.CONDITION_RELATION, TurnType.CONDITION_TO_DRUG)
            or not frame.condition
        )
    ):
        return []
    rare = rare_words(frame.condition or "") if listing else []
    searched = (
        [" ".join(words(t)) for t in POPULATION_TERMS[frame.population or ""]]
        if population
        else [
            # Every sub-phrase of a listed condition: the short ones of a long story
            # ("ngoại tháp … an thần kinh" in 16 words) name the indication.
            *sub_phrases(frame.condition or "", most=LISTING_PHRASES if listing else 60),
            *(" ".join(words(n)) for n in (*frame.not_loaded, *frame.unknown_drugs)),
            # A drug listed for a rare word of the condition ("Kawasaki") has its line too.
            *rare,
        ]
    )
    names = {d: _searched_names(d) for d in frame.drugs} if combination else {}
    lead: list[tuple[str, Citation]] = []
    scored: list[tuple[int, str, Citation]] = []  # (words of the phrase matched, unit, chunk)
    by_class: list[tuple[str, Citation]] = []
    # A listed drug's line is the one of its cited paragraphs' units that says the condition
    # most specifically (its rare words and pairs, then the share of its words), not the first
    # that shares a word: chenodiol's "cùng với cholesterol để điều trị hội chứng Smith-Lemli-
    # Opitz" over its first line's "sỏi mật cholesterol".
    situation = situation_of(frame.condition or "") if listing else None
    listed: dict[str, tuple[tuple[float, int, float], str, Citation]] = {}
    for c in citations:
        if c.quarantined or c.text.lstrip().startswith("|"):
            continue
        if listing and frame.attribute and c.section_key != frame.attribute:
            continue  # a listed drug's line is its indication, never a safety passage's
        if situation is not None:
            line = _listed_line(c.text, searched, rare, situation)
            if line is not None and (c.drug_id not in listed or line[0] > listed[c.drug_id][0]):
                listed[c.drug_id] = (line[0], line[1], c)
            continue
        if combination:
            # The other drug by name first; a line naming only its class comes after.
            others = [found for d, found in names.items() if d != c.drug_id]
            named = _first_unit(c.text, [n for own, _ in others for n in own])
            if named is not None:
                lead.append((named, c))
            else:
                classed = _first_unit(c.text, [n for _, cls in others for n in cls])
                if classed is not None:
                    by_class.append((classed, c))
            continue
        # A population's terms are alternatives of one situation ("clcr", "suy thận"), not
        # parts of a phrase: the first that a paragraph says is its line.
        best = _best_unit(c.text, searched) if not population else _any_unit(c.text, searched)
        if listing and rare:
            # A listed drug's line says the condition's rare word ("zona") if it can, not
            # only a common pair it shares ("đau sau" of "đau sau phẫu thuật").
            best = _any_unit(c.text, rare) or best
        if best is not None:
            scored.append((best[0], best[1], c))  # one unit a paragraph; the paragraph follows
    if situation is not None:
        lines = [(text, c) for _, text, c in listed.values()]
        extra = _complement(lines[0], citations, situation, frame.attribute) if lines else None
        if extra is not None:
            lines.insert(1, extra)  # the first drug's other line, for what its first leaves out
        return lines[:LIST_LINES]
    if scored and not listing:
        # Only the most specific lines lead: "Tắc ruột do phân." over "Tắc ruột hoặc liệt
        # ruột." for "tắc ruột do phân"; a part of the phrase does not outrank the whole.
        top = max(words for words, _, _ in scored)
        lead += [(text, c) for words, text, c in scored if words == top]
    else:
        lead += [(text, c) for _, text, c in scored]
    if combination:
        # A class line only when no line names the drug: "thuốc chống viêm không steroid
        # pyrazol" is not about ibuprofen, which warfarin's monograph names itself.
        return (lead or by_class)[:LEAD_SENTENCES]
    if listing:
        return lead[:LIST_LINES]
    order: dict[str, int] = {key: n for n, key in enumerate(SITUATION_SECTIONS)}
    lead.sort(key=lambda pair: order.get(pair[1].section_key, len(order)))
    return lead[:LEAD_SENTENCES]


def _listed_line(
    text: str, phrases: Sequence[str], rare: Sequence[str], situation: Situation
) -> tuple[tuple[float, int, float], str] | None:
    """The unit of a listed drug's paragraph that says the condition best, with its score:
    how specifically (rare words and pairs), then the longest of the phrases it says (the
    typed numbers count there: "typ 2" over "typ 1"), then the share of the words; only a
    unit that says one of the phrases or a rare word."""
    best: tuple[tuple[float, int, float], str] | None = None
    wanted = [p for p in phrases if set(p.split()) - GENERIC_SITUATION_WORDS]
    for unit in units(text):
        longest = next((len(p.split()) for p in wanted if said(unit, [p])), 0)
        if not longest and not said(unit, rare):
            continue
        score = (specificity(unit.bare, situation), longest, coverage(unit.bare, situation))
        if best is None or score > best[0]:
            best = (score, unit.text)
    return best


def _complement(
    first: tuple[str, Citation],
    citations: Sequence[Citation],
    situation: Situation,
    section: str | None,
) -> tuple[str, Citation] | None:
    """The first listed drug's unit that says most specifically what its line does not
    ("Kháng sinh nào vừa bôi cho chốc, hăm kẽ …, vừa dùng toàn thân cho … áp xe não": acid
    fusidic's "Dùng ngoài … hăm kẽ, chốc" and its "… kháng penicilin như áp xe, kể cả áp xe
    não"), or None when every rare word and pair of the question it says is said already."""
    text, cited = first
    said_words = set(situation.said_in(text))
    rest = Situation(
        {w: idf for w, idf in situation.weights.items() if w not in said_words},
        situation.pairs - set(pairs_said(situation.said_in(text), situation)),
        situation.typed,
        situation.spoken,
    )
    best: tuple[float, str, Citation] | None = None
    for c in citations:
        if c.drug_id != cited.drug_id or c.quarantined or c.text.lstrip().startswith("|"):
            continue
        if section and c.section_key != section:
            continue
        for unit in units(c.text):
            if unit.bare in text:
                continue
            score = specificity(unit.bare, rest)
            if score > 0 and (best is None or score > best[0]):
                best = (score, unit.text, c)
    return (best[1], best[2]) if best is not None else None


def _best_unit(text: str, phrases: Sequence[str]) -> tuple[int, str] | None:
    """The unit that says the longest of the phrases (its word count), first in the text."""
    best: tuple[int, str] | None = None
    for phrase in phrases:
        size = len(phrase.split())
        if best is not None and size <= best[0]:
            continue
        if not set(phrase.split()) - GENERIC_SITUATION_WORDS:
            continue
        unit = _first_unit(text, [phrase])
        if unit is not None:
            best = (size, unit)
    return best


def _any_unit(text: str, phrases: Sequence[str]) -> tuple[int, str] | None:
    found = _first_unit(text, phrases)
    return (1, found) if found is not None else None


def _first_unit(text: str, phrases: Sequence[str]) -> str | None:
    return next((u.text for u in units(text) if phrases and said(u, phrases)), None)


def _searched_names(drug_id: str) -> tuple[list[str], list[str]]:
    """How another monograph may name this drug: its own names, and its class words."""
    own = [" ".join(words(n)) for n in own_names(drug_id)]
    classes = [" ".join(words(word)) for _, word in class_words(drug_id)]
    return [n for n in dict.fromkeys(own) if n], [n for n in dict.fromkeys(classes) if n]


def dose_lead(
    frame: QueryFrame, citations: Sequence[Citation], in_focus: Sequence[Citation] = ()
) -> list[tuple[str, Citation]]:
    """The lead of a dose question: the band that holds the child's age or weight, from the
    paragraphs in focus (those the question's route and indication ranked first)."""
    return _dose_lead(frame, in_focus or citations)


def _dose_lead(frame: QueryFrame, citations: Sequence[Citation]) -> list[tuple[str, Citation]]:
    """The units of a child's dose that answer a stated age or weight, from the paragraphs
    ranked first: the band that prints the age (or the narrowest band holding it), a weight
    band that is not an age band's qualifier ("Trẻ 3 - 6 tháng: (cân nặng trên 5 kg)" is no
    dose for a 15 kg child), and among them first those naming the question's indication."""
    if frame.population in _ADULT_POPULATIONS:
        return _population_dose_lead(frame, citations)
    if frame.population != "tre_em" or (frame.age_text is None and frame.weight_kg is None):
        return []
    indication = indication_words(frame)
    named = _indication_named(indication, frame.standalone_query or "")
    scored: list[tuple[int, int, str, Citation]] = []
    for c in citations:
        if c.quarantined or c.section_key != SectionKey.LIEU_LUONG_VA_CACH_DUNG:
            continue
        for unit in units(c.text):
            score = _band_fit(unit.bare, frame)
            if score and indication and said(unit, indication):
                score += 2
            # A child's line under the question's own indication (its heading or its words,
            # the book's synonyms included) outranks a band of another indication.
            if named and _CHILD.search(unit.bare) and prints_phrase(unit.text, named):
                score = max(score, 1) + 3
            if score:
                scored.append((score, len(scored), unit.text, c))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [(text, c) for _, _, text, c in scored[:2]]


# An adult's population whose dose lines the book prints under its own words ("Người cao
# tuổi: …", "Không nên dùng cho người già ngoài 80 tuổi").
_ADULT_POPULATIONS = ("nguoi_cao_tuoi",)


def _population_dose_lead(
    frame: QueryFrame, citations: Sequence[Citation]
) -> list[tuple[str, Citation]]:
    """The dose section's sentences naming the patient's population, in the book's order."""
    terms = [" ".join(words(t)) for t in POPULATION_TERMS[frame.population or ""]]
    lead = [
        (unit.text, c)
        for c in citations
        if not c.quarantined and c.section_key == SectionKey.LIEU_LUONG_VA_CACH_DUNG
        for unit in units(c.text)
        if prints_phrase(unit.text, terms)
    ]
    return lead[:2]


_PER_KG = re.compile(r"mg\s*/\s*kg")
_CHILD = re.compile(r"\btrẻ\b", re.IGNORECASE)


def _indication_named(indication: Sequence[str], question: str) -> list[str]:
    """Two adjacent words of the question's indication, and the book's phrases for a
    condition the question names (`retrieval.situations.CONDITION_SYNONYMS`: "co giật liên
    tục" is printed "trạng thái động kinh")."""
    pairs = [f"{a} {b}" for a, b in zip(indication, indication[1:], strict=False)]
    return pairs + condition_phrases(" ".join(words(question)))


_AGE_BAND = re.compile(r"\d\s*(?:tháng|tuổi|năm tuổi)", re.IGNORECASE)


def _band_fit(text: str, frame: QueryFrame) -> int:
    if frame.age_text:
        if prints_age(text, frame.age_text):
            return 4
        if frame.age_band and frame.age_band.lower() in " ".join(text.split()).lower():
            return 3
        return 1 if age_in_bands(frame.age_months, text) else 0
    if frame.weight_kg is not None and weight_in_bands(frame.weight_kg, text):
        return 0 if _AGE_BAND.search(text) else 3
    if frame.weight_kg is not None and _PER_KG.search(text) and not _AGE_BAND.search(text):
        return 1  # a dose per kilogram answers a weight too
    return 0


def _antidote_lead(frame: QueryFrame, citations: Sequence[Citation]) -> list[tuple[str, Citation]]:
    """ "Dùng heparin trung hòa warfarin bao nhiêu": the overdose section's lines that name
    the other drug of the question (the antidote), in book order."""
    named = get_resolver().resolve(frame.standalone_query or "")
    names = [n for d in named if d not in frame.drugs for n in _searched_names(d)[0]]
    if not names:
        return []
    lead = []
    for c in citations:
        if c.quarantined or c.section_key != SectionKey.QUA_LIEU_VA_XU_TRI:
            continue
        found = [u for u in units(c.text) if said(u, names)]
        # A line with the regimen's numbers before one that only names the antidote.
        found.sort(key=lambda u: not numeric_tokens(u.bare))
        if found:
            lead.append((found[0].text, c))
    lead.sort(key=lambda pair: not numeric_tokens(pair[0]))
    return lead[:LEAD_SENTENCES]
