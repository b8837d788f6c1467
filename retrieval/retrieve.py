"""From a frame to the evidence that answers it: the reading's search, then the floors every
answer keeps whatever reading won (issue 17/18): the contraindications of a "may it be given"
question, each drug's lines naming the other, an antidote's lines, a population's dose lines,
the best plain-ranked paragraphs.

The frame is read, never changed: what retrieval decided comes back as `Retrieved.frame`.
"""

from dataclasses import replace

from corpus.sections import PATIENT_SECTIONS, SITUATION_SECTIONS, SectionKey
from retrieval.antidotes import antidotes_for
from retrieval.catalog import get_resolver
from retrieval.classes import classes_said
from retrieval.evidence import Outcome, Reason, unique_evidence
from retrieval.floor import (
    MISTAKE_WORDS,
    companion_floor,
    lab_floor,
    named_anywhere,
    overdose_floor,
    pair_floor,
    population_dose_floor,
    safety_floor,
    says_any,
)
from retrieval.frame import QueryFrame, TurnType
from retrieval.interference import asks_interference, interference_floor
from retrieval.patient_floor import patient_floor
from retrieval.queries import find_condition_in_sections, own_names
from retrieval.question_words import situation_of
from retrieval.ranked import ranked_evidence
from retrieval.retrieved import Retrieved, sub_phrases
from retrieval.searches import Search, search_for
from retrieval.situations import (
    DIALYSIS_TERMS,
    DIALYSIS_WORDS,
    POPULATION_PHRASES,
    POPULATION_TERMS,
    trimester_terms,
    with_book_phrases,
    with_synonyms,
)

__all__ = ["SITUATION_SECTIONS", "Retrieved", "retrieve_for_frame", "sub_phrases"]

# Adult populations whose own dose lines lead a dose answer for them.
DOSE_POPULATIONS = ("nguoi_cao_tuoi", "suy_than", "suy_gan")


def retrieve_for_frame(frame: QueryFrame, question: str, search: Search | None = None) -> Retrieved:
    """The evidence of the frame's reading (its shape's search, else its turn type's), with
    the floors every answer keeps."""
    retrieved = (search or search_for(frame))(frame, question)
    drugs = retrieved.frame.drugs
    if retrieved.decision not in (Outcome.ANSWER, Outcome.VERIFY_PDF) or not drugs:
        return retrieved
    if retrieved.frame.turn_type == TurnType.CONDITION_TO_DRUG:
        return retrieved
    names = [name for d in drugs for name in own_names(d)] + list(_typed_names(question))
    retrieved.situation = situation_of(question, names)
    asked = retrieved.frame.population or ""  # the patient's population, for the floors
    retrieved.ranked = ranked_evidence(question, drugs, k=2)
    if retrieved.frame.attribute:
        # And the asked section's best paragraph: the dose for the indication the question
        # names ("COPD đợt cấp … uống mấy ngày") ranks first among the dose paragraphs.
        asked_section = [retrieved.frame.attribute]
        retrieved.ranked = unique_evidence(
            retrieved.ranked + ranked_evidence(question, drugs, asked_section, k=1)
        )
    if retrieved.reason == Reason.CONDITION_NOT_NAMED_IN_BOOK and retrieved.frame.condition:
        # The phrase search missed; the book is silent only if no paragraph says any of the
        # situation's informative words ("bia rượu" → "không uống rượu" in Tương tác).
        told = retrieved.frame.situation or retrieved.frame.condition  # as typed: "trứng" ≠ "trung"
        # Nor is it if any section prints the phrase or one of the book's others for it
        # ("đau đầu" asked, abacavir's book says "nhức đầu"), whichever words are generic.
        # The patient's population in the book's words too ("chạy thận nhân tạo" is read as a
        # renal patient, and capsaicin's Chỉ định says "do thẩm tách máu").
        told_as = POPULATION_TERMS.get(asked, ()) + POPULATION_PHRASES.get(asked, ())
        near = named_anywhere(drugs[0], told, names) or [
            e
            for p in [*with_synonyms(told), *told_as]
            for e in find_condition_in_sections(drugs[0], p, list(SectionKey))
        ]
        if near:
            retrieved.reason = Reason.CONDITION_NOT_FOUND_AS_TYPED
            retrieved.ranked = unique_evidence(near + retrieved.ranked)
    if (
        retrieved.frame.attribute == SectionKey.QUA_LIEU_VA_XU_TRI
        and len(drugs) == 1
        and not retrieved.frame.companions
    ):
        # "uống 20 viên paracetamol, thuốc giải độc là gì": the antidote the book names in
        # its own indication is shown too, never only the poison's section.
        retrieved.frame = replace(retrieved.frame, companions=antidotes_for(drugs[0]))
    if retrieved.frame.companions:
        retrieved.floor += companion_floor(retrieved.frame.companions, drugs)
    overdose_asked = retrieved.frame.attribute == SectionKey.QUA_LIEU_VA_XU_TRI
    if len(drugs) == 1 and not overdose_asked and says_any(question, MISTAKE_WORDS):
        # "bơm nhầm 3 ống morphin … cho về phòng được chưa": the overdose section is in view
        # whichever section the ask reads as.
        retrieved.floor += overdose_floor(drugs[0], retrieved.situation)
    if drugs and asks_interference(question):
        # "… ceton niệu dương tính, có thể do thuốc làm sai kết quả không?": the lines where
        # the book says a test reads falsely with the drug, in view.
        retrieved.floor += interference_floor(drugs)
    unloaded = tuple(dict.fromkeys(retrieved.frame.not_loaded + retrieved.frame.unknown_drugs))
    if unloaded:
        # A class said beside a drug the book lacks ("đang uống bisoprolol … ngưng thuốc chẹn
        # beta trước bao lâu?") is looked for as that drug is: the lines printing the class.
        unloaded += tuple(c.name for c in classes_said(question) if c.name not in unloaded)
    # The drugs of a list the book contraindicates (or that cause) a condition in are their
    # lines for it, not given together: their interactions with each other ("… enzym ở
    # microsom gan" of "thuốc nào chống chỉ định khi suy gan nặng") would stand in front.
    listed = retrieved.frame.turn_type == TurnType.CONDITION_RELATION and not _typed_names(question)
    if (len(drugs) >= 2 and not listed) or unloaded:
        pairs = pair_floor(drugs, unloaded, indications=retrieved.frame.shape != "which_drug")
        retrieved.floor += pairs
        named = any(line.names in drugs for line in pairs)
        if named and retrieved.reason == Reason.INTERACTION_NOT_NAMED_IN_BOOK:
            # Named outside Tương tác thuốc ("không được phối hợp với aspirin" in Chống chỉ
            # định): the book names the pair, so it is never said not to.
            retrieved.reason = Reason.GROUNDED_EVIDENCE_AVAILABLE
    if retrieved.frame.labs:
        # "INR 9, chảy máu chân răng": the book's lines for that range ("Nếu INR > 5 nhưng < 9
        # …", "Nếu INR > 9, …") are in view, the asked section's first.
        retrieved.floor += lab_floor(drugs, retrieved.frame.labs, retrieved.frame.attribute)
    clcr = retrieved.frame.clcr
    # A creatinine clearance read is a renal patient, whoever else the patient is ("bn 76t,
    # crcl 28"): the renal lines too.
    terms = POPULATION_TERMS.get(asked, ()) if asked in DOSE_POPULATIONS else ()
    if clcr is not None and asked != "suy_than":
        terms += POPULATION_TERMS["suy_than"]
    if says_any(question, DIALYSIS_WORDS):
        terms += DIALYSIS_TERMS  # "lọc máu 3 buổi/tuần": the book's "Thẩm phân máu: …" lines
    if terms and (
        retrieved.frame.attribute == SectionKey.LIEU_LUONG_VA_CACH_DUNG or retrieved.frame.asks_use
    ):
        # "Cụ ông 85t … liều thế nào?": the elderly / renal / hepatic dose lines lead; asked
        # whether it may be given ("crcl 28, dùng fosamax dc ko"), the dose section's line
        # for that patient is part of the answer ("Không khuyến cáo … Clcr < 35 ml/phút").
        retrieved.floor += population_dose_floor(drugs, terms, clcr)
    if retrieved.frame.asks_use:
        # The situation as the book says it: the question, and the book's words for the
        # population it names ("thai phụ" → "thai kỳ", "mang thai").
        terms = POPULATION_TERMS.get(retrieved.frame.population or "", ())
        terms += trimester_terms(retrieved.frame.pregnancy_weeks)
        # With the book's other phrases for what the question says (`CONDITION_SYNONYMS`:
        # "cứng đơ kiểu Parkinson" is its "hội chứng ngoại tháp").
        situation = situation_of(" ".join([with_book_phrases(question), *terms]), names)
        population = retrieved.frame.population
        extra = [PATIENT_SECTIONS[p] for p in [population] if p in PATIENT_SECTIONS]
        retrieved.floor = safety_floor(drugs, situation, extra) + retrieved.floor
    # Pregnant or nursing, whatever was asked: each drug's section for her (the antidote's
    # in a pregnant woman's poisoning, the dose asked for a nursing mother).
    given = dict.fromkeys([*drugs, *retrieved.frame.companions])
    retrieved.floor += patient_floor(list(given), retrieved.frame.population, retrieved.situation)
    return retrieved


def _typed_names(question: str) -> tuple[str, ...]:
    """The words of the question the resolver read as drug names (brands, short forms)."""
    return tuple(phrase for phrase, _ in get_resolver().resolve_detail(question).spans)
