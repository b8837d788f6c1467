"""Small readings of a stored turn for its card: the drug a clarify card names, the quick
replies grouped, whether a claim is the band the question asked, the bands beside it."""

import re
from typing import Any, TypedDict

from django import template

from corpus.text import fold
from retrieval.bands import band_months, bands_in, youngest_first

register = template.Library()

# More quick replies than this are shown under group labels (paracetamol prints 9 bands).
UNGROUPED_REPLIES = 6
# Age bands grouped by where they start, in months.
_AGE_GROUPS = (("dưới 2 tuổi", 24.0), ("2 – 12 tuổi", 144.0), ("từ 12 tuổi", float("inf")))


class ReplyGroup(TypedDict):
    label: str | None
    replies: list[str]


@register.filter
def reply_groups(replies: list[str]) -> list[ReplyGroup]:
    """The replies as they are when few; when many, the book's age bands by where they start
    (under 2 years, 2 to 12, from 12), then weight bands, then the rest, in order."""
    if len(replies) <= UNGROUPED_REPLIES:
        return [{"label": None, "replies": list(replies)}]
    groups: dict[str, list[str]] = {label: [] for label, _ in _AGE_GROUPS}
    groups.update({"theo cân nặng": [], "khác": []})
    for reply in replies:
        months = band_months(reply)
        if "kg" in fold(reply):
            groups["theo cân nặng"].append(reply)
        elif months is None:
            groups["khác"].append(reply)
        else:
            label = next(label for label, below in _AGE_GROUPS if months[0] < below)
            groups[label].append(reply)
    return [{"label": label, "replies": items} for label, items in groups.items() if items]


@register.filter
def turn_drug_name(turn: Any) -> str:
    """The drug a turn is about, as the book's heading prints it when a citation has it."""
    for citation in turn.citations or []:
        if citation.get("drug_name"):
            return str(citation["drug_name"])
    drugs = (turn.frame or {}).get("drugs") or []
    return str(drugs[0]).replace("_", " ").upper() if drugs else ""


# A child's band as the book heads a dose with it: "Trẻ em 2 - 4 tuổi", "Trẻ em 6 tháng".
_BAND_LABEL = re.compile(r"(?:Trẻ em|Trẻ|Sơ sinh) [^:;]*?(?:tuổi|tháng|kg)", re.IGNORECASE)


@register.filter
def is_the_asked_band(text: str, band: str) -> bool:
    """Whether a claim is the dose of the band the question's age fell in, and of no other
    band (the lead line, not the whole table of bands beside it)."""
    labels = [" ".join(fold(label).split()) for label in _BAND_LABEL.findall(text or "")]
    return bool(band) and bool(labels) and set(labels) == {" ".join(fold(band).split())}


def _key(label: str) -> str:
    return " ".join(fold(label).split())


@register.filter
def neighbour_bands(turn: Any) -> list[str]:
    """The book's age bands either side of the one a child's dose answer was for (younger
    first): read from the cited paragraph that heads the most bands, the way the clarify card
    offered them (retrieval/searches.py), so the next band is one click away."""
    asked = (turn.frame or {}).get("age_band")
    if not asked or turn.decision != "answer":
        return []
    best: list[str] = []
    for citation in turn.citations or []:
        if citation.get("quarantined"):
            continue  # not shown until a pharmacist has checked it against the print
        found = bands_in(citation.get("text") or "", headings_only=True)
        ages = [b for b in found if band_months(b) is not None]
        if _key(asked) in map(_key, ages) and len(ages) > len(best):
            best = ages
    ordered = sorted(best, key=youngest_first)
    keys = [_key(b) for b in ordered]
    if _key(asked) not in keys:
        return []
    at = keys.index(_key(asked))
    return ordered[max(at - 1, 0) : at] + ordered[at + 1 : at + 2]
