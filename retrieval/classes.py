"""Drug classes as other monographs name them in their interaction lines.

Paracetamol's monograph never says "warfarin": it says "coumarin và dẫn chất indandion". A
patient on warfarin is found there only through the class. Membership comes from the book's
own fields of the drug: its ATC code (`atc`, by prefix), or its "Loại thuốc" line holding one
of `own` (amlodipin has no ATC code in the 2018 edition). `words` are the phrasings the book
uses for the class in Tương tác thuốc, most specific first; matching is the same folded,
word-bounded phrase search as for a drug's own names. Adding a class or a phrasing is adding an
entry; keep the words specific (never "kháng sinh" or "thuốc").
"""

from dataclasses import dataclass

from corpus.models import Drug
from corpus.text import folded_phrase
from retrieval.phrases import compile_table, match_table


@dataclass(frozen=True)
class DrugClass:
    name: str
    atc: tuple[str, ...]
    own: tuple[str, ...]
    words: tuple[str, ...]


CLASSES: tuple[DrugClass, ...] = (
    DrugClass(
        "thuốc chống đông kháng vitamin K",
        ("B01AA",),
        ("kháng vitamin k",),
        (
            "coumarin",
            "dẫn chất coumarin",
            "thuốc chống đông uống",
            "thuốc uống chống đông máu",
            "thuốc chống đông máu uống",
            "kháng vitamin k",
            "thuốc chống đông máu",
            "thuốc chống đông",
        ),
    ),
    DrugClass("heparin", ("B01AB",), (), ("thuốc chống đông máu", "thuốc chống đông")),
    DrugClass(
        "thuốc ức chế kết tập tiểu cầu",
        ("B01AC",),
        ("kết tập tiểu cầu",),
        ("thuốc ức chế kết tập tiểu cầu", "thuốc chống kết tập tiểu cầu"),
    ),
    # Wards say "tiêu sợi huyết"; the book prints "tiêu huyết khối" (and "tiêu fibrin" of
    # what the antifibrinolytics stop).
    DrugClass(
        "thuốc tiêu huyết khối",
        ("B01AD",),
        ("tan huyết khối",),
        ("tiêu huyết khối", "thuốc tiêu sợi huyết", "tiêu sợi huyết"),
    ),
    DrugClass(
        "chất ức chế ACE",
        ("C09A", "C09B"),
        ("ức chế men chuyển", "ức chế enzym chuyển"),
        (
            "chất ức chế ace",
            "thuốc ức chế ace",
            "ức chế ace",
            "ức chế enzym chuyển",
            "ức chế men chuyển",
        ),
    ),
    DrugClass(
        "thuốc đối kháng thụ thể angiotensin II",
        ("C09C", "C09D"),
        ("angiotensin ii",),
        ("đối kháng thụ thể angiotensin",),
    ),
    DrugClass(
        "glycosid trợ tim",
        ("C01AA",),
        ("glycosid trợ tim",),
        ("glycosid trợ tim", "glycosid tim", "digitalis"),
    ),
    DrugClass("thuốc chẹn beta", ("C07",), ("chẹn beta",), ("thuốc chẹn beta", "chẹn beta")),
    DrugClass(
        "thuốc chẹn kênh calci",
        ("C08",),
        ("kênh calci",),
        ("thuốc chẹn kênh calci", "chẹn kênh calci", "đối kháng kênh calci"),
    ),
    # The book says "lợi niệu" as often as "lợi tiểu" ("Các thuốc lợi niệu giữ kali có thể …").
    DrugClass(
        "thuốc lợi tiểu quai", ("C03C",), ("lợi tiểu quai",), ("lợi tiểu quai", "lợi niệu quai")
    ),
    DrugClass("thuốc lợi tiểu thiazid", ("C03A", "C03B"), ("thiazid",), ("thiazid",)),
    DrugClass(
        "thuốc lợi tiểu giữ kali",
        ("C03D",),
        ("giữ kali",),
        ("lợi tiểu giữ kali", "lợi niệu giữ kali", "thuốc giữ kali"),
    ),
    DrugClass(
        "thuốc chống viêm không steroid",
        ("M01A",),
        ("chống viêm không steroid",),
        ("thuốc chống viêm không steroid", "chống viêm không steroid", "nsaid"),
    ),
    DrugClass("salicylat", ("N02BA",), ("salicylat",), ("salicylat",)),
    DrugClass(
        "corticosteroid",
        ("H02AB",),
        ("corticosteroid", "glucocorticoid"),
        ("corticosteroid", "corticoid", "glucocorticoid"),
    ),
    # "aminosid" is the book's other spelling ("không được trộn chung cùng bơm tiêm với aminosid").
    DrugClass("aminoglycosid", ("J01G",), ("aminoglycosid",), ("aminoglycosid", "aminosid")),
    DrugClass("quinolon", ("J01M",), ("quinolon",), ("fluoroquinolon", "quinolon")),
    DrugClass("macrolid", ("J01FA",), ("macrolid",), ("macrolid",)),
    DrugClass("penicilin", ("J01C",), ("penicilin",), ("penicilin",)),
    DrugClass("cephalosporin", ("J01DB", "J01DC", "J01DD", "J01DE"), (), ("cephalosporin",)),
    DrugClass("tetracyclin", ("J01AA",), (), ("tetracyclin",)),
    DrugClass(
        "thuốc chống nấm azol",
        ("J02AB", "J02AC"),
        (),
        ("thuốc chống nấm azol", "thuốc chống nấm nhóm azol", "dẫn chất azol"),
    ),
    DrugClass(
        "insulin và thuốc hạ glucose máu",
        ("A10",),
        ("hạ glucose máu", "chống đái tháo đường"),
        (
            "thuốc hạ glucose máu",
            "thuốc hạ glucose huyết",
            "thuốc hạ đường huyết",
            "thuốc chống đái tháo đường",
        ),
    ),
    DrugClass("sulfonylurê", ("A10BB",), (), ("sulfonylurê", "sulfonylure")),
    DrugClass("biguanid", ("A10BA",), ("biguanid",), ("biguanid",)),
    DrugClass(
        "thuốc giảm đau opioid",
        ("N02A",),
        ("opioid",),
        ("thuốc giảm đau opioid", "opioid", "opiat", "thuốc giảm đau gây nghiện"),
    ),
    DrugClass("benzodiazepin", ("N05BA", "N05CD"), ("benzodiazepin",), ("benzodiazepin",)),
    DrugClass(
        "thuốc chống trầm cảm ba vòng",
        ("N06AA",),
        ("ba vòng",),
        ("thuốc chống trầm cảm ba vòng", "chống trầm cảm ba vòng"),
    ),
    DrugClass(
        "thuốc chống động kinh",
        ("N03A",),
        ("chống động kinh", "chống co giật"),
        ("thuốc chống động kinh", "thuốc chống co giật"),
    ),
    DrugClass("hydantoin", ("N03AB",), (), ("hydantoin",)),
    DrugClass(
        "thuốc ức chế bơm proton",
        ("A02BC",),
        ("bơm proton",),
        ("thuốc ức chế bơm proton", "ức chế bơm proton"),
    ),
    DrugClass(
        "thuốc kháng histamin",
        ("R06A",),
        ("kháng histamin",),
        ("thuốc kháng histamin", "kháng histamin"),
    ),
    # Tranexamic and aminocaproic acid ("Thuốc chống tiêu fibrin"), vitamin K.
    DrugClass(
        "thuốc cầm máu",
        ("B02",),
        ("chống tiêu fibrin", "cầm máu"),
        ("thuốc cầm máu", "thuốc chống tiêu fibrin", "chống tiêu sợi huyết"),
    ),
    DrugClass(
        "thuốc chống loạn nhịp",
        ("C01B",),
        ("chống loạn nhịp",),
        ("thuốc chống loạn nhịp",),
    ),
    DrugClass(
        "thuốc phong bế thần kinh - cơ",
        ("M03A",),
        ("phong bế thần kinh",),
        ("thuốc phong bế thần kinh - cơ", "thuốc giãn cơ", "chẹn thần kinh cơ"),
    ),
    DrugClass(
        "thuốc kích thích beta2",
        ("R03AC", "R03CC"),
        ("beta2",),
        ("thuốc kích thích beta", "thuốc chủ vận beta"),
    ),
)


def classes_of(atc_codes: list[str], drug_class: str) -> list[DrugClass]:
    """The classes a drug belongs to by its ATC codes or its own "Loại thuốc" line."""
    own = f" {folded_phrase(drug_class)} "
    found = []
    for item in CLASSES:
        by_atc = any(code.startswith(prefix) for code in atc_codes for prefix in item.atc)
        by_line = any(f" {folded_phrase(word)} " in own for word in item.own)
        if by_atc or by_line:
            found.append(item)
    return found


def class_words(drug_id: str) -> tuple[tuple[str, str], ...]:
    """(class name, phrasing) pairs to search other monographs with, most specific first,
    each phrasing once. Read from the database each time (one indexed row): a re-ingest or an
    admin edit is seen at once, in every worker."""
    row = Drug.objects.filter(drug_id=drug_id).values_list("atc_codes", "drug_class").first()
    if row is None:
        return ()
    seen: set[str] = set()
    pairs = []
    for item in classes_of(list(row[0] or []), row[1] or ""):
        for word in item.words:
            if word not in seen:
                seen.add(word)
                pairs.append((item.name, word))
    return tuple(pairs)


# The class phrasings as a phrase table (`retrieval.phrases`): matched folded at word bounds,
# the typed diacritics agreeing, the longest phrasing where two overlap.
_TABLE = compile_table({item.name: item.words for item in CLASSES})
_BY_NAME = {item.name: item for item in CLASSES}


def class_mentions(text: str) -> list[tuple[DrugClass, int, int]]:
    """(class, index of its first word, its word count) for each class phrasing the text says
    ("thuốc chống động kinh nào …" is no "thuốc chống đông"), in the order said."""
    folded = folded_phrase(text)
    found = [
        (_BY_NAME[m.key], folded.count(" ", 0, m.start), len(m.phrase.split()))
        for m in match_table(text, _TABLE)
    ]
    return sorted(found, key=lambda f: f[1])


def classes_said(text: str) -> list[DrugClass]:
    """The classes a text names by one of their phrasings, in the order said."""
    return list(dict.fromkeys(item for item, _, _ in class_mentions(text)))


def class_members(item: DrugClass) -> tuple[str, ...]:
    """The book's drugs of the class (by ATC code or "Loại thuốc" line), in book order."""
    rows = Drug.objects.filter(retired_at=None).values_list("drug_id", "atc_codes", "drug_class")
    return tuple(
        drug_id
        for drug_id, atc, drug_class in rows.order_by("drug_id")
        if item in classes_of(list(atc or []), drug_class or "")
    )
