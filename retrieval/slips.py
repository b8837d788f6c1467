"""A slip of a drug's name, read as that drug only when no other name is as near (the
resolver's fuzzy side, `retrieval.catalog.Resolver`): one letter from one drug's names, and
for a five-letter word two letters from every other's; anything looser is offered back."""

from collections.abc import Collection, Sequence

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

Keys = Sequence[str]  # the loaded names, space-joined
KeyIds = Sequence[frozenset[str]]  # the drug ids of each name, by position


def near_exact(token: str, keys: Keys, key_ids: KeyIds) -> frozenset[str] | None:
    """A one-letter slip of a loaded single-word name (`amoxixilin`), and nothing looser.

    Two edits are too many: `aspirinol` is two letters from `aspirin` and
    `paracetamolex` two from `paracetamol`, and both are made-up names.
    """
    if len(token) < 6:
        return None
    found = process.extract(token, keys, scorer=Levenshtein.distance, score_cutoff=1, limit=10)
    drugs = {key_ids[position] for _, _, position in found}
    # A slip one letter from two different drugs' names ("isulin": insulin, visulin) is
    # no one's: it is offered back as "did you mean", never answered.
    return next(iter(drugs)) if len(drugs) == 1 else None


def isolated_slip(token: str, keys: Keys, key_ids: KeyIds) -> frozenset[str] | None:
    """A five-letter word the book never prints, one letter from one drug's name and two
    from no other's (`zrtec`: Zyrtec; `zmeta`: Zometa): so short a slip is read only
    that far from every other drug's name (`lanus` is two from Ganusa, `adala` from Aldalaf)."""
    found = process.extract(token, keys, scorer=Levenshtein.distance, score_cutoff=2, limit=10)
    drugs = {d for _, _, position in found for d in key_ids[position]}
    one = {d for _, distance, position in found if distance <= 1 for d in key_ids[position]}
    return frozenset(one) if len(one) == 1 and drugs == one else None


def within_two_edits(token: str, keys: Keys, key_ids: KeyIds) -> tuple[tuple[str, str], ...]:
    """(loaded name, drug id) of names two letters from the token (`aspirinol`), nearest first."""
    if len(token) < 6:
        return ()
    found = process.extract(token, keys, scorer=Levenshtein.distance, score_cutoff=2, limit=3)
    pairs: dict[str, str] = {}
    for name, _, position in sorted(found, key=lambda f: (f[1], f[0])):
        for drug_id in sorted(key_ids[position]):
            pairs.setdefault(drug_id, name)
    return tuple((name, drug_id) for drug_id, name in pairs.items())[:3]


# A name this long typed one letter otherwise is the book's spelling of it, whatever the
# word (a shorter one is too often another word).
BOOK_SPELLING_LETTERS = 8


def book_spellings(word: str, vocabulary: Collection[str]) -> list[str]:
    """The book's other spellings of a long name, one letter away ("succinylcholin": the book
    prints it so, and "sucinylcholin" in dexpanthenol's interactions)."""
    if len(word) < BOOK_SPELLING_LETTERS or not word.isalpha():
        return []
    found = process.extract(word, vocabulary, scorer=Levenshtein.distance, score_cutoff=1, limit=3)
    return sorted(w for w, distance, _ in found if distance == 1)
