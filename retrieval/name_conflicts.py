"""Names the catalog must not answer for, found from the book's own tables and text.

Two kinds, each a way a name could point a clinician at the wrong monograph:

- **Attributed to another ingredient.** The book prints, on GENTAMICIN's last page, a list of
  glibenclamide's brands (Glyburid, Maninil, …; its index gives them to glibenclamide), and
  the brand index gives Norcuron (vecuronium) to VANCOMYCIN. A name one table gives to a
  loaded drug and another to an ingredient that is neither loaded nor contains that drug
  (ampicillin + sulbactam contains ampicilin: its brands still answer ampicilin) is nobody's
  for sure: it is said to be a name the loaded monographs do not cover, never answered.
- **The book's own word.** "Amip" is an amlodipin brand, and "amip" is the amoeba of
  METRONIDAZOL's text ("lỵ amip"). A one-word brand that the prose (not the brand lists) of
  another monograph prints is the book's word there, not the brand.
"""

from collections.abc import Callable, Iterable, Mapping

from rapidfuzz.distance import Levenshtein

from corpus.text import words

Key = tuple[str, ...]


def _contains(ingredient_id: str, drug_id: str) -> bool:
    """The ingredient is, or is made with, the drug (spelt the book's way or the INN's)."""
    mine = [t for t in drug_id.split("_") if len(t) >= 5]
    return any(
        Levenshtein.distance(part, own) <= 1 for part in ingredient_id.split("_") for own in mine
    )


def _key(name: str) -> Key:
    return tuple(words(name))


def attributed_elsewhere(
    loaded: Mapping[Key, Iterable[str]],
    index_names: Iterable[tuple[str, str]],
    key_of: Callable[[str], Key] | None = None,
) -> dict[Key, frozenset[str]]:
    """Loaded keys the index also gives to an unloaded ingredient none of their drugs is in:
    key → that ingredient (and any other such)."""
    loaded_ids = {d for ids in loaded.values() for d in ids}
    found: dict[Key, set[str]] = {}
    key_of = key_of or _key
    for name, ingredient_id in index_names:
        key = key_of(name)
        if ingredient_id in loaded_ids or key not in loaded:
            continue
        if not any(_contains(ingredient_id, drug_id) for drug_id in loaded[key]):
            found.setdefault(key, set()).add(ingredient_id)
    return {key: frozenset(ids) for key, ids in found.items()}


def book_words_among_brands(
    brand_names: Iterable[tuple[str, str]],
    prose_owners: Mapping[str, str],
    key_of: Callable[[str], Key] | None = None,
) -> set[Key]:
    """One-word brand keys printed in another monograph's prose.

    prose_owners: folded word → the one drug whose prose prints it, or "" for several.
    """
    found: set[Key] = set()
    key_of = key_of or _key
    for name, drug_id in brand_names:
        key = key_of(name)
        # A word of the drug's own name ("Nalidixic" of ACID NALIDIXIC, printed in
        # ciprofloxacin's text as "acid nalidixic") is that drug wherever it is printed.
        own = key and key[0] in drug_id.split("_")
        if len(key) == 1 and not own and prose_owners.get(key[0], drug_id) != drug_id:
            found.add(key)
    return found
