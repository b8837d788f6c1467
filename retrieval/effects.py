"""A symptom the patient has since the drug, asked whether the drug caused it or what to do
("uống captopril 3 tuần, mất vị giác, có phải do thuốc? bao lâu thì hết"): the book answers
in its ADR management (what to do, how long it lasts) and its ADR list (that it happens).
The paragraphs of both that name the symptom come first, management first; then the section
asked for, as the section search finds it."""

import re
from dataclasses import replace

from corpus.sections import SectionKey
from corpus.text import fold, folded_phrase, typed_words, words
from retrieval.evidence import Evidence, Reason
from retrieval.frame import QueryFrame
from retrieval.question_words import Situation, coverage, names_situation, situation_of
from retrieval.ranked import section_evidence
from retrieval.retrieved import Retrieved, ahead_of
from retrieval.searches import section
from retrieval.situations import condition_phrases
from retrieval.ward_asks import NAMED_EFFECTS

# Where the book answers a symptom: what to do first, then that it happens.
SYMPTOM_SECTIONS = (SectionKey.HUONG_DAN_CACH_XU_TRI_ADR, SectionKey.TAC_DUNG_KHONG_MONG_MUON)
# Paragraphs naming the symptom kept ahead, per section.
NAMING_PARAGRAPHS = 2
# An ADR management section this short (characters) is read whole for any symptom: what to
# do is often told around the symptom's sentence or in the book's other words for it ("đau
# ngực nhiều hơn" is its "đau thắt ngực tăng lên"). Half of the book's are under 340, three
# in four under 800.
SHORT_MANAGEMENT = 900


def symptom_of(frame: QueryFrame) -> Situation:
    """The symptom in the book's words (its synonyms' too: "sưng môi" is "phù mạch"), each
    word as typed (typed with other diacritics it is another word: "khàn tiếng" is not "ho
    khan"), without the drugs' names."""
    condition = frame.condition or ""
    told = " ".join([condition, *condition_phrases(condition)])
    said = situation_of(told, exclude=[d.replace("_", " ") for d in frame.drugs])
    # An effect the book names by a phrase of common words ("hội chứng người đỏ") is said by
    # the phrase's own pairs.
    padded = f" {condition} "
    named = [p.split() for p in map(folded_phrase, NAMED_EFFECTS) if f" {p} " in padded]
    pairs = {f"{a}_{b}" for ws in named for a, b in zip(ws, ws[1:], strict=False)}
    typed = _typed(frame.standalone_query or "", said.weights)
    return replace(said, pairs=said.pairs | pairs, typed=typed)


def _typed(question: str, weights: dict[str, float]) -> dict[str, str]:
    """How the question typed each folded word that carries diacritics, where it typed it
    one way only."""
    folded, kept = words(question), typed_words(question)
    if len(folded) != len(kept):
        return {}
    seen: dict[str, set[str]] = {}
    for f, k in zip(folded, kept, strict=True):
        if f in weights:
            seen.setdefault(f, set()).add(k)
    return {f: next(iter(ks)) for f, ks in seen.items() if len(ks) == 1 and f not in ks}


def caused_by(drug_id: str, frame: QueryFrame) -> bool:
    """Whether the drug's ADR management, or its common ADRs ("Thường gặp"), name the frame's
    condition ("đang dùng morphin bị táo bón": the patient's drug is the likely cause). A
    rare one ("viêm phổi" among metformin's "Ít gặp") is more likely the patient's own."""
    said = symptom_of(frame)
    for e in naming_paragraphs(drug_id, said):
        if e.section_key == SectionKey.HUONG_DAN_CACH_XU_TRI_ADR:
            return True
        band = fold(e.label)
        for line in e.text.split("\n"):
            heading = _FREQUENCY.search(fold(line))
            band = heading.group(0) if heading else band
            if band.startswith("thuong gap") and names_situation(line, said):
                return True
    return False


# The ADR section's frequency headings ("*Thường gặp, ADR > 1/100*", "Ít gặp", "Hiếm gặp").
_FREQUENCY = re.compile(r"(?:thuong gap|it gap|hiem gap|rat hiem gap)(?=[ ,*:]|$)")


def naming_paragraphs(drug_id: str, symptom: Situation) -> list[Evidence]:
    """Each symptom section's paragraphs that name the symptom (a rare word or pair of it,
    not a shared common word), those saying more of it first."""
    found: list[Evidence] = []
    for key in SYMPTOM_SECTIONS:
        naming = [e for e in section_evidence(drug_id, key) if names_situation(e.text, symptom)]
        naming.sort(key=lambda e: -coverage(e.text, symptom))
        found += naming[:NAMING_PARAGRAPHS]
    return found


def symptom(frame: QueryFrame, question: str) -> Retrieved:
    """The paragraphs naming the symptom, then the section search; with none naming it, the
    section search alone (quoted as asked, never a "không nêu": the book may say it in other
    words)."""
    asked = section(frame, question)
    if asked.reason == Reason.SECTION_NOT_IN_MONOGRAPH:
        # No ADR management printed (amlodipin): the ADR list answers, never an abstention.
        other = next(k for k in SYMPTOM_SECTIONS if k != frame.attribute)
        asked = section(replace(frame, attribute=other), question)
    if not frame.drugs:
        return asked
    named = naming_paragraphs(frame.drugs[0], symptom_of(frame))
    return ahead_of(asked, named + short_management(frame.drugs[0]))


def short_management(drug_id: str) -> list[Evidence]:
    """The drug's ADR management, whole, when it is short; else nothing."""
    managing = section_evidence(drug_id, SectionKey.HUONG_DAN_CACH_XU_TRI_ADR)
    return managing if sum(len(e.text) for e in managing) <= SHORT_MANAGEMENT else []
