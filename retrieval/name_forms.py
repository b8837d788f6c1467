"""Shorter names wards use for a loaded drug, derived from the book's own names."""

import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from functools import cache

from corpus.text import uncached_words, words

# Short forms wards type that the book's own alias tables do not hold (a pharmacist adds more
# as curated aliases in the admin). Used only for drugs that are loaded.
ABBREVIATIONS: dict[str, str] = {
    "pcm": "paracetamol",
    "para": "paracetamol",
    "cipro": "ciprofloxacin",
    "asa": "acid_acetylsalicylic",
    "amox": "amoxicilin",
    "mtx": "methotrexat",
    "vanco": "vancomycin",
    "nac": "acetylcystein",
    "dexa": "dexamethason",
    "genta": "gentamicin",
    "metro": "metronidazol",
    "moxi": "moxifloxacin_hydroclorid",
    "ceftri": "ceftriaxon",
    "mtz": "metronidazol",
    "ampi": "ampicilin",
    "amoxi": "amoxicilin",
    "amika": "amikacin",
    "salbu": "salbutamol_dung_trong_ho_hap",
    "carba": "carbamazepin",
    "ampho": "amphotericin_b",
    "ampho b": "amphotericin_b",
    # The recombinant tissue plasminogen activator as stroke units write it (the book: "t-PA").
    "rtpa": "alteplase",
    "rt pa": "alteplase",
    "tpa": "alteplase",
    "t pa": "alteplase",
    "txa": "acid_tranexamic",
    "vpa": "acid_valproic",
    "eaca": "acid_aminocaproic",
    "furo": "furosemid",
    "amio": "amiodaron",
    "amlo": "amlodipin",
    "nife": "nifedipin",
    "clopi": "clopidogrel",
    "ibu": "ibuprofen",
    "diclo": "diclofenac",
    "apap": "paracetamol",
    "ufh": "heparin",  # unfractionated heparin, beside the low-molecular-weight ones
    "pht": "phenytoin",
    "cbz": "carbamazepin",
    "cdca": "acid_chenodeoxycholic",
    "paba": "acid_para_aminobenzoic",
    # A form the monograph prints under its own "Dạng thuốc và hàm lượng" (the IV form).
    "enalaprilat": "enalapril",
    # Vitamins by their letter as wards shorten them (the book's headings: "(Vitamin C)").
    "vit c": "acid_ascorbic",
    "vit e": "alpha_tocopherol",
    "vitamin b5": "acid_pantothenic",
    "vit b5": "acid_pantothenic",
    "vitamin b9": "acid_folic",
    "vit b9": "acid_folic",
    # A combination by its parts as wards join them ("amox-clavulanat", "amoxi/clav").
    "amox clavulanat": "amoxicilin_va_kali_clavulanat",
    "amoxi clavulanat": "amoxicilin_va_kali_clavulanat",
    "amoxicilin clavulanat": "amoxicilin_va_kali_clavulanat",
    "amox clav": "amoxicilin_va_kali_clavulanat",
    "amoxi clav": "amoxicilin_va_kali_clavulanat",
    "amoxicilin clav": "amoxicilin_va_kali_clavulanat",
}


Key = tuple[str, ...]


def name_keys() -> Callable[[str], Key]:
    """Each name's words, split once for one build of the catalog: 28,650 aliases at 7× the
    book went through the words cache (4,096 texts) five times each, half the build (issue
    23: what an alias edit waits for)."""
    return cache(lambda name: tuple(map(sys.intern, uncached_words(name))))


def head_forms(
    loaded_names: Iterable[tuple[str, str]],
    index_names: Iterable[tuple[str, str]],
    drug_like: Callable[[str], bool],
    words_of: Callable[[str], Sequence[str]] = words,
) -> dict[tuple[str, ...], set[str]]:
    """ "amphotericin" for AMPHOTERICIN B, "parafin" for PARAFIN LỎNG: the first word of a
    loaded drug's name of several words, when no other name of the book (loaded or in its
    index) begins with it, it looks like a drug's name, and the words dropped hold no number."""
    heads: dict[str, set[str]] = defaultdict(set)
    multi: set[str] = set()
    drug_like = cache(drug_like)
    for name, drug_id in [*loaded_names, *index_names]:
        key = words_of(name)
        if key and drug_like(key[0]):
            heads[key[0]].add(drug_id)
            # "Dextran 1" is not every dextran: a numbered product keeps its number.
            if len(key) > 1 and not any(t.isdigit() for t in key[1:]):
                multi.add(key[0])
    loaded = {drug_id for _, drug_id in loaded_names}
    return {
        (head,): ids
        for head, ids in heads.items()
        if head in multi and len(ids) == 1 and ids <= loaded
    }


# A substance measured in the patient, told by the word after its name ("albumin niệu vi
# lượng", "albumin máu 25 g/l", "sắt huyết thanh"): a lab value, not the drug (folded).
MEASURED_IN: tuple[tuple[str, ...], ...] = (
    ("nieu",),
    ("mau",),
    ("huyet", "thanh"),
    ("huyet", "tuong"),
)


# Of the loaded drugs, those the body holds itself: "albumin máu 25 g/l" is the patient's. Any
# other drug measured is its own level ("nồng độ valproat huyết thanh ra 42", "digoxin máu"):
# the drug asked about.
MEASURED_SUBSTANCES = frozenset(
    {"albumin", "insulin", "acid_folic", "acid_ascorbic", "alpha_tocopherol", "acid_pantothenic"}
)


def measured(tokens: list[str], end: int, ids: Iterable[str] = ()) -> bool:
    """Whether the name ending before `end` is followed by where it is measured, and is a
    substance of the body (`ids`: the drugs it names; none given, any name is)."""
    named = set(ids)
    if named and not named & MEASURED_SUBSTANCES:
        return False
    return any(tuple(tokens[end : end + len(m)]) == m for m in MEASURED_IN)
