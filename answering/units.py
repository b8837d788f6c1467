"""A chunk's units: its sentences and dose bands, each within its paragraph, the paragraph's
label kept in front ("Thuốc uống chống đông máu: … nên paracetamol được ưa dùng hơn …"); a list
of dose bands cut only where the next band begins. The leads are cut from them."""

import re
from collections.abc import Sequence
from dataclasses import dataclass

from answering.grounding import sentences
from answering.ranking import prints_phrase

# A paragraph's own label: a short run before its first colon ("*Trẻ em:*", "Thuốc uống chống
# đông máu:", "Nhiễm N. meningitidis (người lành mang vi khuẩn):").
_LABEL = re.compile(r"^(\*{0,2}[^:\n.;]{2,80}?:\*{0,2})\s+\S")
# Where the next dose band of a list begins: "…: 120 mg; Trẻ em 2 - 4 tuổi: 180 mg; …".
_NEXT_BAND = re.compile(
    r";\s+(?=(?:Trẻ em|Trẻ nhỏ|Trẻ|Sơ sinh|Người lớn|Người cao tuổi|Trên|Dưới)\b[^;:]{0,40}:)"
)


@dataclass(frozen=True)
class Unit:
    text: str  # verbatim from the chunk, or its paragraph label + " … " + a verbatim sentence
    bare: str  # the verbatim sentence (or band) alone


def units(text: str) -> list[Unit]:
    """The chunk's sentences and dose bands, each within its paragraph, label kept."""
    found: list[Unit] = []
    heading = ""  # a paragraph that is only a heading ("*Viêm khớp dạng thấp …:*")
    for paragraph in _paragraphs(text):
        if paragraph.startswith("|"):
            heading = ""
            continue  # a table is shown whole or not at all
        if len(paragraph) <= 120 and re.search(r":\*{0,2}$", paragraph):
            heading = paragraph  # it heads the next paragraph, and is no answer of its own
            continue
        match = _LABEL.match(paragraph)
        label = match.group(1) if match and not re.search(r"\d", match.group(1)) else ""
        if heading:
            label = f"{heading} {label}".strip() if label else heading
        for n, sentence in enumerate(sentences(paragraph)):
            for m, piece in enumerate(_NEXT_BAND.split(sentence)):
                piece = piece.strip()
                if not piece or (len(piece) <= 100 and piece.rstrip("* ").endswith(":")):
                    continue  # a heading alone ("Liều cho trẻ em dưới 6 tuổi:") answers nothing
                # A later sentence carries the paragraph's label, unless it starts a band or
                # a label of its own; a band ("Trẻ em 3 - 6 tháng tuổi:") labels nothing else.
                later = n > 0 or m > 0
                own = _LABEL.match(piece)
                carried = (
                    label
                    and later
                    and (not own or (_is_band(own.group(1)) and _carries_over(label)))
                )
                if heading and n == 0 and m == 0:
                    shown = f"{heading} {piece}"
                else:
                    shown = f"{label} … {piece}" if carried else piece
                found.append(Unit(shown, piece))
        heading = ""
    return found


def _is_band(label: str) -> bool:
    """A label that is a population or age band ("Trẻ em 6 - 12 tuổi:", "Người lớn:")."""
    return bool(re.match(r"\W*(?:trẻ|người|sơ sinh|nhũ nhi|thiếu niên|\d)", label.lower()))


def _carries_over(label: str) -> bool:
    """A route or indication label ("*Uống:*") heads every band of its paragraph; a population
    label ("Người lớn:") does not head the next population's band ("Trẻ em: …")."""
    return not re.search(r"\b(?:trẻ|người|sơ sinh|nhũ nhi|thiếu niên)\b", label.lower())


def _paragraphs(text: str) -> list[str]:
    """The chunk's paragraphs; a break inside a sentence (the extraction's, "cùng với" /
    "amoxicilin sẽ …") joins its two halves again."""
    joined: list[str] = []
    for part in re.split(r"\n\s*\n|\n(?=\s*[-•])", text):
        part = part.strip()
        if not part:
            continue
        if joined and not re.search(r"[.!?:;)…*]$", joined[-1]) and part[0].islower():
            joined[-1] = f"{joined[-1]} {part}"
        else:
            joined.append(part)
    return joined


def said(unit: Unit, phrases: Sequence[str]) -> bool:
    return prints_phrase(unit.bare, phrases)
