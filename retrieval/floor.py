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

from collections.abc import Sequence
from dataclasses import dataclass

from retrieval.evidence import Evidence
from retrieval.queries import find_by_section
from retrieval.ranked import Situation, coverage, names_situation, ranked_evidence, situation_of

# A contraindication section up to this long is shown whole (issue 18: ~600 characters).
SHORT_SECTION = 600
# Sections whose lines naming the situation join the contraindications in the floor: the
# cautions always, pregnancy and breast-feeding when the patient is pregnant or nursing.
CAUTION_SECTIONS = ("than_trong",)
# Caution lines shown per drug (the best-ranked paragraphs' lines saying the situation).
CAUTION_LINES = 2
# The ranked paragraph joins the view when it covers at least this share of the question's
# informative words, and this much more than the view does.
RANKED_COVERAGE = 0.5
RANKED_MARGIN = 0.25


@dataclass(frozen=True)
class FloorLine:
    """Some lines of one paragraph shown in view (all of it when `whole`)."""

    evidence: Evidence
    lines: tuple[str, ...]
    whole: bool
    names_situation: bool


def book_lines(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n") if line.strip()]


def _lines_naming(evidence: Evidence, situation: Situation) -> list[str]:
    return [line for line in book_lines(evidence.text) if names_situation(line, situation)]


def safety_floor(
    drug_ids: Sequence[str], situation: Situation, extra_sections: Sequence[str] = ()
) -> list[FloorLine]:
    """Per drug, its contraindications (short: whole; long: the lines saying the situation),
    then its caution / pregnancy / breast-feeding lines saying it."""
    floor: list[FloorLine] = []
    for drug_id in drug_ids:
        contraindications = find_by_section(drug_id, "chong_chi_dinh")
        short = sum(len(e.text) for e in contraindications) <= SHORT_SECTION
        for e in contraindications:
            naming = _lines_naming(e, situation)
            if short:
                floor.append(FloorLine(e, tuple(book_lines(e.text)), True, bool(naming)))
            elif naming:
                floor.append(FloorLine(e, tuple(naming), False, True))
        if not situation.weights:
            continue
        query = " ".join([*situation.weights, *(p.replace("_", " ") for p in situation.pairs)])
        left = CAUTION_LINES
        sections = [*CAUTION_SECTIONS, *extra_sections]
        for e in ranked_evidence(query, [drug_id], sections, k=3):
            naming = _lines_naming(e, situation)[:left]
            if naming:
                floor.append(FloorLine(e, tuple(naming), False, True))
                left -= len(naming)
            if left <= 0:
                break
    return floor


def named_anywhere(drug_id: str, situation: str, names: Sequence[str]) -> list[Evidence]:
    """The monograph's paragraphs saying any informative word of the situation, best first:
    empty only when the book, not the phrase search, is silent."""
    told = situation_of(situation, names)
    if not told.weights:
        return []
    found = ranked_evidence(situation, [drug_id], k=3)
    return [e for e in found if coverage(e.text, told) > 0]
