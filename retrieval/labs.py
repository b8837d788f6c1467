"""The book's lines for a lab value the question gives: "INR 9, chảy máu chân răng" is the
overdose section's "Nếu INR > 5 nhưng < 9 …" and "Nếu INR > 9, …" lines; "kali 6,2" is the
line for "kali máu … trên 5,5"; "tiểu cầu 80 000" the one for "tiểu cầu <100 000".

A band is the comparison the book prints right after the lab's name ("INR > 5 nhưng < 9",
"INR bằng hoặc lớn hơn 9,0", "glucose huyết lúc đói dưới 70", "tiểu cầu < 100 000/mm3").
A value on a band's edge is held by both bands that meet there (the book is not consistent
about strict bounds, and one more line in view is safer than the wrong one alone); the
narrowest bands holding the value come first.

Only the labs whose units the question and the book share are matched (INR, potassium,
glucose, platelets, eGFR): a creatinine in mg/dl never meets the book's µmol/l.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass

from corpus.text import fold

# Lab key (answering.quantities) -> the book's names for it, folded.
LAB_NAMES: dict[str, tuple[str, ...]] = {
    "inr": ("inr",),
    "kali": ("kali huyet thanh", "kali huyet", "kali mau", "nong do kali", "kali"),
    "glucose": ("glucose huyet", "glucose mau", "duong huyet", "duong mau"),
    "tieu_cau": ("so luong tieu cau", "tieu cau"),
    "egfr": ("egfr", "muc loc cau than", "mlct"),
}
# Ops as the folded book prints them, read as a lower or an upper bound.
_LOWER = ("bang hoac lon hon", "bang hoac tren", "lon hon", "vuot qua", "tren", "tu", ">", "≥")
_UPPER = ("bang hoac nho hon", "bang hoac duoi", "nho hon", "duoi", "den", "toi", "<", "≤")
_NUMBER = r"\d{1,3}(?: \d{3})+(?![\d,])|\d+(?:,\d+)?"  # "100 000" is one number; "7,5"
_OP = "|".join(re.escape(op) for op in sorted((*_LOWER, *_UPPER), key=len, reverse=True))
# A share ("giảm tương đối từ 30 - 50%") is no value of the lab.
_BOUND = re.compile(rf"(?P<op>{_OP})\s*(?P<n>{_NUMBER})(?!\d|,\d)(?!\s*%|\s*-\s*[\d,]+\s*%)")
_RANGE = re.compile(rf"(?P<a>{_NUMBER})\s*-\s*(?P<b>{_NUMBER})(?!\d|,\d)(?!\s*%)")
# How far after the lab's name its comparison may stand ("glucose huyết lúc đói dưới 70",
# "kali máu khi nồng độ kali trên 5,5"); a clause break ends it.
_WINDOW = 30
_BEFORE = re.compile(rf"(?P<n>{_NUMBER})\s*[<≤]\s*$")
_GLOSS = re.compile(r"\s*\([^()]{1,45}\)")
_TAG = re.compile(r"<[^>]{1,10}>")  # "/mm<sup>3</sup>"
_BREAK = re.compile(r"[:;.](?!\d)|\)")


@dataclass(frozen=True)
class Band:
    low: float
    high: float

    def holds(self, value: float) -> bool:
        return self.low <= value <= self.high

    @property
    def width(self) -> float:
        return self.high - self.low


def _number(text: str) -> float:
    return float(text.replace(" ", "").replace(",", "."))


def matched_labs(read: Sequence[tuple[str, str, str]]) -> tuple[tuple[str, float], ...]:
    """The question's lab values (answering.quantities: key, value as typed, text) this
    module matches, as numbers."""
    return tuple((key, _number(value)) for key, value, _ in read if key in LAB_NAMES)


def lab_value(read: Sequence[tuple[str, str, str]], key: str) -> float | None:
    """One lab's value as read ("clcr"), or None."""
    return next((_number(value) for k, value, _ in read if k == key), None)


def lab_bands(text: str, lab: str) -> list[Band]:
    """The bands the text prints for this lab ("INR > 5 nhưng < 9" is one band, 5 to 9)."""
    folded = fold(_TAG.sub("", text))
    names = LAB_NAMES.get(lab, ())
    if not names:
        return []
    name = re.compile(r"(?<![a-z0-9])(?:" + "|".join(map(re.escape, names)) + r")(?![a-z0-9])")
    bands = []
    for match in name.finditer(folded):
        tail = folded[match.end() : match.end() + _WINDOW + 25]
        # "INR (tỉ lệ chuẩn hóa quốc tế) > 1,7": a gloss after the name is skipped.
        gloss = _GLOSS.match(tail)
        if gloss:
            tail = folded[match.end() + gloss.end() : match.end() + gloss.end() + _WINDOW + 25]
        stop = _BREAK.search(tail)
        if stop:
            tail = tail[: stop.start()]
        low, high = 0.0, float("inf")
        found = False
        # "5 < INR < 8": a bound printed before the name.
        before = _BEFORE.search(folded[max(0, match.start() - 15) : match.start()])
        if before:
            low, found = _number(before["n"]), True
        ranged = _RANGE.search(tail)
        bounds = list(_BOUND.finditer(tail))
        if ranged and (not bounds or ranged.start() < bounds[0].start()):
            if ranged.start() <= _WINDOW:
                bands.append(Band(_number(ranged["a"]), _number(ranged["b"])))
            continue
        for n, bound in enumerate(bounds[:2]):
            # The first bound stands near the name; a second joins it ("> 5 nhưng < 9").
            if (n == 0 and bound.start() > _WINDOW) or (
                n == 1 and bound.start() - bounds[0].end() > 12
            ):
                break
            if bound["op"] in _LOWER:
                low = _number(bound["n"])
            else:
                high = _number(bound["n"])
            found = True
        if found:
            bands.append(Band(low, high))
    return bands


def nearest_band(text: str, lab: str, value: float) -> Band | None:
    """The narrowest band the text prints for this lab that holds the value."""
    held = [b for b in lab_bands(text, lab) if b.holds(value)]
    return min(held, key=lambda b: (b.width, -b.low)) if held else None


def lines_for_labs(
    lines: Sequence[str], labs: Sequence[tuple[str, float]], limit: int = 2
) -> list[str]:
    """The lines whose band holds one of the question's lab values, narrowest band first."""
    found: list[tuple[float, float, int, str]] = []
    for n, line in enumerate(lines):
        for lab, value in labs:
            band = nearest_band(line, lab, value)
            if band is not None:
                found.append((band.width, -band.low, n, line))
                break
    found.sort()
    return [line for *_, line in found[:limit]]
