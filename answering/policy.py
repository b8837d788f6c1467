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
# "cho chó uống" typed without diacritics: giving a medicine to an animal.
_FOLDED_GIVING = re.compile(
    r"(?<![a-z])cho (?:con )?(?:cho|meo|lon|heo|bo|ga|vit|cun) (?:uong|an|dung|tiem|bi|nho)(?![a-z])"
)
# Where an animal word names a drug's source, a food or a human parasite, not the patient: its span
# does not count ("heparin nguồn ruột lợn", "sán lợn", "insulin bò").
_NOT_A_PATIENT = (
    "ruột lợn",
    "niêm mạc ruột lợn",
    "nguồn gốc lợn",
    "nguồn lợn",
    "từ lợn",
    "phổi bò",
    "từ bò",
    "insulin lợn",
    "insulin bò",
    "sán lợn",
    "sán bò",
    "sán chó",
    "giun chó",
    "giun mèo",
    "thịt lợn",
    "thịt heo",
    "thịt bò",
    "thịt gà",
    "mỡ lợn",
    "sữa bò",
    "trứng gà",
    "chó cắn",
    "mèo cào",
    "bị chó",
    "bị mèo",
)
_NOT_A_PATIENT_FOLDED = [folded_phrase(p) for p in _NOT_A_PATIENT]
_EXACT_PATTERNS = [re.compile(rf"(?<!\w){re.escape(p)}(?!\w)") for p in _EXACT]
_FOLDED_PATTERNS = [re.compile(rf"(?<![a-z]){re.escape(p)}(?![a-z])") for p in _FOLDED]


def resolve_subject_scope(question: str, claimed: str = "human") -> str:
    """'human' or 'non_human'."""
    exact = keep_lower(question)
    folded = folded_phrase(question)
    for phrase, plain in zip(_NOT_A_PATIENT, _NOT_A_PATIENT_FOLDED, strict=True):
        exact = exact.replace(phrase, " ")
        folded = re.sub(rf"(?<![a-z]){re.escape(plain)}(?![a-z])", " ", folded)
    scanned = (
        "non_human"
        if any(p.search(exact) for p in _EXACT_PATTERNS)
        or any(p.search(folded) for p in _FOLDED_PATTERNS)
        or _FOLDED_GIVING.search(folded)
        else "human"
    )
    if claimed == "non_human" or scanned == "non_human":
        return "non_human"
    return "human"
