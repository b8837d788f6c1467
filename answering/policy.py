"""Subject scope: the book is for humans. A fixed keyword rule, no model, auditable.

It takes the more conservative of the caller's claim and the scan: a caller may narrow the
scope, never widen it. It is a coverage check, not a gate on what professionals may ask.
"""

import re

from corpus.text import folded_phrase, keep_lower

# With diacritics, one animal word is enough ("Chó nhà tôi bị sốt"); folded, "cho" is also
# "for", so without diacritics only unambiguous phrases count.
_EXACT = (
    "chó",
    "mèo",
    "lợn",
    "heo",
    "trâu",
    "ngựa",
    "cún",
    "thú y",
    "gia súc",
    "gia cầm",
    "thú cưng",
    "vật nuôi",
    "con bò",
    "con gà",
    "con vịt",
    "bò sữa",
)
_FOLDED = (
    "con cho",
    "cho nha",
    "cho meo",
    "con meo",
    "meo nha",
    "thu y",
    "gia suc",
    "gia cam",
    "con heo",
    "con lon",
    "trau bo",
    "con bo",
    "ga vit",
    "vat nuoi",
    "thu cung",
    "cun cung",
    "chu cho",
)
_EXACT_PATTERNS = [re.compile(rf"(?<!\w){re.escape(p)}(?!\w)") for p in _EXACT]
_FOLDED_PATTERNS = [re.compile(rf"(?<![a-z]){re.escape(p)}(?![a-z])") for p in _FOLDED]


def resolve_subject_scope(question: str, claimed: str = "human") -> str:
    """'human' or 'non_human'."""
    exact = keep_lower(question)
    folded = folded_phrase(question)
    scanned = (
        "non_human"
        if any(p.search(exact) for p in _EXACT_PATTERNS)
        or any(p.search(folded) for p in _FOLDED_PATTERNS)
        else "human"
    )
    if claimed == "non_human" or scanned == "non_human":
        return "non_human"
    return "human"
