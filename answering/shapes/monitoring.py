"""What to monitor or test during treatment ("BN dùng Cordarone dài ngày cần theo dõi xét
nghiệm gì về nội tiết?"): the book's sentences telling a monitoring step — in the cautions,
the ADR management or the dose section — those naming what the question names first, those
the book says must be done ("phải", "cần", "nhất thiết") before the rest."""

from collections.abc import Sequence
from dataclasses import replace

from answering.leads import lead_sentences
from answering.reading import Reading, condition_words
from answering.results import Citation
from answering.shapes.base import Candidate, Shape, candidate
from answering.units import units
from corpus.text import folded_phrase
from retrieval.frame import QueryFrame, TurnType
from retrieval.monitoring import (
    asks_levels,
    monitor_sections,
    monitoring,
    says_a_level,
    tells_a_step,
    what_is_monitored,
)
from retrieval.phrases import section_matches
from retrieval.question_words import coverage
from retrieval.ward_asks import MONITORING

NAME = "monitoring"
# Above the adverse shape (32) and the situation readings.
PRIOR = 33
LEAD_LINES = 4
_ASKED = frozenset(folded_phrase(p) for p in MONITORING)
_MUST = ("phai", "can", "nhat thiet", "nen")


def recognise(reading: Reading) -> list[Candidate]:
    if len(reading.drugs) != 1:
        return []
    if not any(m.phrase in _ASKED for m in section_matches(reading.question)):
        return []
    told = condition_words(reading.question, reading.names)
    frame = replace(
        reading.frame, turn_type=TurnType.DRUG_ATTRIBUTE, condition=told or None, relation=None
    )
    return [candidate(NAME, PRIOR, frame)]


def _must(text: str) -> bool:
    padded = f" {folded_phrase(text)} "
    return any(f" {w} " in padded for w in _MUST)


def lead(
    frame: QueryFrame, citations: Sequence[Citation], in_focus: Sequence[Citation] = ()
) -> list[tuple[str, Citation]]:
    said = what_is_monitored(frame)
    levels = asks_levels(frame.standalone_query or "")
    order: dict[str, int] = {key: n for n, key in enumerate(monitor_sections(levels))}
    scored: list[tuple[tuple[bool, float, bool, int, int], int, str, Citation]] = []
    for c in citations:
        if c.section_key not in order or c.quarantined or c.text.lstrip().startswith("|"):
            continue
        for n, u in enumerate(units(c.text)):
            if tells_a_step(u.bare, levels):
                ranged = not (levels and says_a_level(u.bare))  # the range asked, first
                rank = (ranged, -coverage(u.bare, said), not _must(u.bare), order[c.section_key], n)
                scored.append((rank, len(scored), u.text, c))
    scored.sort(key=lambda s: s[:2])
    lines = [(text, c) for *_, text, c in scored[:LEAD_LINES]]
    return lines or lead_sentences(frame, citations, in_focus)


SHAPE: Shape = Shape(NAME, recognise, monitoring, lead)
