"""A pregnant or nursing patient: each named drug's own section for her in view.

"Thai phụ 28 tuần uống quá liều paracetamol, dùng NAC giải độc có hại cho thai không?" is read
as an overdose (the emergency leads), but what is asked is the antidote in pregnancy: whatever
reading won, every drug the question names shows its Thời kỳ mang thai (Thời kỳ cho con bú)
lines — the whole section when short, else the lines saying the situation, else its first
paragraph (issue 18: unsure, more of the book, never nothing).
"""

from collections.abc import Sequence

from corpus.sections import PATIENT_SECTIONS
from retrieval.floor import SHORT_SECTION, FloorLine, book_lines, lines_naming
from retrieval.queries import find_by_section
from retrieval.question_words import Situation, specificity

# Lines shown per drug from a long section (the most specific to the situation first).
PATIENT_LINES = 2


def patient_floor(
    drug_ids: Sequence[str], population: str | None, situation: Situation
) -> list[FloorLine]:
    section = PATIENT_SECTIONS.get(population or "")
    if section is None:
        return []
    floor: list[FloorLine] = []
    for drug_id in drug_ids:
        paragraphs = [e for e in find_by_section(drug_id, section) if not e.needs_visual_check]
        if not paragraphs:
            continue
        if sum(len(e.text) for e in paragraphs) <= SHORT_SECTION:
            floor += [FloorLine(e, tuple(book_lines(e.text)), True, False) for e in paragraphs]
            continue
        naming = [(e, line) for e in paragraphs for line in lines_naming(e, situation)]
        naming.sort(key=lambda found: -specificity(found[1], situation))
        if not naming:
            first = paragraphs[0]
            floor.append(FloorLine(first, tuple(book_lines(first.text)), True, False))
        floor += [FloorLine(e, (line,), False, False) for e, line in naming[:PATIENT_LINES]]
    return floor
