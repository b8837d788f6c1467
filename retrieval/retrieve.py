"""From a frame to the evidence that answers it, and the decision on that evidence.

The frame is read, never changed: what retrieval decided (the drugs a reverse lookup found,
the section a condition sits in, the bands to ask back with) comes back as `Retrieved.frame`.
"""

from dataclasses import dataclass, field, replace

from corpus.sections import (
    EFFECT_SECTIONS,
    POPULATION_SITUATION_SECTIONS,
    SITUATION_SECTIONS,
    SectionKey,
)
from retrieval.bands import ADULT_MONTHS, band_for, child_bands, youngest_first
from retrieval.catalog import get_resolver
from retrieval.evidence import Evidence, Outcome, Reason, SafetyFinding, decide, unique_evidence
from retrieval.floor import (
    FloorLine,
    companion_floor,
    named_anywhere,
    pair_floor,
    population_dose_floor,
    ranked_indications,
    safety_floor,
)
from retrieval.frame import QueryFrame, TurnType
from retrieval.pairs import interaction_evidence, patient_safety
from retrieval.queries import (
    drug_overview,
    find_by_indication,
    find_by_section,
    find_condition_in_sections,
    free_form,
    own_names,
    retrieve_section,
)
from retrieval.ranked import Situation, ranked_evidence, situation_of
from retrieval.situations import GENERIC_SITUATION_WORDS, POPULATION_TERMS, trimester_terms


@dataclass
class Retrieved:
    frame: QueryFrame  # the question's frame with what retrieval decided
    evidence: list[Evidence]
    decision: Outcome
    reason: str
    quick_replies: list[str] = field(default_factory=list)
    clarifying_question: str | None = None
    near_misses: list[str] = field(default_factory=list)
    safety: list[SafetyFinding] = field(default_factory=list)
    # What stays in view whatever reading won (retrieval.floor): the contraindication floor of
    # a "may it be given" question, the best plain-ranked paragraphs, the informative words
    # of the question (idf) that decide whether those show.
    floor: list[FloorLine] = field(default_factory=list)
    ranked: list[Evidence] = field(default_factory=list)
    situation: Situation = field(default_factory=lambda: Situation({}))


def _from_decision(
    frame: QueryFrame, evidence: list[Evidence], reason: str | None = None
) -> Retrieved:
    verdict = decide(evidence)
    answered = verdict.decision == Outcome.ANSWER
    return Retrieved(
        frame, evidence, verdict.decision, reason if answered and reason else verdict.reason
    )


def retrieve_for_frame(frame: QueryFrame, question: str) -> Retrieved:
    """The evidence of the frame's reading, with the floors every answer keeps (issue 17/18)."""
    retrieved = _retrieve(frame, question)
    drugs = retrieved.frame.drugs
    if retrieved.decision not in (Outcome.ANSWER, Outcome.VERIFY_PDF) or not drugs:
        return retrieved
    if retrieved.frame.turn_type == TurnType.CONDITION_TO_DRUG:
        return retrieved
    names = [name for d in drugs for name in own_names(d)] + list(_typed_names(question))
    retrieved.situation = situation_of(question, names)
    retrieved.ranked = ranked_evidence(question, drugs, k=2)
    if retrieved.reason == Reason.CONDITION_NOT_NAMED_IN_BOOK and retrieved.frame.condition:
        # The phrase search missed; the book is silent only if no paragraph says any of the
        # situation's informative words ("bia rượu" → "không uống rượu" in Tương tác).
        told = retrieved.frame.situation or retrieved.frame.condition  # as typed: "trứng" ≠ "trung"
        near = named_anywhere(drugs[0], told, names)
        if near:
            retrieved.reason = Reason.CONDITION_NOT_FOUND_AS_TYPED
            retrieved.ranked = unique_evidence(near + retrieved.ranked)
    if retrieved.frame.companions:
        retrieved.floor += companion_floor(retrieved.frame.companions, drugs)
    if len(drugs) >= 2:
        pairs = pair_floor(drugs)
        retrieved.floor += pairs
        if pairs and retrieved.reason == Reason.INTERACTION_NOT_NAMED_IN_BOOK:
            # Named outside Tương tác thuốc ("không được phối hợp với aspirin" in Chống chỉ
            # định): the book names the pair, so it is never said not to.
            retrieved.reason = Reason.GROUNDED_EVIDENCE_AVAILABLE
    asked = retrieved.frame.population or ""
    if (
        retrieved.frame.attribute == SectionKey.LIEU_LUONG_VA_CACH_DUNG
        and asked in DOSE_POPULATIONS
    ):
        # "Cụ ông 85t … liều thế nào?": the elderly / renal / hepatic dose lines lead.
        retrieved.floor += population_dose_floor(
            drugs, POPULATION_TERMS[asked], retrieved.frame.clcr
        )
    if retrieved.frame.asks_use:
        # The situation as the book says it: the question, and the book's words for the
        # population it names ("thai phụ" → "thai kỳ", "mang thai").
        terms = POPULATION_TERMS.get(retrieved.frame.population or "", ())
        terms += trimester_terms(retrieved.frame.pregnancy_weeks)
        situation = situation_of(" ".join([question, *terms]), names)
        patient = {
            "phu_nu_mang_thai": SectionKey.THOI_KY_MANG_THAI,
            "cho_con_bu": SectionKey.THOI_KY_CHO_CON_BU,
        }
        extra = [patient[p] for p in [retrieved.frame.population] if p in patient]
        retrieved.floor = safety_floor(drugs, situation, extra) + retrieved.floor
    return retrieved


def _typed_names(question: str) -> tuple[str, ...]:
    """The words of the question the resolver read as drug names (brands, short forms)."""
    return tuple(phrase for phrase, _ in get_resolver().resolve_detail(question).spans)


def _retrieve(frame: QueryFrame, question: str) -> Retrieved:
    if frame.turn_type == TurnType.SMALLTALK:
        return Retrieved(frame, [], Outcome.ANSWER, Reason.SMALLTALK)
    if frame.turn_type == TurnType.OUT_OF_SCOPE:
        reason = Reason.NON_HUMAN_SUBJECT if frame.subject_scope != "human" else "out_of_scope"
        return Retrieved(frame, [], Outcome.ABSTAIN, reason)
    if not frame.drugs and frame.turn_type not in (
        TurnType.CONDITION_TO_DRUG,
        TurnType.CONDITION_RELATION,
    ):
        reason = (
            "drug_not_loaded"
            if frame.not_loaded
            else ("unknown_drug" if frame.unknown_drugs else "no_drug_named")
        )
        return Retrieved(frame, [], Outcome.ABSTAIN, reason)

    if frame.turn_type == TurnType.CONDITION_TO_DRUG:
        evidence = find_by_indication(frame.condition or "") or ranked_indications(question)
        if not evidence:
            return Retrieved(frame, [], Outcome.ABSTAIN, Reason.NO_INDICATION_MATCH)
        frame = replace(frame, drugs=tuple(dict.fromkeys(e.drug_id for e in evidence)))
        safety = _safety_for(frame)
        pooled = unique_evidence(
            evidence + [e for f in safety for e in f.evidence[:SAFETY_HITS_PER_FACET]]
        )
        retrieved = _from_decision(frame, pooled)
        retrieved.safety = safety
        return retrieved

    if frame.turn_type == TurnType.CONDITION_RELATION and not frame.drugs:
        section = (
            SectionKey.TAC_DUNG_KHONG_MONG_MUON
            if frame.relation == "adverse_effect"
            else SectionKey.CHONG_CHI_DINH
        )
        evidence = find_by_indication(frame.condition or "", section)
        if not evidence:
            return Retrieved(frame, [], Outcome.ABSTAIN, Reason.NO_CONDITION_MATCH)
        frame = replace(
            frame, drugs=tuple(dict.fromkeys(e.drug_id for e in evidence)), attribute=section
        )
        return _from_decision(frame, evidence)

    if frame.turn_type == TurnType.DRUG_OVERVIEW:
        return _from_decision(frame, [e for drug_id in frame.drugs for e in drug_overview(drug_id)])

    if frame.turn_type == TurnType.DRUG_TO_CONDITION:
        return _from_decision(frame, find_by_section(frame.drugs[0], SectionKey.CHI_DINH))

    if frame.turn_type == TurnType.INTERACTION:
        evidence = []
        named = False
        for drug_id in frame.drugs:
            hits = []
            for other in (d for d in frame.drugs if d != drug_id):
                hits += interaction_evidence(drug_id, other)[0]
            named = named or bool(hits)
            evidence += hits or find_by_section(drug_id, SectionKey.TUONG_TAC_THUOC)
        absence = None if named else "interaction_not_named_in_book"
        return _from_decision(frame, unique_evidence(evidence), absence)

    if frame.turn_type == TurnType.CONDITION_RELATION and frame.condition:
        drug_id = frame.drugs[0]
        terms = POPULATION_TERMS.get(frame.population or "", ())
        # A drug the question names that has no monograph here ("pha với lidocain") is
        # searched by its name too: ceftriaxon's monograph says "Mẫn cảm với lidocain".
        names = [*frame.not_loaded, *frame.unknown_drugs]
        for phrase in dict.fromkeys([*sub_phrases(frame.condition), *terms, *names]):
            hits = find_condition_in_sections(drug_id, phrase, SITUATION_SECTIONS)
            if hits:
                return _from_decision(replace(frame, attribute=hits[0].section_key), hits)
        frame = replace(frame, attribute=frame.attribute or SectionKey.CHONG_CHI_DINH)
        return _from_decision(
            frame, find_by_section(drug_id, frame.attribute or ""), "condition_not_named_in_book"
        )

    if frame.attribute is None:
        packed = free_form(question, frame.drugs[0])
        return _from_decision(frame, packed.evidence)

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
            per_item = [child_bands([e], headings_only=True) for e in evidence]
            headings = max(per_item, key=len)
            offered = headings if len(headings) >= 2 else bands
            replies = tuple(_spread(sorted(offered, key=youngest_first), 4))
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
        frame = replace(frame, age_band=band)
    return _from_decision(frame, evidence)


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


# Adult populations whose own dose lines lead a dose answer for them.
DOSE_POPULATIONS = ("nguoi_cao_tuoi", "suy_than", "suy_gan")

# Seed policy: a facet shows its best hits, not the whole section (safety_hits_per_section).
SAFETY_HITS_PER_FACET = 2


def _safety_for(frame: QueryFrame) -> list[SafetyFinding]:
    """Per-facet safety evidence for each indicated drug, from the patient's own context."""
    patient = frame.patient
    if not patient.has_context:
        return []
    findings: list[SafetyFinding] = []
    for drug_id in frame.drugs:
        findings += patient_safety(
            drug_id,
            current_medicines=list(patient.current_medicines),
            conditions=list(patient.comorbidities),
            pregnant=patient.pregnancy,
            breastfeeding=patient.breastfeeding,
        )
    return findings


def _spread(items: list[str], n: int) -> list[str]:
    """n items spread over the list (youngest to oldest band), not the first n."""
    if len(items) <= n:
        return items
    step = (len(items) - 1) / (n - 1)
    return [items[round(i * step)] for i in range(n)]


def sub_phrases(condition: str) -> list[str]:
    """The condition, then its contiguous sub-phrases of two words or more, longest first."""
    tokens = condition.split()
    if len(tokens) == 1:
        return tokens
    phrases = []
    for length in range(len(tokens), 1, -1):
        for start in range(0, len(tokens) - length + 1):
            phrases.append(" ".join(tokens[start : start + length]))
    return phrases[:60]
