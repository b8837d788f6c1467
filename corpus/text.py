"""Vietnamese text forms: NFC on the way in, a folded form for matching, drug ids.

Folding merges words (dạ, đá, da), so every place that folds also keeps the
diacritics-kept form and prefers exact matches. Numbers are never touched here.
"""

import re
import sys
import unicodedata
from collections.abc import Collection
from functools import lru_cache

# Look-alikes the OCR produced: Ð (U+00D0, Icelandic eth) printed for Đ.
_LOOKALIKES = str.maketrans({"Ð": "Đ", "ð": "đ"})
_WORD_RE = re.compile(r"[0-9a-z]+")


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


# Control characters other than line breaks and tabs: PostgreSQL refuses NUL in text, and none
# of them belongs in a question or a comment.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def clean_input(text: str) -> str:
    """Typed text as it is stored and read: NFC, control characters removed."""
    return _CONTROL.sub("", nfc(text))


class _Unmarked(dict[int, int | None]):
    """str.translate's table that drops combining marks: each code point is looked up once."""

    def __missing__(self, code: int) -> int | None:
        kept = None if unicodedata.combining(chr(code)) else code
        self[code] = kept
        return kept


_UNMARKED = _Unmarked()


# A turn folds the same paragraphs many times (ranking, coverage, floors, leads: ~130 calls,
# a quarter of a turn's CPU before the cache, bench/chat_turn.py).
# Each cache holds at most this many texts (paragraphs among them): a turn folds a few hundred;
# 16,384 paragraphs' words were ~120 MB of a worker at 7× the book (issue 23).
_CACHED = 1 << 12


def _fold(text: str) -> str:
    if text.isascii():
        return text.lower()
    text = nfc(text).translate(_LOOKALIKES).lower().replace("đ", "d")
    return unicodedata.normalize("NFD", text).translate(_UNMARKED)


@lru_cache(maxsize=_CACHED)
def fold(text: str) -> str:
    """Lower-case, strip diacritics (đ→d by hand: NFD leaves it alone)."""
    return _fold(text)


def keep_lower(text: str) -> str:
    """Lower-case with diacritics kept (the exact form)."""
    return nfc(text).translate(_LOOKALIKES).lower()


def words(text: str) -> list[str]:
    """Folded word tokens (letters and digits), punctuation dropped."""
    return list(_words(text))


# Like `fold`: a turn splits the same paragraphs and phrase-table entries into words some
# 400 times (floors, ranking, coverage), ~12 % of its CPU before this cache.
@lru_cache(maxsize=_CACHED)
def _words(text: str) -> tuple[str, ...]:
    return tuple(map(sys.intern, _WORD_RE.findall(fold(text))))  # one string per word kept


def uncached_words(text: str) -> list[str]:
    """`words(text)` without filling the caches: for building an index of every paragraph
    once (the caches are for the texts a turn reads again and again)."""
    return _WORD_RE.findall(_fold(text))


def uncached_typed_words(text: str) -> list[str]:
    """`typed_words(text)` without filling the caches."""
    return _typed_in(_fold(text), keep_lower(text))


def _typed_in(folded: str, kept: str) -> list[str]:
    if len(folded) != len(kept):  # a character that folds to two; compare folded only
        return _WORD_RE.findall(folded)
    return [kept[m.start() : m.end()] for m in _WORD_RE.finditer(folded)]


def typed_words(text: str) -> list[str]:
    """The words of `words(text)` as typed (lower-case, diacritics kept), one for one."""
    return list(_typed_words(text))


@lru_cache(maxsize=_CACHED)
def _typed_words(text: str) -> tuple[str, ...]:
    return tuple(map(sys.intern, _typed_in(fold(text), keep_lower(text))))


def diacritics_agree(typed: str, phrase: str) -> bool:
    """Whether a typed word may be read as a phrase word with the same folded letters.

    Typed without diacritics, it may be either (`nhi` is `nhi` or `nhĩ`); typed with them, the
    marks must be the same, wherever the tone sits (`hoá` = `hóa`, `nhĩ` ≠ `nhi`, `dạ` ≠ `da`).
    """
    if typed == fold(typed):
        return True
    return _marks(typed) == _marks(phrase)


def _marks(word: str) -> tuple[str, ...]:
    decomposed = unicodedata.normalize("NFD", nfc(word).lower())
    return tuple(sorted(ch for ch in decomposed if unicodedata.combining(ch))) + (
        ("đ",) if "đ" in word.lower() else ()
    )


def folded_phrase(text: str) -> str:
    return " ".join(_words(text))


def prints_phrase(text: str, folded_phrases: Collection[str]) -> bool:
    """Whether the text prints one of the folded phrases as words ("nhi" is not in "nhiễm")."""
    folded = f" {folded_phrase(text)} "
    return any(f" {p} " in folded for p in folded_phrases)


def drug_id_for(heading: str) -> str:
    """The stable id of a monograph heading.

    The words before any parenthesis, folded and joined by `_`; a parenthetical that
    states a scope ("Dùng trong hô hấp") is kept, because the book prints two
    SALBUTAMOL monographs that differ only by it.
    """
    heading = nfc(heading).strip().strip("*").strip()
    base, _, rest = heading.partition("(")
    parts = words(base)
    paren = rest.split(")")[0] if rest else ""
    if paren and fold(paren).strip().startswith("dung trong"):
        parts += words(paren)
    return "_".join(parts)


def heading_parts(heading: str) -> tuple[str, str]:
    """Split `PARACETAMOL (Acetaminophen)` into the name and the parenthetical."""
    heading = nfc(heading).strip().strip("*").strip()
    match = re.match(r"^(.*?)\s*\((.*)\)\s*$", heading)
    if match:
        return match.group(1).strip(), match.group(2).strip()
    return heading, ""


def as_typed(question: str, folded: str) -> str:
    """The words of `question` whose folded form is `folded`, as the user typed them."""
    tokens = list(re.finditer(r"\w+", question))
    target = folded.split()
    for i in range(len(tokens) - len(target) + 1):
        if [fold(t.group(0)) for t in tokens[i : i + len(target)]] == target:
            return question[tokens[i].start() : tokens[i + len(target) - 1].end()]
    return folded


# Words that carry no content in a question (folded). One table: the filler both layers drop,
# and two named extensions. Dropping the story words from searches, or the asking words from
# the condition phrase, changes 60 of the 472 guarded answers (answering/tests/
# test_answers_unchanged.py), so that choice is left to the rebuild of understanding.
FILLER = frozenset(
    "a anh chi cho co dung duoc em gi hay hoi khong ko la minh nao nhe oi the thi thuoc toi va "
    "voi xin".split()
)
# How a question asks ("bao nhiêu", "vậy nhỉ"): dropped from the phrases searched in the book.
SEARCH_FILLER = FILLER | frozenset("ban bao cua hoac nhi nhieu vay".split())
# How a case is told around its condition ("bệnh nhân đang uống … bị …, điều trị thế nào"):
# dropped from the condition phrase; in a search of the book "uống", "khi", "trong" still count.
CASE_FILLER = FILLER | frozenset(
    "benh bi bn chua dang de dieu dot khi ma nen nguoi nhan nhu sao tri trong uong diet bang nhung o "
    "cac".split()
)
# How the filler words are spelled, where their folded form is also a content word ("hoi" is
# "hỏi" here, "hội" in "hội chứng"). A word typed with other diacritics is not filler.
FILLER_SPELLINGS: dict[str, tuple[str, ...]] = {
    "hoi": ("hỏi",),
    "bi": ("bị",),
    "de": ("để",),
    "dot": ("đợt",),
    "ma": ("mà",),
    "nhu": ("như",),
    "tri": ("trị",),
    "diet": ("diệt",),
    "bang": ("bằng",),
    "nhung": ("những",),
    "o": ("ở",),
    "cac": ("các",),
    "khi": ("khi",),
    "dang": ("đang",),
    "benh": ("bệnh",),
    "nhan": ("nhân",),
    "nguoi": ("người",),
    "chua": ("chữa", "chưa"),
    "the": ("thế",),
    "thi": ("thì",),
    "la": ("là",),
    "va": ("và",),
    "voi": ("với",),
    "nen": ("nên",),
    "dieu": ("điều",),
    "cho": ("cho",),
    "co": ("có",),
    "gi": ("gì",),
    "nao": ("nào",),
    "sao": ("sao",),
    "uong": ("uống",),
    "trong": ("trong",),
    "a": ("à", "ạ", "a"),
    "em": ("em",),
    "chi": ("chị",),
}


# Word pairs of conditions whose first or second word is also filler once folded
# ("hoi chung" is "hội chứng", "dang thap" is "dạng thấp"): typed without diacritics, kept.
KEPT_TOGETHER: frozenset[tuple[str, str]] = frozenset(
    {
        ("hoi", "chung"),
        ("dang", "thap"),
        ("de", "khang"),
        ("ma", "tuy"),
        ("tri", "nho"),
        ("tri", "giac"),
        ("nhu", "cau"),
        ("nhu", "dong"),
        ("trong", "luong"),
        ("khi", "phe"),
        ("the", "trang"),
    }
)


def is_filler(word: str, typed: str, filler: frozenset[str]) -> bool:
    """Whether a folded word is filler, given how it was typed."""
    if word not in filler:
        return False
    spellings = FILLER_SPELLINGS.get(word)
    return spellings is None or any(diacritics_agree(typed, s) for s in spellings)
