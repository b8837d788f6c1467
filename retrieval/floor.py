"""What every answer keeps in view whatever reading won (issues 17 and 18).

- The safety floor: a question asking whether a drug may be given ("… được không", "có sao
  không") shows each named drug's contraindications — all of them when the section is short,
  else the lines that say the situation's informative words first — then the caution,
  pregnancy and breast-feeding lines that say them.
- The ranked floor (shown by `answering.floors`): the paragraph plain BM25 ranks first over
  the named drugs, when it says more of the question's informative words than the view.
- The absence test: the book is said not to name a situation only when no paragraph of the
  monograph says any of its informative words.

Lines are the book's own lines (a paragraph split at its line breaks), quoted verbatim.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from corpus.sections import PAIR_SECTIONS, SectionKey
from corpus.text import folded_phrase
from retrieval.bands import clcr_holds
from retrieval.classes import class_words
from retrieval.evidence import Evidence
from retrieval.labs import lines_for_labs
from retrieval.pairs import names_printed_for, spelt_otherwise, unloaded_names
from retrieval.queries import (
    _chunks,
    _evidence,
    find_by_section,
    find_condition_in_sections,
)
from retrieval.question_words import Situation, coverage, names_situation, situation_of, specificity
from retrieval.ranked import ranked_evidence
from retrieval.specific import said_specifically
from retrieval.ward_cues import GIVEN_BY_MISTAKE

# A contraindication section up to this long is shown whole (issue 18: ~600 characters).
SHORT_SECTION = 600
# Sections whose lines naming the situation join the contraindications in the floor: the
# cautions always, pregnancy and breast-feeding when the patient is pregnant or nursing.
CAUTION_SECTIONS = (SectionKey.THAN_TRONG,)
# Caution lines shown per drug (the best-ranked paragraphs' lines saying the situation).
CAUTION_LINES = 2
# The ranked paragraph joins the view when it covers at least this share of the question's
# informative words, and this much more than the view does.
RANKED_COVERAGE = 0.3
RANKED_MARGIN = 0.15
# A contraindication the book prints among the doses ("Chống chỉ định trong trường hợp viêm
# tai giữa thủng nhĩ", "Cũng không dùng các chế phẩm này cho những người bệnh bị đái tháo
# đường"): a dose line that forbids, and says the situation, joins the floor.
FORBIDS = (
    "chống chỉ định",
    "không dùng",
    "không được dùng",
    "không nên dùng",
    "tránh dùng",
    "không được tiêm",
    "không được bôi",
    "không bôi",
    "không nhỏ",
)
DOSE_FORBIDDING_LINES = 2
# A dose given by mistake or too much, however the question is asked ("bơm nhầm 3 ống morphin
# … cho về phòng được chưa", "pha nhầm insulin gấp 10 lần … theo dõi gì").
MISTAKE_WORDS = ("quá liều", "ngộ độc", *GIVEN_BY_MISTAKE)
OVERDOSE_LINES = 2


@dataclass(frozen=True)
class FloorLine:
    """Some lines of one paragraph shown in view (all of it when `whole`)."""

    evidence: Evidence
    lines: tuple[str, ...]
    whole: bool
    names_situation: bool
    # A section whose lines naming the situation lead the card (the dose lines of the
    # population asked about); contraindication lines naming it always lead.
    leads_in: str = SectionKey.CHONG_CHI_DINH
    # The book's words the lines were chosen for: when the view already says them, the lines
    # follow it instead of leading ("Người cao tuổi: …" already leads a digoxin answer).
    says: tuple[str, ...] = ()
    # The row of the patient's own value ("Clcr 40 - 49 ml/phút: 3,3 mg" for Clcr 45): leads
    # even when its paragraph is already in view.
    first: bool = False
    # The drug (or the name as typed, for one with no monograph here) the lines name.
    names: str = ""


def book_lines(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n") if line.strip()]


def lines_naming(evidence: Evidence, situation: Situation) -> list[str]:
    """The paragraph's lines that say the situation (a rare word or pair of it)."""
    return [line for line in book_lines(evidence.text) if names_situation(line, situation)]


def safety_floor(
    drug_ids: Sequence[str], situation: Situation, extra_sections: Sequence[str] = ()
) -> list[FloorLine]:
    """Per drug, its contraindications (short, or none saying the situation: whole; long:
    the lines saying it), then its caution / pregnancy / breast-feeding lines saying it."""
    floor: list[FloorLine] = []
    for drug_id in drug_ids:
        contraindications = find_by_section(drug_id, SectionKey.CHONG_CHI_DINH)
        named = [lines_naming(e, situation) for e in contraindications]
        # A long section none of whose lines says the situation in its words is shown whole:
        # the book may say it otherwise ("Loạn năng giáp" for a patient with Basedow), and
        # what the patient must not be given is checked by the pharmacist, never guessed.
        whole = sum(len(e.text) for e in contraindications) <= SHORT_SECTION or not any(named)
        for e, lines in zip(contraindications, named, strict=True):
            if whole:
                floor.append(FloorLine(e, tuple(book_lines(e.text)), True, bool(lines)))
            elif lines:
                floor.append(FloorLine(e, tuple(lines), False, True))
        if not situation.weights:
            continue
        # The pairs in a fixed order: the query's bigrams cross them, so a set's hash order
        # changed which caution paragraph ranked first from one process to the next.
        pairs = sorted(situation.pairs)
        query = " ".join([*situation.weights, *(p.replace("_", " ") for p in pairs)])
        left = CAUTION_LINES
        sections = [*CAUTION_SECTIONS, *extra_sections]
        for e in ranked_evidence(query, [drug_id], sections, k=3):
            naming = lines_naming(e, situation)[:left]
            if naming:
                floor.append(FloorLine(e, tuple(naming), False, True))
                left -= len(naming)
            if left <= 0:
                break
        forbidding = [
            (e, line)
            for e in find_by_section(drug_id, SectionKey.LIEU_LUONG_VA_CACH_DUNG)
            for line in lines_naming(e, situation)
            if says_any(line, FORBIDS)
        ]
        forbidding.sort(key=lambda found: -specificity(found[1], situation))
        floor += [
            FloorLine(e, (line,), False, True) for e, line in forbidding[:DOSE_FORBIDDING_LINES]
        ]
        floor += _indication_lines(drug_id, situation)
    return floor


# Indication lines shown per drug, under its safety lines; a line saying this share of the
# situation's words (every one: "Hội chứng Parkinson." for "BN Parkinson 70t") says it.
INDICATION_LINES = 1
SAID_ALL = 0.99


def _indication_lines(drug_id: str, situation: Situation) -> list[FloorLine]:
    """The drug's indication line saying the patient's situation specifically ("Bé 3 tuổi
    Kawasaki, cho aspirin được không?": "… chỉ định trong điều trị hội chứng Kawasaki"),
    under the contraindications: whether it may be given is also what it is given for."""
    # Said by most of the situation's words but the numbers ("70t", "16kg"): a quantity
    # of the patient is no word of the indication.
    told = {w: idf for w, idf in situation.weights.items() if not w[0].isdigit()}
    condition = replace(situation, weights=told)
    for e in find_by_section(drug_id, SectionKey.CHI_DINH):
        naming = [
            line
            for line in book_lines(e.text)
            if said_specifically(line, situation, condition)
            or coverage(line, condition) >= SAID_ALL
        ]
        if naming:
            return [FloorLine(e, tuple(naming[:INDICATION_LINES]), False, True)]
    return []


# Lines shown per ordered pair of drugs named together (looked for in PAIR_SECTIONS).
PAIR_LINES = 3


def pair_floor(
    drug_ids: Sequence[str], unloaded: Sequence[str] = (), *, indications: bool = True
) -> list[FloorLine]:
    """For every two drugs named together, each one's lines naming the other — in Tương tác
    thuốc, Chống chỉ định, Thận trọng, Tương kỵ, Độ ổn định; by the names the book prints for
    it, then the class words it uses ("coumarin" for warfarin) — both directions: a drug named
    is never dropped (issue 18). A drug named that has no monograph here ("tetracyclin",
    "adrenalin") is looked for in the others' lines by its name and the book index's.
    One query per drug; the names are matched in its lines."""
    names = {
        d: [*names_printed_for(d), *dict.fromkeys(word for _, word in class_words(d))]
        for d in drug_ids
    }
    names.update({typed: unloaded_names(typed) for typed in unloaded})
    spelt = {typed: spelt_otherwise(typed) for typed in unloaded}
    floor: list[FloorLine] = []
    for drug_id in drug_ids:
        chunks = _chunks().filter(
            section__drug__drug_id=drug_id, section__section_key__in=PAIR_SECTIONS
        )
        order = {key: n for n, key in enumerate(PAIR_SECTIONS)}
        found = sorted(chunks, key=lambda c: (order[c.section.section_key], c.part_index))
        for other in (d for d in names if d != drug_id):
            # The book's other spelling of a name it lacks, only where this monograph does
            # not print the name as typed ("sucinylcholin" in dexpanthenol's lines).
            for said in (names[other], spelt.get(other, [])):
                left = PAIR_LINES
                for chunk in found:
                    # An indication names only a drug with a monograph ("lupus", a word of
                    # the book no monograph answers for, is a disease there), and only of
                    # drugs the question named (a which-drug list's are the book's, no pair).
                    if chunk.section.section_key == SectionKey.CHI_DINH and (
                        other in unloaded or not indications
                    ):
                        continue
                    lines = [line for line in book_lines(chunk.text) if says_any(line, said)]
                    if lines and left > 0:
                        shown = tuple(lines[:left])
                        floor.append(FloorLine(_evidence(chunk), shown, False, True, names=other))
                        left -= len(lines[:left])
                if left < PAIR_LINES:
                    break
    return floor


# Where an antidote's monograph says how it is given for the poison ("Truyền NAC …").
COMPANION_SECTIONS = (SectionKey.LIEU_LUONG_VA_CACH_DUNG, SectionKey.CHI_DINH)


def overdose_floor(drug_id: str, situation: Situation) -> list[FloorLine]:
    """A dose given by mistake, asked of another section: the overdose section's opening
    lines, and its lines saying the situation ("theo dõi … sau liều naloxon cuối cùng")."""
    paragraphs = find_by_section(drug_id, SectionKey.QUA_LIEU_VA_XU_TRI)
    if not paragraphs:
        return []
    opening = book_lines(paragraphs[0].text)[:OVERDOSE_LINES]
    floor = [FloorLine(paragraphs[0], tuple(opening), False, True)]
    naming = [
        (e, line) for e in paragraphs for line in lines_naming(e, situation) if line not in opening
    ]
    naming.sort(key=lambda found: -specificity(found[1], situation))
    return floor + [FloorLine(e, (line,), False, True) for e, line in naming[:OVERDOSE_LINES]]


def companion_floor(companions: Sequence[str], subjects: Sequence[str]) -> list[FloorLine]:
    """Each companion drug's lines naming the subject (an antidote's regimen for the poison,
    "Liều dùng trong quá liều paracetamol …"): the drug named is shown, not dropped."""
    floor: list[FloorLine] = []
    for companion in companions:
        chunks = _chunks().filter(
            section__drug__drug_id=companion, section__section_key__in=COMPANION_SECTIONS
        )
        for subject in subjects:
            names = names_printed_for(subject)
            for chunk in sorted(chunks, key=lambda c: (c.section.order, c.part_index)):
                lines = _naming_with_what_follows(book_lines(chunk.text), names)
                if lines:
                    floor.append(
                        FloorLine(_evidence(chunk), tuple(lines[:PAIR_LINES]), False, True)
                    )
    return floor


def _naming_with_what_follows(lines: list[str], names: Sequence[str]) -> list[str]:
    """The lines naming one of the names; one that ends in ":" heads the regimen below it, so
    the lines under it come too (up to PAIR_LINES)."""
    out: list[str] = []
    for n, line in enumerate(lines):
        if says_any(line, names):
            out.append(line)
            if line.rstrip().endswith(":"):
                out += lines[n + 1 : n + 1 + PAIR_LINES]
    return list(dict.fromkeys(out))


# Several Clcr rows printed on one line ("Clcr 50 - 60 ml/phút: 3,5 mg. Clcr 40 - 49 …").
_CLCR_ROWS = re.compile(r"(?<=\.)\s+(?=cl\s?cr)", re.IGNORECASE)


def population_dose_floor(
    drug_ids: Sequence[str], terms: Sequence[str], clcr: float | None = None
) -> list[FloorLine]:
    """The dose lines naming the population asked about ("Người cao tuổi: 0,5 - 4 mg/ngày",
    the renal adjustment), for each drug: they lead a dose answer for that population."""
    floor: list[FloorLine] = []
    for drug_id in drug_ids:
        for term in terms:
            for e in find_condition_in_sections(
                drug_id, term, [SectionKey.LIEU_LUONG_VA_CACH_DUNG]
            ):
                lines = [line for line in book_lines(e.text) if says_any(line, [term])]
                rows = [r for x in book_lines(e.text) for r in _CLCR_ROWS.split(x)]
                held = [x for x in rows if clcr is not None and clcr_holds(x, clcr)]
                if held:
                    floor.append(
                        FloorLine(e, tuple(held[:2]), False, True, e.section_key, first=True)
                    )
                if lines:
                    floor.append(
                        FloorLine(e, tuple(lines[:2]), False, True, e.section_key, tuple(terms))
                    )
    return floor


# Where a lab value's line is looked for when the asked section prints none: where a
# pharmacist reads what to do at that value.
LAB_SECTIONS = (
    SectionKey.CHONG_CHI_DINH,
    SectionKey.QUA_LIEU_VA_XU_TRI,
    SectionKey.LIEU_LUONG_VA_CACH_DUNG,
    SectionKey.THAN_TRONG,
    SectionKey.HUONG_DAN_CACH_XU_TRI_ADR,
)
LAB_LINES = 2
# Sections whose lines for the value are shown, in that order: the overdose section's "Nếu
# INR > 5 nhưng < 9 …" and the dose section's "INR trên 5 có nguy cơ cao gây chảy máu mạnh".
LAB_SECTIONS_SHOWN = 2


def lab_floor(
    drug_ids: Sequence[str], labs: Sequence[tuple[str, float]], asked: str | None
) -> list[FloorLine]:
    """For each drug, the lines whose printed range holds the question's lab value ("Nếu INR
    > 5 nhưng < 9 …" for INR 9), the asked section's first; they lead there."""
    floor: list[FloorLine] = []
    for drug_id in drug_ids:
        shown = 0
        order = [asked] if asked else []
        order += [key for key in LAB_SECTIONS if key != asked]
        for key in order:
            found = [
                FloorLine(e, (line,), False, True, key, first=key == asked)
                for e in find_by_section(drug_id, key)
                for line in lines_for_labs(book_lines(e.text), labs, LAB_LINES)
            ]
            if found:
                floor += found[:LAB_LINES]
                shown += 1
                if shown == LAB_SECTIONS_SHOWN:
                    break
    return floor


def says_any(text: str, names: Sequence[str]) -> bool:
    folded = f" {folded_phrase(text)} "
    return any(f" {folded_phrase(n)} " in folded for n in names if folded_phrase(n))


def named_anywhere(drug_id: str, situation: str, names: Sequence[str]) -> list[Evidence]:
    """The monograph's paragraphs saying any informative word of the situation, best first:
    empty only when the book, not the phrase search, is silent."""
    told = situation_of(situation, names)
    if not told.weights:
        return []
    found = ranked_evidence(situation, [drug_id], k=3)
    return [e for e in found if coverage(e.text, told) > 0]
