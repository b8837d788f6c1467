"""Subject scope: the book is for humans. A fixed keyword rule, no model, auditable.

It takes the more conservative of the caller's claim and the scan: a caller may narrow the
scope, never widen it. It is a coverage check, not a gate on what professionals may ask.
"""

import re

from corpus.text import fold, folded_phrase, keep_lower
from retrieval.phrases import compile_table, match_table

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
# The same without diacritics, only as phrases that cannot be read another way; where the
# words were typed with diacritics they must agree ("còn cho con bú" is not "con chó").
_FOLDED = compile_table(
    {
        "animal": (
            "con chó",
            "chó nhà",
            "chó mèo",
            "con mèo",
            "mèo nhà",
            "thú y",
            "gia súc",
            "gia cầm",
            "con heo",
            "con lợn",
            "trâu bò",
            "con bò",
            "gà vịt",
            "vật nuôi",
            "thú cưng",
            "cún cưng",
            "chú chó",
        )
    }
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
    "cho bú",
    "cho con bú",
    "chó cắn",
    "mèo cào",
    "bị chó",
    "bị mèo",
)
_NOT_A_PATIENT_FOLDED = [folded_phrase(p) for p in _NOT_A_PATIENT]
_NOT_A_PATIENT_PATTERNS = [
    (
        phrase,
        re.compile(rf"(?<![a-z]){re.escape(plain)}(?![a-z])"),
        re.compile(re.escape(phrase), flags=re.IGNORECASE),
        re.compile(rf"(?<!\w){re.escape(plain)}(?!\w)", flags=re.IGNORECASE),
    )
    for phrase, plain in zip(_NOT_A_PATIENT, _NOT_A_PATIENT_FOLDED, strict=True)
]
_EXACT_PATTERNS = [re.compile(rf"(?<!\w){re.escape(p)}(?!\w)") for p in _EXACT]


def resolve_subject_scope(question: str, claimed: str = "human") -> str:
    """'human' or 'non_human'."""
    exact = keep_lower(question)
    folded = folded_phrase(question)
    for phrase, in_folded, as_typed, as_plain in _NOT_A_PATIENT_PATTERNS:
        exact = exact.replace(phrase, " ")
        folded = in_folded.sub(" ", folded)
        question = as_typed.sub(" ", question)
        question = as_plain.sub(" ", question)
    scanned = (
        "non_human"
        if any(p.search(exact) for p in _EXACT_PATTERNS)
        or match_table(question, _FOLDED)
        or (_FOLDED_GIVING.search(folded) and question == fold(question))
        else "human"
    )
    if claimed == "non_human" or scanned == "non_human":
        return "non_human"
    return "human"
