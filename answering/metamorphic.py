"""Paraphrases of a question that must not move its answer (issue 17).

Each kind is a pure function, question → variants, deterministic (a choice is seeded by the
question's text, never by the clock). What needs the database (the drugs a question names, a
drug's brands) comes in as arguments: `manage.py metamorphic` looks it up and asks every
variant, checking the key fact is still in view.
"""

import hashlib
import random
import re
import unicodedata
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

from corpus.text import fold, nfc, words

Spans = Sequence[tuple[str, str]]  # (matched text, folded as the resolver gives it; drug id)

_TOKEN = re.compile(r"[0-9a-z]+")


def _rng(kind: str, question: str) -> random.Random:
    digest = hashlib.sha256(f"{kind}\0{question}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


_UNMARK = str.maketrans("đĐðÐ", "dDdD")


def strip_marks(text: str) -> str:
    """Every diacritic removed, case kept (đ→d, Đ→D, and the OCR's Ð look-alike)."""
    text = nfc(text).translate(_UNMARK)
    decomposed = unicodedata.normalize("NFD", text)
    return nfc("".join(ch for ch in decomposed if not unicodedata.combining(ch)))


def _plain(question: str) -> bool:
    """Typed without any diacritic: the variant's added words are typed the same way."""
    return question == strip_marks(question)


def _styled(text: str, question: str) -> str:
    return strip_marks(text) if _plain(question) else text


def locate(question: str, phrase: str) -> list[tuple[int, int]]:
    """Where the folded `phrase` (a resolver span) sits in `question`, as character ranges."""
    folded = fold(question)
    if len(folded) != len(question):  # a character folds to two: positions would not map
        return []
    tokens = list(_TOKEN.finditer(folded))
    want = phrase.split()
    found = []
    for i in range(len(tokens) - len(want) + 1):
        if [t.group(0) for t in tokens[i : i + len(want)]] == want:
            found.append((tokens[i].start(), tokens[i + len(want) - 1].end()))
    return found


def _cased(replacement: str, matched: str) -> str:
    if matched[:1].isupper() and replacement[:1].islower():
        return replacement[:1].upper() + replacement[1:]
    return replacement


# 1. Diacritics.


def no_diacritics(question: str) -> list[str]:
    return [strip_marks(question)]


# 2. Ward abbreviations, the long form → the short one (the longest forms first, so that
# "tác dụng không mong muốn" becomes TDKMM before "không" becomes "ko").
ABBREVIATIONS: tuple[tuple[str, str], ...] = (
    ("tác dụng không mong muốn", "TDKMM"),
    ("chống chỉ định", "CCĐ"),
    ("phụ nữ có thai", "PNCT"),
    ("đái tháo đường", "ĐTĐ"),
    ("tăng huyết áp", "THA"),
    ("tiêm tĩnh mạch", "TM"),
    ("bệnh nhân", "BN"),
    ("không", "ko"),
    ("được", "đc"),
)
_AGE = re.compile(r"(\d+)\s*(?:tuổi|tuoi)(?!\w)", re.IGNORECASE)


def _abbreviate(question: str, long: str, short: str) -> str:
    forms = {long, strip_marks(long)} if _plain(question) else {long}
    pattern = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    short = _styled(short, question)
    return re.sub(
        rf"(?<!\w)(?:{pattern})(?!\w)",
        lambda m: _cased(short, m.group(0)),
        question,
        flags=re.IGNORECASE,
    )


def abbreviations(question: str) -> list[str]:
    """One variant per abbreviation that applies, then all of them at once."""
    steps: list[Callable[[str], str]] = [
        partial(_abbreviate, long=long, short=short) for long, short in ABBREVIATIONS
    ]
    steps.append(partial(_AGE.sub, r"\1t"))
    singles = [v for step in steps if (v := step(question)) != question]
    combined = question
    for step in steps:
        combined = step(combined)
    return _distinct(question, [*singles, combined] if len(singles) > 1 else singles)


# 3. Unrelated context. No sentence names a drug, a pregnancy, a child, a kidney or liver
# problem or an allergy; the ones that give an age and sex are used only when the question
# states no population of its own (an adult's age in a child's question would change it).
PADDING_PERSON = (
    "BN nam 54 tuổi, tiền sử mổ ruột thừa, xét nghiệm công thức máu bình thường.",
    "Bệnh nhân nam 48 tuổi, vào viện hôm qua, tỉnh táo, tiếp xúc tốt.",
    "BN nữ 41 tuổi, làm văn phòng, khám sức khỏe định kỳ.",
)
PADDING_NEUTRAL = (
    "Tiền sử mổ ruột thừa năm 2015, hiện ổn định.",
    "Xét nghiệm công thức máu và điện giải đồ trong giới hạn bình thường.",
    "Mạch 78 lần/phút, huyết áp 120/80 mmHg, tỉnh táo.",
    "Em đang trực ở khoa nội, hỏi nhanh chút ạ.",
    "Người nhà hỏi thêm nên em hỏi lại cho chắc.",
)
PADDING = PADDING_PERSON + PADDING_NEUTRAL
_PERSON_WORDS = frozenset(
    "tuoi thang tuan tre be chau thai bau bu san nam nu ong ba cu kg lon gia sinh nhi".split()
)
_AGE_SHORT = re.compile(r"\d+\s*t(?![a-z])", re.IGNORECASE)


def _states_a_person(question: str) -> bool:
    return bool(_PERSON_WORDS & set(words(question))) or bool(_AGE_SHORT.search(fold(question)))


def padding(question: str) -> list[str]:
    """One sentence before the question, another after it."""
    pool = PADDING_NEUTRAL if _states_a_person(question) else PADDING
    before, after = _rng("padding", question).sample(pool, 2)
    return _distinct(
        question,
        [f"{_styled(before, question)} {question}", f"{question} {_styled(after, question)}"],
    )


# 4. Greeting.
GREETING = ("Chào chị, cho em hỏi: ", " Em cảm ơn ạ.")


def greeting(question: str) -> list[str]:
    prefix, suffix = (_styled(g, question) for g in GREETING)
    return [prefix + question, question + suffix]


# 5. Two drugs joined: the other connectors, and the two in the other order.
CONNECTORS = ("với", "cùng", "chung", "kèm", "phối hợp", "+")


def _joined(text: str) -> str:
    return f" {text} " if text != "+" else " + "


def connector(question: str, spans: Spans) -> list[str]:
    placed = sorted(
        (start, end, drug_id)
        for phrase, drug_id in dict.fromkeys(spans)
        for start, end in locate(question, phrase)
    )
    folded_connectors = {fold(c): c for c in CONNECTORS}
    for (a0, a1, a_id), (b0, b1, b_id) in zip(placed, placed[1:], strict=False):
        between = question[a1:b0]
        used = folded_connectors.get(" ".join(words(between) or between.split()))
        if a_id == b_id or used is None:
            continue
        out = [
            question[:a1] + _joined(_styled(c, question)) + question[b0:]
            for c in CONNECTORS
            if c != used
        ]
        out.append(question[:a0] + question[b0:b1] + between + question[a0:a1] + question[b1:])
        return _distinct(question, out)
    return []


# 6. How a yes/no question ends. The matched ending may start with "có" ("có được không").
YES_NO = ("được không", "có sao không", "nên không", "có ảnh hưởng gì không")
_NEGATION = r"(?:không|khong|ko|k|khg|hok)"
_CORES = {"được không": "được", "có sao không": "sao", "nên không": "nên"}
_CORES["có ảnh hưởng gì không"] = "ảnh hưởng gì"
# What may follow the ending: "… được không ạ?", "… có sao không chị?".
_PARTICLES = r"(?:ạ|a|nhỉ|nhi|vậy|vay|chị|chi|anh|em|nhé|nhe|hả|ha)"


def _word_pattern(phrase: str) -> str:
    return r"\s+".join(f"(?:{re.escape(w)}|{re.escape(strip_marks(w))})" for w in phrase.split())


def yes_no(question: str) -> list[str]:
    for form, core in _CORES.items():
        match = re.search(
            rf"(?<!\w)(?:(?:có|co)\s+)?{_word_pattern(core)}\s+(?P<neg>{_NEGATION})"
            rf"(?P<tail>(?:\s+{_PARTICLES})*[\s?.!…]*)$",
            question,
            flags=re.IGNORECASE,
        )
        if match is None:
            continue
        plain = _plain(match.group(0))
        head, neg, tail = question[: match.start()], match.group("neg"), match.group("tail")
        out = []
        for other in YES_NO:
            if other == form:
                continue
            text = other.removesuffix(" không")
            text = strip_marks(text) if plain else text
            out.append(f"{head}{_cased(text, match.group(0))} {neg}{tail}")
        return _distinct(question, out)
    return []


# 7. A drug's name ↔ one of its brands; a brand (or another name) → its active ingredient.


@dataclass(frozen=True)
class Names:
    """What the brand variant may write for each drug id (the command reads it from the book
    index and keeps only names the resolver reads back as that drug alone)."""

    brands: Mapping[str, Sequence[str]] = field(default_factory=dict)
    ingredient: Mapping[str, str] = field(default_factory=dict)
    # The folded names that are the drug's own (heading, INN, other names): a span that is
    # one of them gets a brand, any other span (a brand, a short form) the ingredient.
    generic: Mapping[str, Collection[str]] = field(default_factory=dict)


def brand(question: str, spans: Spans, names: Names) -> list[str]:
    out = []
    ids_of: dict[str, set[str]] = {}
    for phrase, drug_id in spans:
        ids_of.setdefault(phrase, set()).add(drug_id)
    rng = _rng("brand", question)
    for phrase, ids in ids_of.items():
        if len(ids) != 1:
            continue
        (drug_id,) = ids
        if phrase in names.generic.get(drug_id, ()):
            choices = list(names.brands.get(drug_id, ()))
            instead = rng.choice(choices) if choices else None
        else:
            instead = names.ingredient.get(drug_id)
        if instead is None or " ".join(words(instead)) == phrase:
            continue
        text = question
        # Every mention, so that none contradicts the others; "N-acetylcystein" as one name.
        for start, end in reversed(locate(question, phrase)):
            start -= 2 if re.search(r"(?<!\w)[A-Za-z]-$", question[:start]) else 0
            text = text[:start] + instead + text[end:]
        out.append(text)
    return _distinct(question, out)


# 8. A one-letter slip in a name of six letters or more: changed, dropped, doubled.
_LETTERS = "abcdeghiklmnopqrstuvxy"
MIN_TYPO_LETTERS = 6  # the resolver's one-letter tolerance starts there (catalog._near_exact)


def typo(question: str, spans: Spans, known: Collection[str] | None = None) -> list[str]:
    """`known`: the one-word names the catalog holds exactly. A slip must not spell one of
    them, and a span that is none of them is a slip already (`amitriptilin`): left alone."""
    rng = _rng("typo", question)
    out = []
    for phrase in dict.fromkeys(p for p, _ in spans):
        where = locate(question, phrase)
        if " " in phrase or len(phrase) < MIN_TYPO_LETTERS or not phrase.isalpha() or not where:
            continue
        if known is not None and phrase not in known:
            continue
        start, end = where[0]
        name = question[start:end]
        if not name.isascii():
            continue
        at = rng.randrange(1, len(name))
        changed = rng.choice([c for c in _LETTERS if c != name[at].lower()])
        for slip in (
            name[:at] + changed + name[at + 1 :],
            name[:at] + name[at + 1 :],
            name[:at] + name[at] + name[at:],
        ):
            if known is None or slip.lower() not in known:
                out.append(question[:start] + slip + question[end:])
    return _distinct(question, out)


def _distinct(question: str, variants: Sequence[str]) -> list[str]:
    return [v for v in dict.fromkeys(variants) if v != question]


KINDS = (
    "no_diacritics",
    "abbreviations",
    "padding",
    "greeting",
    "connector",
    "yes_no",
    "brand",
    "typo",
)


def variants(
    question: str,
    spans: Spans = (),
    names: Names = Names(),
    known: Collection[str] | None = None,
    kinds: Sequence[str] = KINDS,
) -> list[tuple[str, str]]:
    """(kind, variant) of every kind asked, none equal to the question."""
    question = nfc(question)
    made: dict[str, list[str]] = {
        "no_diacritics": no_diacritics(question) if "no_diacritics" in kinds else [],
        "abbreviations": abbreviations(question) if "abbreviations" in kinds else [],
        "padding": padding(question) if "padding" in kinds else [],
        "greeting": greeting(question) if "greeting" in kinds else [],
        "connector": connector(question, spans) if "connector" in kinds else [],
        "yes_no": yes_no(question) if "yes_no" in kinds else [],
        "brand": brand(question, spans, names) if "brand" in kinds else [],
        "typo": typo(question, spans, known) if "typo" in kinds else [],
    }
    return [(kind, v) for kind in kinds for v in _distinct(question, made[kind])]
