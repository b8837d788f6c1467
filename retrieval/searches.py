"""One search per reading of a question: what the book says for that reading, and the
decision on it. A question shape (answering.shapes) names its search; a frame without a
shape (a model's, a follow-up's) gets the search of its turn type (`search_for`).

Every search reads the frame and returns what it found with the frame as retrieval decided
it; the floors every answer keeps are added around it by `retrieve.retrieve_for_frame`.
"""

from collections.abc import Callable
from dataclasses import replace

from corpus.sections import (
    EFFECT_SECTIONS,
    PATIENT_SECTIONS,
    POPULATION_SITUATION_SECTIONS,
    SITUATION_SECTIONS,
    SectionKey,
)
from retrieval.bands import ADULT_MONTHS, band_for, child_bands, youngest_first
from retrieval.evidence import Evidence, Outcome, Reason, unique_evidence
from retrieval.frame import QueryFrame, TurnType
from retrieval.pairs import interaction_evidence
from retrieval.queries import (
    drug_overview,
    find_by_section,
    find_condition_in_sections,
    free_form,
    retrieve_section,
)
from retrieval.retrieved import Retrieved, from_decision, sub_phrases
from retrieval.situations import GENERIC_SITUATION_WORDS, POPULATION_TERMS
from retrieval.which_drug_search import drugs_for_condition

Search = Callable[[QueryFrame, str], Retrieved]


def nothing_to_search(frame: QueryFrame, question: str) -> Retrieved:
    """A greeting, a question outside the book, or no drug the book has: no search."""
    if frame.turn_type == TurnType.SMALLTALK:
        return Retrieved(frame, [], Outcome.ANSWER, Reason.SMALLTALK)
    if frame.turn_type == TurnType.OUT_OF_SCOPE:
        scope = Reason.NON_HUMAN_SUBJECT if frame.subject_scope != "human" else Reason.OUT_OF_SCOPE
        return Retrieved(frame, [], Outcome.ABSTAIN, scope)
    reason = (
        Reason.DRUG_NOT_LOADED
        if frame.not_loaded
        else (Reason.UNKNOWN_DRUG if frame.unknown_drugs else Reason.NO_DRUG_NAMED)
    )
    return Retrieved(frame, [], Outcome.ABSTAIN, reason)


def overview(frame: QueryFrame, question: str) -> Retrieved:
    """ "X là thuốc gì": each drug's name, class, indications and pharmacology."""
    return from_decision(frame, [e for drug_id in frame.drugs for e in drug_overview(drug_id)])


def indications(frame: QueryFrame, question: str) -> Retrieved:
    """ "X dùng để trị gì": the drug's Chỉ định."""
    return from_decision(frame, find_by_section(frame.drugs[0], SectionKey.CHI_DINH))


def interaction(frame: QueryFrame, question: str) -> Retrieved:
    """Two drugs or more: each one's lines naming another (by name, salt or class), else its
    whole Tương tác thuốc; never "not named" when any line names the pair."""
    evidence = []
    named = False
    for drug_id in frame.drugs:
        hits = []
        for other in (d for d in frame.drugs if d != drug_id):
            hits += interaction_evidence(drug_id, other)[0]
        named = named or bool(hits)
        evidence += hits or find_by_section(drug_id, SectionKey.TUONG_TAC_THUOC)
    absence = None if named else Reason.INTERACTION_NOT_NAMED_IN_BOOK
    return from_decision(frame, unique_evidence(evidence), absence)


def situation(frame: QueryFrame, question: str) -> Retrieved:
    """The patient's situation in the drug's sections, contraindications first (the longest
    part of the phrase any of them says); not found, the section asked, said as not found."""
    if not frame.condition:
        return section(frame, question)
    drug_id = frame.drugs[0]
    terms = POPULATION_TERMS.get(frame.population or "", ())
    # A drug the question names that has no monograph here ("pha với lidocain") is
    # searched by its name too: ceftriaxon's monograph says "Mẫn cảm với lidocain".
    names = [*frame.not_loaded, *frame.unknown_drugs]
    for phrase in dict.fromkeys([*sub_phrases(frame.condition), *terms, *names]):
        hits = find_condition_in_sections(drug_id, phrase, SITUATION_SECTIONS)
        if hits:
            return from_decision(replace(frame, attribute=hits[0].section_key), hits)
    frame = replace(frame, attribute=frame.attribute or SectionKey.CHONG_CHI_DINH)
    return from_decision(
        frame,
        find_by_section(drug_id, frame.attribute or ""),
        Reason.CONDITION_NOT_NAMED_IN_BOOK,
    )


def section(frame: QueryFrame, question: str) -> Retrieved:
    """The section asked for, of every drug (or the free-form search when none is asked): an
    effect's lines first, a population's caution lines after the contraindications, a child's
    dose asked back for age or weight, the band holding a stated age recorded."""
    if frame.attribute is None:
        packed = free_form(question, frame.drugs[0])
        return from_decision(frame, packed.evidence)

    evidence = []
    for drug_id in frame.drugs:
        evidence += retrieve_section(
            drug_id, frame.attribute, question, pool=frame.attribute == SectionKey.THAN_TRONG
        )
    if (
        frame.turn_type == TurnType.DRUG_ATTRIBUTE
        and frame.attribute == SectionKey.TAC_DUNG_KHONG_MONG_MUON
        and frame.condition
    ):
        # Found: its lines lead. Not found, the section is quoted as asked, with no "không
        # nêu": the book may say a shorter word ("Ho." for "ho khan") a phrase search misses.
        evidence = unique_evidence(_effect_lines(frame) + evidence)
    if frame.attribute == SectionKey.CHONG_CHI_DINH and frame.population in POPULATION_TERMS:
        # "Aspirin cho trẻ em được không?": the contraindications, then every caution line
        # that names the population (Reye's syndrome is in Thận trọng).
        evidence = unique_evidence(evidence + _population_lines(frame))
    if (
        not evidence
        and frame.attribute != SectionKey.CHONG_CHI_DINH
        and (frame.attribute in PATIENT_SECTIONS.values() or frame.asks_use)
    ):
        # A pregnant or nursing patient, or "may it be given", and the monograph prints no such
        # section (heparin): what a pharmacist checks next, the contraindications (and the
        # floor's cautions), never an abstention.
        return section(replace(frame, attribute=SectionKey.CHONG_CHI_DINH), question)
    if not evidence:
        return Retrieved(
            frame,
            [],
            Outcome.ABSTAIN,
            Reason.SECTION_NOT_IN_MONOGRAPH,
            near_misses=[f"{d}: {frame.attribute}" for d in frame.drugs],
        )
    if (
        frame.attribute == SectionKey.LIEU_LUONG_VA_CACH_DUNG
        and frame.population == "tre_em"
        and frame.age_text is None
        and frame.weight_kg is None
    ):
        bands = child_bands(evidence)
        if len(bands) >= 2:
            # Offered as quick replies: the band headings of the paragraph that has the most
            # ("Trẻ em 2 - 4 tuổi: 180 mg; …", the main dose table), else every band found.
            headings = _main_headings(evidence)
            offered = headings if len(headings) >= 2 else bands
            # Every band the book prints (paracetamol: 9; four left a child of 1 or 3 years
            # without a button, issue 22); the chat groups them by age and weight.
            replies = tuple(_spread(sorted(offered, key=youngest_first), 24))
            frame = replace(
                frame,
                needs_clarify=True,
                clarify_reason=Reason.CHILD_DOSE_NEEDS_AGE_OR_WEIGHT,
                quick_replies=replies,
            )
            return Retrieved(
                frame,
                evidence,
                Outcome.CLARIFY,
                Reason.CHILD_DOSE_NEEDS_AGE_OR_WEIGHT,
                quick_replies=list(replies),
                clarifying_question="Trẻ bao nhiêu tuổi hoặc nặng bao nhiêu kg?",
            )
    child_age = frame.age_months is not None and frame.age_months < ADULT_MONTHS
    if (
        frame.attribute == SectionKey.LIEU_LUONG_VA_CACH_DUNG
        and child_age
        and frame.age_months is not None
    ):
        # The book's band that holds the stated age, recorded for the answer and the audit.
        band = band_for(child_bands(evidence), frame.age_text, frame.age_months)
        asked = _ask_for_band(frame, evidence) if band is None else None
        if asked is not None:
            return asked
        frame = replace(frame, age_band=band)
    return from_decision(frame, evidence)


def age_between_bands(frame: QueryFrame, evidence: list[Evidence]) -> Retrieved | None:
    """A child's age that no band of the dose paragraphs holds, asked back with the bands."""
    if band_for(child_bands(evidence), frame.age_text, frame.age_months or 0.0) is not None:
        return None
    return _ask_for_band(frame, evidence)


def _ask_for_band(frame: QueryFrame, evidence: list[Evidence]) -> Retrieved | None:
    """The bands asked back for an age no band holds, unless a weight answers instead."""
    headings = _main_headings(evidence)
    if frame.weight_kg is None and len(headings) >= 2:
        # "5 tuổi" between "2 - 4 tuổi" and "6 - 12 tuổi" (issue 24): no band of the book
        # holds the age, and the nearest is never guessed; the bands are asked back.
        replies = tuple(sorted(headings, key=youngest_first))
        frame = replace(
            frame,
            needs_clarify=True,
            clarify_reason=Reason.AGE_BETWEEN_BOOK_BANDS,
            quick_replies=replies,
        )
        return Retrieved(
            frame,
            evidence,
            Outcome.CLARIFY,
            Reason.AGE_BETWEEN_BOOK_BANDS,
            quick_replies=list(replies),
            clarifying_question=(
                f"Sách không có khoảng tuổi nào chứa {frame.age_text}. "
                "Trẻ thuộc khoảng nào dưới đây, hoặc nặng bao nhiêu kg?"
            ),
        )
    return None


def _main_headings(evidence: list[Evidence]) -> list[str]:
    """The band headings of the paragraph that has the most ("Trẻ em 2 - 4 tuổi: 180 mg; …",
    the main dose table)."""
    per_item = [child_bands([e], headings_only=True) for e in evidence]
    return max(per_item, key=len, default=[])


def _population_lines(frame: QueryFrame) -> list[Evidence]:
    """Every caution or ADR line naming the population; when none does, the dose paragraphs
    that name it ("Omeprazol có dùng cho trẻ 1 tuổi được không?": the book's answer is its
    children's dose), so the answer is never only "Quá mẫn với …"."""
    found: list[Evidence] = []
    terms = POPULATION_TERMS[frame.population or ""]
    for drug_id in frame.drugs:
        for term in terms:
            found += find_condition_in_sections(drug_id, term, POPULATION_SITUATION_SECTIONS)
    if not found:
        for drug_id in frame.drugs:
            for term in terms:
                found += find_condition_in_sections(
                    drug_id, term, [SectionKey.LIEU_LUONG_VA_CACH_DUNG]
                )
    return found


def _effect_lines(frame: QueryFrame) -> list[Evidence]:
    """The chunks saying the longest part of the effect phrase that any of them says."""
    drug_id = frame.drugs[0]
    for phrase in sub_phrases(frame.condition or ""):
        if not set(phrase.split()) - GENERIC_SITUATION_WORDS:
            continue
        hits = find_condition_in_sections(drug_id, phrase, EFFECT_SECTIONS)
        if hits:
            return hits
    return []


def _spread(items: list[str], n: int) -> list[str]:
    """n items spread over the list (youngest to oldest band), not the first n."""
    if len(items) <= n:
        return items
    step = (len(items) - 1) / (n - 1)
    return [items[round(i * step)] for i in range(n)]


# The search of each turn type, for a frame no shape produced (a model's, a follow-up's).
BY_TURN_TYPE: dict[str, Search] = {
    TurnType.SMALLTALK: nothing_to_search,
    TurnType.OUT_OF_SCOPE: nothing_to_search,
    TurnType.CONDITION_TO_DRUG: drugs_for_condition,
    TurnType.DRUG_OVERVIEW: overview,
    TurnType.DRUG_TO_CONDITION: indications,
    TurnType.INTERACTION: interaction,
}


def search_for(frame: QueryFrame) -> Search:
    """The search a frame's reading calls for, by its turn type and what it names."""
    if frame.turn_type == TurnType.CONDITION_RELATION:
        return situation if frame.drugs else drugs_for_condition
    if not frame.drugs and frame.turn_type != TurnType.CONDITION_TO_DRUG:
        return nothing_to_search
    return BY_TURN_TYPE.get(frame.turn_type, section)
