"""Subject scope: the book is for humans. A fixed keyword rule, no model, auditable.

It takes the more conservative of the caller's claim and the scan: a caller may narrow the
scope, never widen it. It is a coverage check, not a gate on what professionals may ask.
"""

import re

from corpus.text import folded_phrase

_NON_HUMAN = (
    "cho cho",
    "con cho",
    "cho nha",
    "cho meo",
    "con meo",
    "meo nha",
    "thu y",
    "gia suc",
    "gia cam",
    "heo",
    "con lon",
    "trau bo",
    "con bo",
    "ga vit",
    "vat nuoi",
    "thu cung",
    "cun cung",
    "chu cho",
    "benh vien thu y",
)
_PATTERNS = [re.compile(rf"(?<![a-z]){re.escape(p)}(?![a-z])") for p in _NON_HUMAN]


def resolve_subject_scope(question: str, claimed: str = "human") -> str:
    """'human' or 'non_human'."""
    folded = folded_phrase(question)
    scanned = "non_human" if any(p.search(folded) for p in _PATTERNS) else "human"
    if claimed == "non_human" or scanned == "non_human":
        return "non_human"
    return "human"
