import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from corpus.rendering import RowMarker, render_book_text
from corpus.text import fold
from retrieval.bands import age_in_bands, clcr_bands, weight_in_bands

register = template.Library()

_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)
_NUMBER = re.compile(r"^\s*(\d+(?:,\d+)?)\s*(?:ml/ph(?:út)?)?\s*$")
_RANGE = re.compile(r"(\d+(?:,\d+)?)\s*-\s*(\d+(?:,\d+)?)")
_CLCR_READING = re.compile(r"^Clcr:\s*(\d+(?:,\d+)?)", re.IGNORECASE)
_CLCR_HEADER = ("clcr", "thanh thai creatinin", "thanh thai")
_AGE_HEADER = ("tuoi", "thang")
_WEIGHT_HEADER = ("can nang", "kg")


def _lines(cell: str) -> list[str]:
    return [part.strip() for part in _BR.split(cell) if part.strip()]


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def _clcr_in(line: str, clcr: float, under_header: bool) -> bool:
    """Whether a cell line holds the clearance: a printed band ("30 - 50", "> 80", "Từ 10 đến
    30 ml/phút") or, in a column the header names Clcr, the value itself ("40")."""
    text = line if "cl" in fold(line) and not under_header else f"Clcr {line}"
    for low, high in clcr_bands(text):
        if min(low, high) <= clcr <= max(low, high):  # "100 - 55" is printed high to low
            return True
    single = _NUMBER.match(line)
    return under_header and single is not None and _number(single.group(1)) == clcr


def _clcr_of(frame: Mapping[str, Any]) -> float | None:
    """The Clcr the question gave: the frame's own field, else its reading "Clcr: 40"."""
    if frame.get("clcr") is not None:
        return float(frame["clcr"])
    for reading in frame.get("quantities") or []:
        found = _CLCR_READING.match(str(reading))
        if found:
            return _number(found.group(1))
    return None


def patient_row_marker(frame: Mapping[str, Any]) -> RowMarker | None:
    """The predicate marking the table row that holds the question's Clcr, weight or age."""
    return _marker(*_patient_values(frame))


def _patient_values(frame: Mapping[str, Any]) -> tuple[Any, Any, Any]:
    return _clcr_of(frame), frame.get("weight_kg"), frame.get("age_months")


def _marker(clcr: Any, weight: Any, months: Any) -> RowMarker | None:
    if clcr is None and weight is None and months is None:
        return None

    def holds(cells: Sequence[str], header: Sequence[str]) -> bool:
        for index, cell in enumerate(cells):
            head = fold(header[index]) if index < len(header) else ""
            for line in _lines(cell):
                if clcr is not None and (
                    any(w in head for w in _CLCR_HEADER) or "clcr" in fold(line)
                ):
                    if _clcr_in(line, float(clcr), any(w in head for w in _CLCR_HEADER)):
                        return True
                if weight is not None and any(w in head for w in _WEIGHT_HEADER):
                    if weight_in_bands(float(weight), line if "kg" in line else f"{line} kg"):
                        return True
                if months is not None and any(w in head for w in _AGE_HEADER):
                    if age_in_bands(float(months), f"Trẻ em {line}"):
                        return True
        return False

    return holds


@register.filter
def book_text(text: str, frame: Mapping[str, Any] | None = None) -> SafeString:
    """The book's markdown as sanitized HTML (corpus.rendering); with the turn's frame, the
    table row holding the patient's value is marked."""
    values = _patient_values(frame) if isinstance(frame, Mapping) else (None, None, None)
    try:
        html = _rendered(text, *values)
    except TypeError:  # a stored frame's value that cannot be a cache key: rendered as is
        html = render_book_text(text, _marker(*values))
    return mark_safe(html)  # noqa: S308 - nh3's allow-list output


# A card renders each paragraph twice (its line, its citation) and the same paragraphs answer
# many turns: the HTML depends only on the text and the patient's values.
@lru_cache(maxsize=4096)
def _rendered(text: str, clcr: Any, weight: Any, months: Any) -> str:
    return render_book_text(text, _marker(clcr, weight, months))
