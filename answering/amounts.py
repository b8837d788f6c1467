"""The book's amounts, and a written answer's, read alike (issue 20): a number as printed, a
range, its unit and what it is per, its comparator. Grounding compares "6 g/ngày" with
"6 g/ngày", never with the "6" of "4 - 6 giờ". The unit words are the question reader's
(answering/quantities.py, whose module cap this reader would break) and the ones only the book
prints."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from answering.quantities import _UNITS, _alt
from corpus.text import fold, nfc

# The book's amounts (and an answer's), read alike. Digits joined by one space are one number
# (195 runs in the book, all thousands groups; one running into a letter, "P450 3A4", is not).
_SPACES = " \u00a0\u2009\u202f"
NUMBER_RE = re.compile(rf"(?<!\d)\d+(?:[{_SPACES}]\d+(?![^\W\d_]))*(?:[.,]\d+)*")
_BOOK_ONLY = "lan|%|mmol|micromol|meq|microgam|µg|nanogam|ng|dvqt|dv|trieu|l|lit|dl|giot|phut|giay|m2|m²|mmhg|cm|mm|nang|lieu|xit|mol|kcal"  # fmt: skip
_PER_WORDS = "kg|ngay|lan|lieu|gio|h|phut|tuan|thang|nam|m2|m²|dl|l|lit|ml|24 gio|24 h|1,73 m2|1,73 m²"  # fmt: skip
_SPACE = re.compile(f"[{_SPACES}]")
_RANGE_TO = re.compile(r"\s*(?:-|–|—|den|toi)\s*")
_BOOK_UNIT = re.compile(rf"\s*(?P<u>{_alt([*_UNITS, *_BOOK_ONLY.split('|')])})(?![a-z0-9])")
_PER_PART = re.compile(rf"\s*(?:/|(?:moi|mot|trong)\s)\s*(?P<p>{_alt(_PER_WORDS.split('|'))})(?![a-z0-9])")  # fmt: skip
_COMPARATOR = re.compile(r"(?:(?P<s>[<>≤≥])|(?<![a-z])(?P<w>duoi|tren))\s*$")


def numeric_tokens(text: str) -> list[str]:
    """Every number as printed, its thousands separator written as one plain space."""
    return [_SPACE.sub(" ", m) for m in NUMBER_RE.findall(text)]


@dataclass(frozen=True)
class Amount:
    numbers: tuple[str, ...]  # as printed, a range's two ends; never parsed
    unit: str  # folded, with what it is per: "g/ngay", "gio/lan", "mg/kg/24gio"; "" bare
    comparator: str  # "<" (also "dưới"), ">" (also "trên"), "≤", "≥" or ""
    text: str  # as printed, from its comparator

    def holds(self, claimed: Amount) -> bool:
        """Same numbers, unit, per, comparator: "2 lần/ngày" is not "2 - 3 lần/ngày"."""
        return (claimed.numbers, claimed.unit, claimed.comparator) == (self.numbers, self.unit, self.comparator)  # fmt: skip


@functools.lru_cache(maxsize=4096)  # a block is read once per claim sentence that cites it
def read_amounts(text: str) -> tuple[Amount, ...]:
    """The amounts of a text in order; a number inside a unit ("/24 giờ") is not one."""
    typed = nfc(text)  # folded one by one: a character that folds to two keeps its place
    f = "".join(c2 if len(c2 := fold(c)) == 1 else c for c in typed)
    amounts, cursor = [], 0
    for m in NUMBER_RE.finditer(typed):
        if m.start() < cursor:
            continue
        numbers, end, unit = [m.group()], m.end(), ""
        if (to := _RANGE_TO.match(f, end)) and (high := NUMBER_RE.match(typed, to.end())):
            numbers, end = [m.group(), high.group()], high.end()
        while found := (_PER_PART if unit else _BOOK_UNIT).match(f, end):
            unit, end = f"{unit}/{found['p']}" if unit else found["u"], found.end()
        unit = "".join(unit.split())
        begin = max(0, m.start() - 8)
        sign = _COMPARATOR.search(f[begin : m.start()])
        comparator = (sign["s"] or {"duoi": "<", "tren": ">"}[sign["w"]]) if sign else ""
        spaced = tuple(n for number in numbers for n in numeric_tokens(number))
        amounts.append(Amount(spaced, unit, comparator, typed[begin + sign.start() if sign else m.start() : end]))  # fmt: skip
        cursor = end
    return tuple(amounts)
