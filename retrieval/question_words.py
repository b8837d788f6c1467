"""What a question says, as the book's words: its informative syllables (idf from the whole
book), its rare syllable pairs, and which of them a text says (`Situation.said_in`): the measure
a ranked or rule-found paragraph is held against (issue 17)."""

from collections.abc import Iterable
from dataclasses import dataclass, field

from corpus.text import CASE_FILLER, KEPT_TOGETHER, diacritics_agree, typed_words, words
from retrieval.ranked import get_index
from retrieval.situations import GENERIC_SITUATION_WORDS

# A syllable in at most this share of the book's paragraphs says something about a question
# (idf ≥ 2: "thuốc", "dùng", "không", "người" are in far more).
INFORMATIVE_IDF = 2.0


def said_as_number(word: str) -> bool:
    """A folded word that starts with a digit: one of the question's numbers as typed."""
    return word[:1].isdigit()


def informative_words(text: str, exclude: Iterable[str] = ()) -> dict[str, float]:
    """The text's folded syllables that say something (idf ≥ INFORMATIVE_IDF), with their
    idf; `exclude` drops words (the drug names, which every paragraph of the drug says).
    A word that starts with a digit is one of the question's numbers, however it is typed
    ("4t", "16kg", "90phut": read by the quantity reader, never printed so by the book);
    "b12", "hba1c" are words."""
    index = get_index()
    dropped = {w for name in exclude for w in words(name)}
    return {
        w: index.idf(w)
        for w in dict.fromkeys(words(text))
        if w not in dropped and not said_as_number(w) and index.idf(w) >= INFORMATIVE_IDF
    }


# Words of how a case is told, never the situation itself.
NOT_SITUATION = GENERIC_SITUATION_WORDS | CASE_FILLER

# A word this rare names a situation by itself ("bilirubin"); so does a pair ("gút cấp").
RARE_IDF = 5.0
RARE_PAIR_IDF = 3.0

# Qualifiers that say the opposite of each other ("QRS hẹp" / "QRS rộng", "tăng kali" / "hạ
# kali", "cường giáp" / "suy giáp", "gút cấp" / "gút mạn"): where the question says a word with
# one, a text saying it with the other does not say the question's situation there.
OPPOSITE_QUALIFIERS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("hẹp",), ("rộng",)),
    (("tăng",), ("giảm", "hạ")),
    (("cao",), ("thấp",)),
    (("cường",), ("suy", "nhược")),
    (("thừa",), ("thiếu",)),
    (("cấp",), ("mạn",)),
)


def _opposites() -> dict[str, frozenset[str]]:
    found: dict[str, frozenset[str]] = {}
    for one, other in OPPOSITE_QUALIFIERS:
        a, b = frozenset(words(" ".join(one))), frozenset(words(" ".join(other)))
        found |= dict.fromkeys(a, b) | dict.fromkeys(b, a)
    return found


_OPPOSITES = _opposites()


@dataclass(frozen=True)
class Situation:
    """What a question says, as the book's words: its informative syllables (idf), its rare
    syllable pairs, and how the user typed each syllable that carries diacritics (a text says
    "trứng" only where it prints "trứng", not "trung")."""

    weights: dict[str, float]
    pairs: frozenset[str] = frozenset()
    typed: dict[str, str] = field(default_factory=dict)
    # Every pair of adjacent syllables the question says, common ones too ("kinh nghiệm").
    spoken: frozenset[str] = frozenset()
    # The pairs saying one of its words with the opposite qualifier ("qrs_rong" for "QRS hẹp").
    opposed: frozenset[str] = frozenset()
    # Each text's reading, kept for the turn: a which-drug turn reads the same candidates
    # ~140 times (specificity, coverage, names_situation); never changed by the callers.
    read: dict[str, list[str]] = field(default_factory=dict, compare=False, repr=False)

    def said_in(self, text: str) -> list[str]:
        """The text's folded syllables, those whose diacritics disagree with the user's
        typing left out (as ""), and those said with the opposite qualifier
        (`OPPOSITE_QUALIFIERS`)."""
        if (said := self.read.get(text)) is None:
            folded, kept = words(text), typed_words(text)
            kept = kept if len(kept) == len(folded) else folded
            typed = self.typed
            said = self.read[text] = [
                f if f not in typed or diacritics_agree(typed[f], k) else ""
                for f, k in zip(folded, kept, strict=True)
            ]
            for i in (i for i, pair in enumerate(_pairs_of(folded)) if pair in self.opposed):
                said[i] = said[i + 1] = ""
        return said


def _pairs_of(folded: list[str]) -> list[str]:
    return [f"{a}_{b}" for a, b in zip(folded, folded[1:], strict=False)]


def situation_of(text: str, exclude: Iterable[str] = ()) -> Situation:
    """The situation a text tells: its informative words, without the words of how a case is
    told ("có tiền sử", "bệnh nhân", "đang dùng") and the drugs' names."""
    index = get_index()
    weights = {
        w: idf for w, idf in informative_words(text, exclude).items() if w not in NOT_SITUATION
    }
    folded, kept = words(text), typed_words(text)
    typed = (
        {f: k for f, k in zip(folded, kept, strict=True) if f != k and f in weights}
        if len(kept) == len(folded)
        else {}
    )
    pairs = {
        f"{a}_{b}"
        for a, b in zip(folded, folded[1:], strict=False)
        if (a in weights or b in weights or (a, b) in KEPT_TOGETHER)
        and not (said_as_number(a) or said_as_number(b))
        and index.idf(f"{a}_{b}") >= RARE_PAIR_IDF
    }
    spoken = frozenset(_pairs_of(folded))
    # The question saying both ("tăng hay hạ kali") opposes neither.
    said = set(folded)
    opposed = {
        pair
        for a, b in zip(folded, folded[1:], strict=False)
        for pair in (
            *(f"{a}_{o}" for o in _OPPOSITES.get(b, ()) if a in weights and o not in said),
            *(f"{o}_{b}" for o in _OPPOSITES.get(a, ()) if b in weights and o not in said),
        )
    }
    return Situation(weights, frozenset(pairs), typed, spoken, frozenset(opposed))


# A pair of the question the text says across a word boundary ("đo kính" in "Do kinh nghiệm",
# issue 18): one of its syllables in a compound of the text's commoner by this much idf, which
# the question does not say, counts half (no such pair alone says the situation); "phòng dị"
# in "Dự phòng dị dạng ống thần kinh" still counts with the pairs beside it.
COMPOUND_MARGIN = 2.0


def compound(pair: str) -> bool:
    """A compound word ("phẫu thuật", "hỗ trợ"): its pair no rarer in the book than its rarer
    syllable, so it says no more than that syllable does."""
    index = get_index()
    a, _, b = pair.partition("_")
    return index.idf(pair) <= max(index.idf(a), index.idf(b)) + COMPOUND_PAIR_MARGIN


COMPOUND_PAIR_MARGIN = 0.05


def pairs_said(said: list[str], situation: Situation) -> dict[str, float]:
    """The question's rare pairs the text (its syllables, `Situation.said_in`) says, each
    with the idf it counts: half for a pair inside a commoner compound of the text's."""
    index = get_index()
    found: dict[str, float] = {}
    for i, (a, b) in enumerate(zip(said, said[1:], strict=False)):
        pair = f"{a}_{b}"
        if not (a and b) or pair not in situation.pairs:
            continue
        idf = index.idf(pair)
        before = f"{said[i - 1]}_{a}" if i > 0 and said[i - 1] else ""
        after = f"{b}_{said[i + 2]}" if i + 2 < len(said) and said[i + 2] else ""
        split = any(
            n and n not in situation.spoken and index.idf(n) <= idf - COMPOUND_MARGIN
            for n in (before, after)
        )
        found[pair] = max(found.get(pair, 0.0), idf / 2 if split else idf)
    return found


def specificity(text: str, situation: Situation) -> float:
    """How specifically the text says the situation: the idf of each rare word it says and
    of each rare syllable pair ("zona"; "tan huyết" counts more than "hỗ trợ")."""
    said = situation.said_in(text)
    words_said = sum(
        idf for w, idf in situation.weights.items() if idf >= RARE_IDF and w in set(said)
    )
    return words_said + sum(pairs_said(said, situation).values())


def rare_words(text: str) -> list[str]:
    """The text's folded words rare enough in the book to name a situation by themselves."""
    return [w for w, idf in situation_of(text).weights.items() if idf >= RARE_IDF]


def printed_rare_words(text: str) -> list[str]:
    """The text's folded words the book prints, rare enough to name a situation by themselves
    (a word the book never prints names nothing in it)."""
    index = get_index()
    return [w for w in dict.fromkeys(words(text)) if index.says(w) and index.idf(w) >= RARE_IDF]


def names_situation(text: str, situation: Situation) -> bool:
    """Whether the text says the situation: one of its rare words or rare syllable pairs,
    not merely a word it shares with the question."""
    said = situation.said_in(text)
    if any(situation.weights.get(w, 0.0) >= RARE_IDF for w in said if w):
        return True
    return bool(pairs_said(said, situation))


def coverage(text: str, situation: Situation) -> float:
    """The idf-weighted share of the situation's informative words that the text says."""
    total = sum(situation.weights.values())
    if not total:
        return 0.0
    present = set(situation.said_in(text))
    return sum(w for word, w in situation.weights.items() if word in present) / total
