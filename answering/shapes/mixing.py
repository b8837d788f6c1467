"""A drug mixed with a fluid or another drug, in a bag, a syringe or a line ("pha loãng
amphotericin B bằng NaCl 0,9% được không?", "ampicilin với gentamicin rút chung 1 bơm tiêm",
"aciclovir chạy chung đường với truyền máu"): the book's sentences naming what is mixed —
Tương kỵ's first, a prohibition ("không được pha với …") before the rest — then Tương kỵ
itself. For two drugs both are answered, each one's lines naming the other."""

from collections.abc import Sequence
from dataclasses import replace

from answering.leads import lead_sentences
from answering.reading import Reading, condition_words, without_names
from answering.results import Citation
from answering.shapes.base import Candidate, Shape, candidate
from answering.units import units
from corpus.sections import SectionKey
from corpus.text import folded_phrase, prints_phrase
from retrieval.classes import class_words
from retrieval.frame import QueryFrame, TurnType
from retrieval.mixing import MAKING_UP, MIXING_SECTIONS, fluids_in, mixing
from retrieval.pairs import names_printed_for
from retrieval.situations import ROUTE_PHRASES
from retrieval.ward_asks import MIXING

NAME = "mixing"
# Above the interaction reading (55/45): two drugs in one syringe is a mixing question first;
# above the dose (40): "pha loãng bằng NaCl được không" is not "how much".
PRIOR = 56
LEAD_LINES = 4
_ASKED = frozenset(folded_phrase(p) for p in MIXING)
_FORBIDS = ("khong duoc", "khong nen", "khong tron", "khong pha", "tranh", "tuong ky")
# A short Tương kỵ section (characters) stays in view whole under the lead.
SHORT_SECTION = 700


def recognise(reading: Reading) -> list[Candidate]:
    if not reading.drugs or len(reading.drugs) > 2:
        return []
    # Matched with the drugs' names too and without them ("pha Rocephin bằng Ringer lactat").
    bare = without_names(reading.question, reading.resolution)
    if not (prints_phrase(reading.question, _ASKED) or prints_phrase(bare, _ASKED)):
        return []
    if reading.section == SectionKey.DO_ON_DINH_VA_BAO_QUAN:
        return []  # "đã pha với nước cất, để được bao lâu?" asks the in-use time
    two = len(reading.drugs) == 2
    # "pha loãng thế nào" with nothing named asks how the book makes it up: its words lead.
    frame = replace(
        reading.frame,
        turn_type=TurnType.INTERACTION if two else TurnType.DRUG_ATTRIBUTE,
        attribute=SectionKey.TUONG_KY,
        condition=condition_words(reading.question, reading.names) or None,
        relation=None,
    )
    return [candidate(NAME, PRIOR, frame)]


def _mixed(frame: QueryFrame, drug_id: str) -> list[str]:
    """What the question mixes `drug_id` with, as the book prints it: the fluids named, the
    other drug by its names and class words; with nothing named, the book's words for making
    a drug up ("pha loãng", "hòa tan")."""
    said = fluids_in(frame.standalone_query or "")
    for other in (d for d in frame.drugs if d != drug_id):
        said += [folded_phrase(n) for n in names_printed_for(other)]
        said += [folded_phrase(w) for _, w in class_words(other)]
    return [p for p in said if p] or list(MAKING_UP)


def lead(
    frame: QueryFrame, citations: Sequence[Citation], in_focus: Sequence[Citation] = ()
) -> list[tuple[str, Citation]]:
    order: dict[str, int] = {key: n for n, key in enumerate(MIXING_SECTIONS)}
    route = [folded_phrase(w) for w in ROUTE_PHRASES.get(frame.route or "", ())]
    scored: list[tuple[tuple[bool, int, bool, int], int, str, Citation]] = []
    for c in citations:
        if c.section_key not in order or c.quarantined or c.text.lstrip().startswith("|"):
            continue
        said = _mixed(frame, c.drug_id)
        for n, u in enumerate(units(c.text)):
            if prints_phrase(u.bare, said):
                rank = (
                    not prints_phrase(u.text, route) if route else False,
                    order[c.section_key],
                    not prints_phrase(u.bare, _FORBIDS),
                    n,
                )
                scored.append((rank, len(scored), u.text, c))
    scored.sort(key=lambda s: s[:2])
    lines = [(text, c) for *_, text, c in scored[:LEAD_LINES]]
    return lines or lead_sentences(frame, citations, in_focus)


def kept(frame: QueryFrame, citations: Sequence[Citation]) -> set[int]:
    """A short Tương kỵ section stays in view whole: what else it must not meet."""
    return {
        c.chunk_id
        for c in citations
        if c.section_key == SectionKey.TUONG_KY and len(c.text) <= SHORT_SECTION
    }


SHAPE: Shape = Shape(NAME, recognise, mixing, lead, kept=kept)
