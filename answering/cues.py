"""The understanding cues: one table of surface phrasings, matched by one function.

Each entry names a kind of wording (asking which drug, asking what a drug is for, saying the
patient is already on a medicine, …) and lists its phrasings, folded. Adding a phrasing is
adding an entry; the rules in `understanding.py` ask only `has(folded, "cue_name")`. None of
these phrasings names a drug or a disease: they are how questions are worded.
"""

import re
from collections.abc import Iterator

CUES: dict[str, tuple[str, ...]] = {
    "smalltalk": ("chao", "xin chao", "cam on", "cam on ban", "tam biet", "hello", "hi", "ok", "chuc"),
    "out_of_scope": ("gia", "bao nhieu tien", "mua o dau", "cach nau", "thoi tiet"),
    # "which drug …" in its loose form (with "thuốc gì") and its strict form.
    "which_drug": ("thuoc nao", "dung thuoc gi", "thuoc gi", "lua chon thuoc nao", "nen dung thuoc"),
    "which_drug_strict": (
        "thuoc nao",
        "dung thuoc gi",
        "uong thuoc gi",
        "lua chon thuoc nao",
        "nen dung thuoc",
        "co thuoc nao",
    ),
    "treat": ("dieu tri", "tri"),
    "what_for": (
        "dung de tri benh gi",
        "tri benh gi",
        "co tac dung gi",
        "dung de lam gi",
        "tri gi",
        "chua benh gi",
        "dieu tri benh gi",
        "dung de tri",
    ),
    "what_effect": ("co tac dung gi",),
    "what_is": ("la thuoc gi", "la gi", "thuoc gi"),
    "compare": ("so sanh", "khac nhau", "khac gi", "giong nhau"),
    "together": ("them", "cung", "chung", "phoi hop", "ket hop", "tuong tac", "nguy co"),
    "causes": ("thuoc nao gay", "thuoc gi gay", "thuoc nao lam"),
    "contraindicated_in": ("thuoc nao chong chi dinh", "chong chi dinh voi thuoc nao"),
    "has_contraindication": ("co chong chi dinh",),
    "currently_taking": ("dang dung", "dang uong", "dang su dung", "dang tiem", "dang dieu tri bang"),
    "continue": ("con", "the con", "vay con", "con neu", "neu", "thi sao", "the nao"),
}

_COMPILED = {
    name: [re.compile(rf"(?<![a-z0-9]){re.escape(p)}(?![a-z0-9])") for p in phrases]
    for name, phrases in CUES.items()
}


def has(folded: str, *names: str) -> bool:
    """Whether the folded question holds a phrasing of any of the named cues, word-bounded."""
    return any(p.search(folded) for name in names for p in _COMPILED[name])


def ends_of(folded: str, name: str) -> Iterator[int]:
    """Where each occurrence of the cue ends, phrasing by phrasing in table order."""
    for pattern in _COMPILED[name]:
        for match in pattern.finditer(folded):
            yield match.end()


# Yes/no questions ("… được không", "có … không").
YES_NO = re.compile(r"(duoc khong|duoc ko|co .* khong$|co .* khong\b|duoc k\b)")
WEIGHT = re.compile(r"(\d+(?:[.,]\d+)?)\s*kg\b")
# Matched on the text as typed ("2 - 4 tuổi"), to be found again in the book's bands.
AGE = re.compile(
    r"\b\d+\s*(?:-\s*\d+\s*)?(?:tuổi|tuoi|tháng tuổi|thang tuoi|tháng|thang|tuần|tuan)(?!\w)|sơ sinh|so sinh"
)
# An organ-function question is found by the book's own term, not the patient's story.
ORGAN_TERMS = {"suy_than": "clcr", "suy_gan": "suy gan"}
# Organ function states that the safety facets search for by the book's words.
POPULATION_CONDITIONS = {"suy_than": "suy thận", "suy_gan": "suy gan"}
