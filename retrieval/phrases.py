"""Which section a question asks for, and its population and route cues, from a phrase table.

Measured on the predecessor: letting vector similarity pick the section gave hit@1 0.544
overall and 0.05 on chong_chi_dinh. So a phrase table decides, matched on folded text at
word boundaries; the longest phrase wins across all sections (`chống chỉ định` before
`chỉ định`, `quá liều` before `liều`); no match returns None — this layer never guesses.
Adding a phrasing is adding an entry to `retrieval/section_phrases.py`.
"""

import re
from dataclasses import dataclass

from corpus.sections import SectionKey
from corpus.text import diacritics_agree, folded_phrase, typed_words
from retrieval.section_phrases import SECTION_PHRASES
from retrieval.situations import NOT_A_POPULATION, POPULATION_PHRASES, ROUTE_PHRASES
from retrieval.ward_asks import OPENED
from retrieval.ward_cues import DRAWN_TOGETHER


@dataclass(frozen=True)
class PhraseMatch:
    key: str
    phrase: str
    start: int


Entry = tuple[str, str, tuple[str, ...]]  # (folded phrase, key, words as printed)
_WORD_CHARS = frozenset("0123456789abcdefghijklmnopqrstuvwxyz")


class Table(list[Entry]):
    """A compiled phrase table: (folded phrase, key, words as printed), longest phrases first,
    and the entries by their first folded word (a phrase matched at word bounds starts at one
    of the text's words: only those entries are tried, a turn matches some 30 tables against
    its question)."""

    def __init__(self, entries: list[Entry]) -> None:
        super().__init__(entries)
        self.by_first: dict[str, list[int]] = {}
        for n, (phrase, _, _) in enumerate(entries):
            self.by_first.setdefault(phrase.split(" ", 1)[0], []).append(n)


def compile_table(table: dict[str, tuple[str, ...]]) -> Table:
    """A phrase table ready for `match_table`: longest phrases first."""
    entries = [(folded_phrase(p), key, p) for key, phrases in table.items() for p in phrases]
    entries.sort(key=lambda e: (-len(e[0]), e[0]))
    return Table([(f, key, tuple(typed_words(p))) for f, key, p in entries if f])


def _bounded(folded: str, phrase: str) -> list[tuple[int, int]]:
    """Where the phrase stands in the folded text between non-word characters, left to right
    and not overlapping (as a regex's finditer with word-bound lookarounds would find it)."""
    found = []
    at = folded.find(phrase)
    while at >= 0:
        end = at + len(phrase)
        if (at == 0 or folded[at - 1] not in _WORD_CHARS) and (
            end == len(folded) or folded[end] not in _WORD_CHARS
        ):
            found.append((at, end))
            at = folded.find(phrase, end)
        else:
            at = folded.find(phrase, at + 1)
    return found


_SECTIONS = compile_table(SECTION_PHRASES)
_OPENED = frozenset(folded_phrase(p) for p in OPENED)
_DRAWN_TOGETHER = frozenset(folded_phrase(p) for p in DRAWN_TOGETHER)
# Phrases that hold a population word but name something else claim their span first.
_POPULATIONS = compile_table({**POPULATION_PHRASES, NOT_A_POPULATION[0]: NOT_A_POPULATION[1]})
_ROUTES = compile_table(ROUTE_PHRASES)


def match_table(text: str, table: Table) -> list[PhraseMatch]:
    """Longest phrases first; a shorter phrase inside an already-matched span is ignored.

    Matched on folded text; where the question was typed with diacritics, they must agree
    with the phrase's ("rung nhĩ" is not the child cue "nhi"; "hoá" still matches "hóa").
    """
    folded = folded_phrase(text)
    typed = typed_words(text)
    candidates = []
    tried = sorted({n for w in set(folded.split(" ")) for n in table.by_first.get(w, ())})
    for phrase, key, spelled in (table[n] for n in tried):
        for start, end in _bounded(folded, phrase):
            first = folded.count(" ", 0, start)
            span = typed[first : first + len(spelled)]
            if len(span) == len(spelled) and not all(
                diacritics_agree(t, p) for t, p in zip(span, spelled, strict=True)
            ):
                continue
            candidates.append((start, end, phrase, key))
    # More words first, then the earlier phrase, then the longer: "quá liều dùng gì" is an
    # overdose question ("quá liều"), not "liều dùng" (the same two words, a letter longer).
    candidates.sort(key=lambda c: (-len(c[2].split()), c[0], -len(c[2])))
    taken: list[tuple[int, int]] = []
    found = []
    for start, end, phrase, key in candidates:
        if any(start < e and s < end for s, e in taken):
            continue
        taken.append((start, end))
        found.append(PhraseMatch(key, phrase, start))
    return found


def section_matches(text: str) -> list[PhraseMatch]:
    return match_table(text, _SECTIONS)


def route_section(text: str) -> str | None:
    """The section whose longest phrase appears in the question, or None."""
    found = section_matches(text)
    if not found:
        return None
    keys = {m.key for m in found}
    # "Ngộ độc morphin dùng naloxon liều bao nhiêu?" asks for the antidote's dose, which the
    # book prints under Quá liều và xử trí, not under the drug's own dosage.
    if {SectionKey.QUA_LIEU_VA_XU_TRI, SectionKey.LIEU_LUONG_VA_CACH_DUNG} <= keys:
        return SectionKey.QUA_LIEU_VA_XU_TRI
    # "Quá liều paracetamol xử trí thế nào?": the overdose's management, not an ADR's.
    if {SectionKey.QUA_LIEU_VA_XU_TRI, SectionKey.HUONG_DAN_CACH_XU_TRI_ADR} <= keys:
        return SectionKey.QUA_LIEU_VA_XU_TRI
    # "Phụ nữ có thai 20 tuần sốt, paracetamol liều bao nhiêu?": the dose asked, for her (the
    # pregnancy's or breast-feeding's own section is in view beside it: retrieval.patient_floor).
    if SectionKey.LIEU_LUONG_VA_CACH_DUNG in keys and keys <= {
        SectionKey.LIEU_LUONG_VA_CACH_DUNG,
        SectionKey.THOI_KY_MANG_THAI,
        SectionKey.THOI_KY_CHO_CON_BU,
    }:
        return SectionKey.LIEU_LUONG_VA_CACH_DUNG
    # "… pha xong có bơm chung vào chai NaCl đang chạy được không?": made up, then run in with
    # another fluid: what it must not be mixed with, not how long it keeps.
    if SectionKey.TUONG_KY in keys and any(m.phrase in _DRAWN_TOGETHER for m in found):
        return SectionKey.TUONG_KY
    # "Chai albumin đã mở nắp dùng trong bao lâu?": the in-use time, not the treatment's.
    if SectionKey.DO_ON_DINH_VA_BAO_QUAN in keys and any(m.phrase in _OPENED for m in found):
        return SectionKey.DO_ON_DINH_VA_BAO_QUAN
    longest = max(found, key=lambda m: (len(m.phrase), -m.start))
    return longest.key


def population_matches(text: str) -> list[PhraseMatch]:
    return [m for m in match_table(text, _POPULATIONS) if m.key != NOT_A_POPULATION[0]]


def _keys_in_order(text: str, table: Table) -> list[str]:
    found = sorted(match_table(text, table), key=lambda m: m.start)
    return list(dict.fromkeys(m.key for m in found))


def populations(text: str) -> list[str]:
    return [k for k in _keys_in_order(text, _POPULATIONS) if k != NOT_A_POPULATION[0]]


# A route said as what the patient cannot take ("nôn nhiều ko uống được, truyền Perfalgan TM
# liều thế nào?") is not the route asked.
_CANNOT = re.compile(r"(?:^|\s)(?:khong|ko|k|chua|kho)\s+(?:the\s+)?$")


def routes(text: str) -> list[str]:
    folded = folded_phrase(text)
    found = sorted(match_table(text, _ROUTES), key=lambda m: m.start)
    return list(dict.fromkeys(m.key for m in found if not _CANNOT.search(folded[: m.start])))
