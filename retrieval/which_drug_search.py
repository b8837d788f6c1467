"""Which drug treats (causes, must not be given with) a condition: the monographs whose
Chỉ định (Tác dụng không mong muốn, Chống chỉ định) say it, each with the patient's safety
lines; kept to a class's drugs when the question names the class."""

from dataclasses import replace

from corpus.red_flag_models import RedFlag
from corpus.sections import SITUATION_SECTIONS, SectionKey
from corpus.text import prints_phrase
from retrieval.evidence import Evidence, Outcome, Reason, SafetyFinding, unique_evidence
from retrieval.floor import FloorLine, book_lines, companion_floor, overdose_floor
from retrieval.frame import QueryFrame, TurnType
from retrieval.indication_list import ranked_indications, says_as_much, says_specifically
from retrieval.pairs import patient_safety
from retrieval.queries import find_by_indication
from retrieval.question_words import names_situation, situation_of, specificity
from retrieval.ranked import ranked_evidence
from retrieval.retrieved import Retrieved, from_decision
from retrieval.situations import POPULATION_TERMS

# A which-drug condition of more words than this is a story, not a phrase.
LONG_CONDITION = 8


def drugs_for_condition(frame: QueryFrame, question: str) -> Retrieved:
    """ "Thuốc nào trị gút?": the monographs whose Chỉ định says the condition (ranked over
    the whole book's indications when the phrase search finds none), each with the patient's
    safety lines; "thuốc nào gây …" / "chống chỉ định với …" in the ADR / CCĐ sections."""
    if frame.turn_type == TurnType.CONDITION_RELATION:
        section = (
            SectionKey.TAC_DUNG_KHONG_MONG_MUON
            if frame.relation == "adverse_effect"
            else SectionKey.CHONG_CHI_DINH
        )
        # The phrase as typed and the section's paragraphs saying the question's rare words
        # ("dị ứng đậu nành và lạc" for "… mẫn cảm với lecithin đậu nành …, đậu phộng"); a
        # phrase found saying less of them than the best ranked is a word shared ("sốt rét"
        # of "thuốc kháng sốt rét nào … thiếu G6PD"), not listed.
        # Only the patient said ("… chống chỉ định cho phụ nữ có thai?"): the book's words for
        # that patient.
        told = (
            [frame.condition]
            if frame.condition
            else POPULATION_TERMS.get(frame.population or "", ())
        )
        typed = unique_evidence([e for p in told for e in find_by_indication(p, section)])
        ranked = ranked_indications(question, (section,), rare_only=True)
        evidence = unique_evidence(typed + ranked)
        if ranked:
            evidence = [e for e in evidence if says_as_much(e.text, ranked[0].text, question)]
        if not evidence:
            return Retrieved(frame, [], Outcome.ABSTAIN, Reason.NO_CONDITION_MATCH)
        frame = replace(
            frame, drugs=tuple(dict.fromkeys(e.drug_id for e in evidence)), attribute=section
        )
        return from_decision(frame, evidence)
    # The phrase as typed, then the indications saying as much of its rare words (BM25; in
    # another order: "bệnh xương Paget" for "Paget xương"), and only with neither the dense
    # search: a near neighbour in meaning is no indication for a word the book has.
    typed = find_by_indication(frame.condition or "", dense=False)
    listed = {e.drug_id for e in typed}
    ranked = [e for e in ranked_indications(question) if e.drug_id not in listed]
    if typed:
        ranked = [e for e in ranked if says_as_much(e.text, typed[0].text, question)]
    elif ranked:
        # "Bé được chẩn đoán bệnh Kawasaki, thuốc nào …": the indication saying the rare word
        # leads, and those saying only a common pair of the story ("chẩn đoán") are no answer.
        ranked = [
            e for e in ranked if says_as_much(e.text, ranked[0].text, question, words_only=True)
        ] or ranked
    if len((frame.condition or "").split()) > LONG_CONDITION and ranked:
        # A story of many words ("tím tái, SpO2 85% …, máu nâu sô cô la, MetHb 40% sau uống
        # dapson"): a phrase of two common words it happens to share ("tím tái") says less
        # than the indication saying its rare words (methemoglobin); that one leads.
        typed = [e for e in typed if says_as_much(e.text, ranked[0].text, question)]
        evidence = unique_evidence(ranked + typed)
    else:
        evidence = unique_evidence(typed + ranked)
    if not evidence:
        # Only a near neighbour in meaning is left: listed, it must say the question's
        # condition specifically, as a ranked one must (a story of a kidney cancer is never
        # answered by warfarin's "huyết khối").
        near = find_by_indication(frame.condition or "")
        evidence = [e for e in near if says_specifically(e.text, question)]
    if not evidence:
        # No indication says it: the book's other "used for" text, ranked the same way.
        evidence = ranked_indications(question, _ALSO_USED_FOR, rare_only=True)
    if not evidence:
        return Retrieved(frame, [], Outcome.ABSTAIN, Reason.NO_INDICATION_MATCH)
    frame = replace(frame, drugs=tuple(dict.fromkeys(e.drug_id for e in evidence)))
    safety = _safety_for(frame)
    pooled = unique_evidence(
        evidence + [e for f in safety for e in f.evidence[:SAFETY_HITS_PER_FACET]]
    )
    about = _about_the_first(frame, question) or _said_better(evidence, question)
    retrieved = from_decision(frame, unique_evidence(pooled + about))
    retrieved.safety = safety
    retrieved.floor += [FloorLine(e, tuple(book_lines(e.text)), True, False) for e in about]
    return retrieved


# The book's other "used for" text: a drug's dose paragraphs headed by what they treat ("Dự
# phòng bệnh võng mạc … ở trẻ sơ sinh thiếu tháng …") and its pharmacology ("Alfuzosin cũng
# đã được sử dụng làm thông tắc sỏi niệu quản …").
_ALSO_USED_FOR = (SectionKey.LIEU_LUONG_VA_CACH_DUNG, SectionKey.DUOC_LY_VA_CO_CHE_TAC_DUNG)


# Its best plain-ranked paragraphs read for it.
BETTER_AMONG = 3


def _said_better(listed: list[Evidence], question: str) -> list[Evidence]:
    """The first drug's paragraph of its other "used for" text that says the question's
    situation more specifically (its rare words and pairs) than its indication listed."""
    first = listed[0].drug_id
    situation = situation_of(question)
    said = max(specificity(e.text, situation) for e in listed if e.drug_id == first)
    ranked = ranked_evidence(question, [first], _ALSO_USED_FOR, k=BETTER_AMONG)
    best = max(ranked, key=lambda e: specificity(e.text, situation), default=None)
    return (
        [best] if best and specificity(best.text, situation) > said and best not in listed else []
    )


# The sections a question asked again of the drug found is answered from: where a pharmacist
# looks, but the indications the list already shows (and the ADR management beside them).
_ABOUT_SECTIONS = (
    *(k for k in SITUATION_SECTIONS if k != SectionKey.CHI_DINH),
    SectionKey.HUONG_DAN_CACH_XU_TRI_ADR,
)


_HOW_IT_WORKS = (
    "co che",
    "tac dung ra sao",
    "tac dung the nao",
    "tac dung nhu the nao",
    "hoat dong",
)
# Paragraphs shown for it: on 16 such questions a helper wrote from other drugs, the answer
# was in view in 1 before, 6 with the first paragraph, 10 with the first three (visible median
# 735 -> 1,810 characters).
ABOUT = 3


def _about_the_first(frame: QueryFrame, question: str) -> list[Evidence]:
    """Asked again of the drug found ("… Nếu tiêm xong mà chậm truyền thì xử lý sao?"): the
    first drug's best paragraphs (not its indications) the plain ranked search finds for the whole
    question and what is asked again, when it says the question's situation (a rare word or
    pair of it)."""
    if not (frame.asks_of_found and frame.drugs):
        return []
    first = frame.drugs[0]
    # How it works asked ("nó tác dụng ra sao?"): its pharmacology too.
    how = prints_phrase(frame.asks_of_found, _HOW_IT_WORKS)
    sections = [*_ABOUT_SECTIONS, *([SectionKey.DUOC_LY_VA_CO_CHE_TAC_DUNG] if how else [])]
    # Its words counted twice: what is asked of the drug, in the story's words.
    best = ranked_evidence(f"{question} {frame.asks_of_found}", [first], sections, k=ABOUT)
    situation = situation_of(question, [first])
    # Its pharmacology answers how it works, whatever words of the story it says.
    mechanism = SectionKey.DUOC_LY_VA_CO_CHE_TAC_DUNG if how else None
    return [e for e in best if e.section_key == mechanism or names_situation(e.text, situation)]


def drugs_of_class_for_condition(frame: QueryFrame, question: str) -> Retrieved:
    """ "Thuốc chống động kinh nào có chỉ định cho loạn nhịp do digitalis?": the which-drug
    search kept to the class's drugs (`frame.among`), else those drugs' indications ranked
    by the question's words; the story's drugs (`frame.companions`, a digoxin poisoning) keep
    their lines naming the drugs found and, in a poisoning, their overdose section."""
    found = drugs_for_condition(frame, question)
    kept = [e for e in found.evidence if e.drug_id in frame.among]
    if not kept:
        ranked = ranked_evidence(question, frame.among, [SectionKey.CHI_DINH], k=3)
        kept = [e for e in ranked if says_specifically(e.text, question)][:1]
    if not kept:
        return Retrieved(frame, [], Outcome.ABSTAIN, Reason.NO_INDICATION_MATCH)
    listed = replace(frame, drugs=tuple(dict.fromkeys(e.drug_id for e in kept)))
    safety = _safety_for(listed)
    better = _said_better(kept, question)
    retrieved = from_decision(
        listed,
        unique_evidence(
            kept + [e for f in safety for e in f.evidence[:SAFETY_HITS_PER_FACET]] + better
        ),
    )
    retrieved.safety = safety
    retrieved.floor += [FloorLine(e, tuple(book_lines(e.text)), True, False) for e in better]
    if frame.companions:
        retrieved.floor += companion_floor(frame.companions, listed.drugs)
        if frame.red_flag in (RedFlag.Kind.POISONING, RedFlag.Kind.SELF_HARM):
            situation = situation_of(question, frame.companions)
            for drug_id in frame.companions:
                retrieved.floor += overdose_floor(drug_id, situation)
    return retrieved


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
