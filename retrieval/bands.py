"""The book's age and weight bands in a dosage text: found, read as ranges, and matched.

Children's doses are printed by band ("Trẻ em 2 - 4 tuổi", "Trẻ em từ 1 tháng đến 12 tuổi",
"trẻ tới 2 năm tuổi", "Trẻ em (dưới 50 kg)"). A child's dose question without age or weight
is asked back with these labels; a stated age or weight selects the band that holds it.
"""

import re
from collections.abc import Sequence

from corpus.text import fold
from retrieval.evidence import Evidence

_UNIT = r"(?:tháng tuổi|năm tuổi|ngày tuổi|tuần tuổi|tháng|tuổi|năm|ngày|tuần|kg)"
_NUMBER = r"\d+(?:[.,]\d+)?"
_CHILD_BAND = re.compile(
    rf"(?:trẻ em|trẻ nhỏ|trẻ sơ sinh|trẻ|sơ sinh)[\s,(]*(?:có\s+)?(?:cân nặng\s+)?(?:từ\s+)?"
    rf"(?:dưới|trên|tới|đến|[<>≤≥])?\s*{_NUMBER}\s*{_UNIT}?"
    rf"(?:\s*(?:-|đến|tới)\s*{_NUMBER}\s*{_UNIT})?",
    re.IGNORECASE,
)
# A band as a heading of its own dose: "Trẻ em 2 - 4 tuổi", "Sơ sinh 28 - 32 tuần".
_BAND_HEADING = re.compile(
    r"(?:Trẻ em|Trẻ nhỏ|Trẻ|Sơ sinh)\s+(?:cân nặng\s+)?(?:từ\s+|dưới\s+|trên\s+|[<>≤≥]\s*)?"
    r"\d+(?:\s*(?:tháng|tuổi))?(?:\s*-\s*\d+)?\s*(?:tháng tuổi|tháng|tuổi|kg)"
)
_HAS_UNIT = re.compile(rf"\d\s*{_UNIT}(?!\w)", re.IGNORECASE)
_MONTHS = {"tháng": 1.0, "tuổi": 12.0, "năm": 12.0, "ngày": 1 / 30, "tuần": 1 / 4.3}
# The book's children's bands end at 18 years ("Trẻ em 16 - 18 tuổi"): an older age is an
# adult's, and never selects a child's band ("trẻ em trên 1 tuổi" holds 48 years too).
ADULT_MONTHS = 18 * 12
_EDGE = 0.001  # months: a strict bound ("dưới", "trên") excludes its own value
_PART = re.compile(rf"({_NUMBER})\s*(tháng|tuổi|năm|ngày|tuần|kg)?", re.IGNORECASE)


def child_bands(evidence: Sequence[Evidence], *, headings_only: bool = False) -> list[str]:
    """The book's own age/weight band labels in a dosage section, in book order: every band
    it mentions, or only those that head a dose of their own."""
    bands: list[str] = []
    for item in evidence:
        bands += [b for b in bands_in(item.text, headings_only=headings_only) if b not in bands]
    return bands


def bands_in(text: str, *, headings_only: bool = False) -> list[str]:
    """The band labels one text prints, in its order (the chat reads a cited paragraph's)."""
    found: list[str] = []
    pattern = _BAND_HEADING if headings_only else _CHILD_BAND
    for match in pattern.finditer(text):
        if not _HAS_UNIT.search(match.group(0)):
            continue
        label = re.sub(r"\s+", " ", re.sub(r"[(,]", " ", match.group(0))).strip()
        if label not in found:
            found.append(label)
    return found


def band_months(label: str) -> tuple[float, float] | None:
    """An age band as (from, to) months; None for a weight band or one without numbers."""
    lowered = label.lower()
    if "kg" in lowered:
        return None
    first = _PART.search(lowered)
    if "sơ sinh" in lowered and (first is None or "tuần" in lowered):
        return (0.0, 1.0)  # a newborn; weeks there are of gestation ("28 - 32 tuần")
    if first is None:
        return None
    parts = [(float(n.replace(",", ".")), (u or "").lower()) for n, u in _PART.findall(lowered)]
    unit = next((u for _, u in reversed(parts) if u), "tuổi")
    values = [n * _MONTHS[u or unit] for n, u in parts]
    before = lowered[: first.start()]
    if re.search(r"dưới|<", before):
        return (0.0, values[0] - _EDGE)  # "dưới 3 tuổi" does not hold a three-year-old
    if re.search(r"tới|đến|≤", before):
        return (0.0, values[0])
    if re.search(r"trên|>", before):
        return (values[0] + _EDGE, float("inf"))
    if "≥" in before:
        return (values[0], float("inf"))
    if len(values) == 1 and (re.search(r"\btừ\s*$", before) or "trở lên" in lowered):
        # "Trẻ từ 12 tuổi:", "từ 6 tuổi trở lên": open above, like "≥" (issue 24: read as
        # the single year it names, a 13-year-old fell between the book's bands).
        return (values[0], float("inf"))
    return (values[0], values[-1])


def youngest_first(label: str) -> float:
    """Order for asking back: age bands by their lower bound, newborns first, weights last."""
    months = band_months(label)
    return months[0] if months is not None else 10_000.0


def prints_age(text: str, age_text: str) -> bool:
    """Whether the text prints this age as a band of its own ("Trẻ em 2 - 4 tuổi"), not as the
    bound of another ("dưới 3 tuổi" does not print "3 tuổi")."""
    target = " ".join(fold(age_text).split())
    haystack = " ".join(fold(text).split())
    for match in re.finditer(rf"(?<![\d,.]){re.escape(target)}(?!\w)", haystack):
        before = haystack[max(0, match.start() - 6) : match.start()]
        if not re.search(r"(duoi|tren|toi|den|tu|[<>≤≥-])\s*$", before):
            return True
    return False


def band_width(label: str) -> float:
    """Months an age band spans, to prefer the narrowest that holds an age ("Trẻ em 2 - 4
    tuổi" before "Trẻ em 1 tháng - 6 tuổi"); open bands after them, the one starting latest
    first ("từ 16 tuổi trở lên" before "từ 12 tuổi" for 17), weight bands last, in book order."""
    band = band_months(label)
    if band is None:
        return float("inf")
    if band[1] == float("inf"):
        return _OPEN_WIDTH - band[0]
    return band[1] - band[0]


# Wider than any closed band of a child's months, so an open band sorts after every one.
_OPEN_WIDTH = 1_000_000.0


def band_for(bands: Sequence[str], age_text: str | None, months: float) -> str | None:
    """The book's band for an age: one printing the age as typed ("Trẻ em 2 - 4 tuổi" for
    "2 - 4 tuổi"), else the narrowest that holds it; None when none does."""
    printed = [b for b in bands if age_text and prints_age(b, age_text)]
    held = printed or sorted((b for b in bands if band_holds(b, months)), key=band_width)
    return held[0] if held else None


# A creatinine-clearance band as the book prints it: "Clcr 10 - 50 ml/phút", "Clcr< 30",
# "Clcr**:** 50 - 80", "Clcr ≥ 60", "Clcr trong khoảng 30 - 80 ml/phút".
_CLCR_BAND = re.compile(
    r"cl\s?cr[\s*:]*(?:trong khoảng\s*|từ\s*)?([<>≤≥])?\s*\**\s*(\d+(?:,\d+)?)"
    r"(?:\s*(?:-|đến)\s*(\d+(?:,\d+)?))?",
    re.IGNORECASE,
)


def clcr_bands(text: str) -> list[tuple[float, float]]:
    """The Clcr bands a line prints, as (from, to) ml/phút; a strict bound excludes its value."""
    bands = []
    for sign, low, high in _CLCR_BAND.findall(text):
        a = float(low.replace(",", "."))
        if high:
            bands.append((a, float(high.replace(",", "."))))
        elif sign == "<":
            bands.append((0.0, a - _EDGE))
        elif sign == "≤":
            bands.append((0.0, a))
        elif sign == ">":
            bands.append((a + _EDGE, float("inf")))
        elif sign == "≥":
            bands.append((a, float("inf")))
    return bands


def clcr_holds(text: str, clcr: float) -> bool:
    """Whether a Clcr band the line prints holds this clearance."""
    return any(low <= clcr <= high for low, high in clcr_bands(text))


def band_holds(label: str, months: float) -> bool:
    band = band_months(label)
    return band is not None and band[0] <= months <= band[1]


def age_in_bands(months: float | None, text: str) -> bool:
    """Whether an age band printed in the text holds this age."""
    if months is None:
        return False
    for match in _CHILD_BAND.finditer(text):
        band = band_months(match.group(0))
        if band is not None and band[0] <= months <= band[1]:
            return True
    return False


_KG_RANGE = re.compile(r"(\d+(?:,\d+)?)\s*-\s*(\d+(?:,\d+)?)\s*kg(?!\s*/)")
_KG_BOUND = re.compile(r"([<>≤≥]|dưới|trên)\s*(\d+(?:,\d+)?)\s*kg(?!\s*/)")


def weight_in_bands(weight: float, text: str) -> bool:
    """Whether a weight band printed in the text ("10 - 50 kg", "< 10 kg") holds this weight."""
    number = lambda s: float(s.replace(",", "."))  # noqa: E731 - reading a band, not checking a dose
    for low, high in _KG_RANGE.findall(text):
        if number(low) <= weight <= number(high):
            return True
    for sign, value in _KG_BOUND.findall(text):
        bound = number(value)
        if (sign in ("<", "≤", "dưới") and weight < bound) or (
            sign in (">", "≥", "trên") and weight > bound
        ):
            return True
    return False
