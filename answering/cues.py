"""The understanding cues: one table of surface phrasings, matched by one function.

Each entry names a kind of wording (asking which drug, asking what a drug is for, saying the
patient is already on a medicine, …) and lists its phrasings, folded. Adding a phrasing is
adding an entry; the rules in `understanding.py` ask only `has(folded, "cue_name")`. None of
these phrasings names a drug or a disease: they are how questions are worded.
"""

import re
from collections.abc import Iterator

from answering.ward_words import CANCER_SITES, CLINICAL_ABBREVIATIONS, LAY_TERMS
from corpus.sections import PATIENT_SECTIONS
from corpus.text import fold
from retrieval.bands import band_months
from retrieval.situations import POPULATION_TERMS

CUES: dict[str, tuple[str, ...]] = {
    "smalltalk": (
        "chao",
        "xin chao",
        "cam on",
        "cam on ban",
        "tam biet",
        "hello",
        "hi",
        "ok",
        "chuc",
    ),
    # A price said as one ("giá thuốc"): folded "gia" alone is also "già" ("người già").
    "out_of_scope": (
        "gia thuoc",
        "gia ban",
        "gia tien",
        "gia bao nhieu",
        "gia ca",
        "bao nhieu tien",
        "mua o dau",
        "cach nau",
        "thoi tiet",
    ),
    # "which drug …" in its loose form (with "thuốc gì") and its strict form.
    "which_drug": (
        "thuoc nao",
        "dung thuoc gi",
        "thuoc gi",
        "lua chon thuoc nao",
        "nen dung thuoc",
    ),
    "which_drug_strict": (
        "thuoc nao",
        "dung thuoc gi",
        "uong thuoc gi",
        "lua chon thuoc nao",
        "nen dung thuoc",
        "co thuoc nao",
        "co thuoc gi",
    ),
    "treat": ("dieu tri", "dac tri", "tri"),
    # How a "which drug" question points at the book and its indications, around the
    # condition ("những thuốc nào có chỉ định liên quan đến bệnh gút trong sách").
    "asking": (
        "thuoc giai",
        "dac tri",
        "lien quan den",
        "lien quan toi",
        "lien quan",
        "trong sach",
        "trong duoc thu",
        "sach",
        "nhung",
        "cac",
        "loai",
        # "thuốc uống nào là lựa chọn điều trị": the story tells the condition. (Each cue's
        # words go one by one: "trường hợp này" would take "trường" out of "trưởng thành".)
        "lua chon",
    ),
    "what_for": (
        "dung de tri benh gi",
        "tri benh gi",
        "co tac dung gi",
        "dung de lam gi",
        "tri gi",
        "chua benh gi",
        "dieu tri benh gi",
        "dung de tri",
    ),
    "what_effect": ("co tac dung gi",),
    "what_is": ("la thuoc gi", "la gi", "thuoc gi"),
    "what_is_strict": ("la thuoc gi", "la gi", "la thuoc nao", "thuoc gi vay"),
    "compare": ("so sanh", "khac nhau", "khac gi", "giong nhau"),
    "together": (
        "them",
        "cung",
        "chung",
        "phoi hop",
        "ket hop",
        "tuong tac",
        "nguy co",
        "dung voi",
        "uong voi",
        "tiem voi",
        "kem",
        "doi sang",
        "chuyen sang",
    ),
    "causes": ("thuoc nao gay", "thuoc gi gay", "thuoc nao lam"),
    "contraindicated_in": ("thuoc nao chong chi dinh", "chong chi dinh voi thuoc nao"),
    "has_contraindication": ("co chong chi dinh",),
    # Asking whether a drug may be given at all ("dùng … được không", "có sao không", "có nên
    # cho …"): the contraindications are the floor of the answer, whatever else it shows.
    "use": (
        "duoc khong",
        "duoc ko",
        "duoc k",
        "duoc hok",
        "duoc khg",
        "co sao",
        "sao khong",
        "van de gi",
        "co nen",
        "nen dung",
        "nen uong",
        "co dung",
        "co uong",
        "co cho",
        "co tiem",
        "co the dung",
        "co the uong",
        "bat dau",
        "doi sang",
        "chuyen sang",
        "co anh huong",
        "anh huong gi",
        "an toan khong",
        "co an toan",
    ),
    # Asking whether a drug causes an effect: an ADR question, not whether it may be given.
    "effect": ("co gay", "gay ra", "co phai do", "do thuoc", "tac dung phu"),
    "currently_taking": (
        "dang dung",
        "dang uong",
        "dang su dung",
        "dang tiem",
        "dang dieu tri bang",
        # A medicine taken before what happened ("MetHb 40% sau uống dapson"), the patient's.
        "sau uong",
        "sau khi uong",
        "sau khi dung",
        "sau tiem",
        "sau khi tiem",
    ),
    # A medicine the patient tried, failed on or reacted to ("đã uống metronidazol 5 ngày
    # không đỡ", "từng phản ứng cả với furosemid"): asked for another, it is the patient's.
    "tried_before": (
        "da uong",
        "da dung",
        "da tiem",
        "da truyen",
        "tung dung",
        "tung uong",
        "tung tiem",
        "di ung voi",
        "di ung nang voi",
        "phan ung voi",
        "phan ung ca voi",
        "khong dap ung",
    ),
    "continue": ("con", "the con", "vay con", "con neu", "neu", "thi sao", "the nao"),
    # What the patient has or had: a section word after it names a condition, not a section
    # ("tiền sử phù mạch, dùng X được không?" asks about a contraindication).
    "situation": (
        "tien su",
        "co tien su",
        "bi",
        "dang bi",
        "tung bi",
        "nguoi bi",
        "mac",
        "dang mac",
        "nguoi",
        "nguoi benh",
        "benh nhan",
        "bn",
    ),
}

# A drug's form said between "thuốc" and "nào"/"gì" ("thuốc nhỏ mắt nào", "thuốc tiêm gì"):
# the which-drug phrasings hold with it too.
DRUG_FORMS = ("nho mat", "nho mui", "nho tai", "tiem", "uong", "boi", "xit", "dat", "ngam")
for _name in ("which_drug", "which_drug_strict"):
    CUES[_name] += tuple(
        f"{head}thuoc {form} {tail}"
        for form in DRUG_FORMS
        for head, tail in (("", "nao"), ("", "gi"), ("co ", "nao"), ("co ", "gi"))
    )

_COMPILED = {
    name: [re.compile(rf"(?<![a-z0-9]){re.escape(p)}(?![a-z0-9])") for p in phrases]
    for name, phrases in CUES.items()
}

# An open which-drug wording: a kind of drug and up to six words before "nào"/"gì" ("thuốc
# bôi tại chỗ nào", "thuốc chẹn alpha nào", "corticoid nào", "enzym nào"), or a way of giving
# one before "gì" ("truyền gì", "bổ sung gì"). A span holding a section's phrase ("thuốc có
# tác dụng phụ gì") asks about a drug, not for one.
DRUG_KINDS = (
    "thuoc",
    "chat",
    "hoat chat",
    "che pham",
    "enzym",
    "men",  # the ward's word for an enzyme ("men nào dùng trong phẫu thuật …")
    "corticoid",
    "corticosteroid",
    "khang sinh",
    "khang histamin",
    "khang nam",
    "khang virus",
    "vitamin",
    "hormon",
    "dich truyen",
    "vaccin",
    "bisphosphonat",
    "statin",
    "nsaid",
    "loi tieu",  # "lợi tiểu quai nào không có gốc sulfonamid"
    "lua chon",  # "còn lựa chọn đường uống nào khác"
    "gel",  # never "kem": folded, it is also "kém" ("kém hấp thu mỡ, thuốc nào …")
)
# "khi nào", "lúc nào", "thế nào", "là gì" end no drug's name ("… khi nào uống lại").
_NOT_WHICH = r"(?<!khi)(?<!luc)(?<!the)(?<!la)"
# "thuốc này / đó / ấy / kia / trên": the drug already named, asked about, not asked for
# ("Dùng chung 2 thuốc này có nguy cơ gì?").
_NAMED = r"(?! (?:nay|do|ay|kia|tren)(?![a-z0-9]))"
_OPEN_WHICH = re.compile(
    rf"(?<![a-z0-9])(?:(?:{'|'.join(DRUG_KINDS)}){_NAMED}(?: [a-z0-9]+){{0,6}}{_NOT_WHICH}"
    r" (?:nao|gi)"
    r"|(?:truyen|tiem|bo sung|uong|boi|nho|dung|xai) (?:gi|cai gi)"
    # "Có thuốc uống làm tan sỏi không?": a drug asked for as a yes/no.
    rf"|co (?:{'|'.join(DRUG_KINDS)})(?: [a-z0-9]+){{1,6}} (?:khong|ko|k)$"
    # "chất cản quang để chụp tử cung …, trong dược thư có loại nào": "loại nào" however far.
    rf"|(?:{'|'.join(DRUG_KINDS)})(?: [a-z0-9]+){{0,14}} loai (?:nao|gi))(?![a-z0-9])"
)


def asks_for_a_drug(folded: str) -> bool:
    """Whether the folded question asks which drug, in an open wording."""
    from retrieval.phrases import section_matches

    return any(not section_matches(m.group()) for m in _OPEN_WHICH.finditer(folded))


def has(folded: str, *names: str) -> bool:
    """Whether the folded question holds a phrasing of any of the named cues, word-bounded."""
    return any(p.search(folded) for name in names for p in _COMPILED[name])


def ends_of(folded: str, name: str) -> Iterator[int]:
    """Where each occurrence of the cue ends, phrasing by phrasing in table order."""
    for pattern in _COMPILED[name]:
        for match in pattern.finditer(folded):
            yield match.end()


# Yes/no questions ("… được không", "có … không"), with the ways wards type "không".
_NOT = r"(?:khong|ko|k|hok|khg|kh|hong|hem)"
# "… được chưa" (may it be given yet: "ngưng 5 tuần, uống rượu đc chưa?") asks as "được không".
YES_NO = re.compile(rf"(duoc (?:{_NOT}|chua)\b|nen {_NOT}\b|co .* {_NOT}$|co .* {_NOT}\b)")

_ABBREVIATION_KEYS = {fold(k).upper(): v for k, v in CLINICAL_ABBREVIATIONS.items()}
# (the name tables' stamp, the merged table); rebuilt when the stamp changes.
_merged: tuple[str, dict[str, str]] | None = None


def abbreviations() -> dict[str, str]:
    """The table above with the abbreviations pharmacists added in the admin (theirs win)."""
    from corpus.models import Abbreviation
    from retrieval.catalog import catalog_version

    global _merged
    stamp = catalog_version()  # the table's trigger moves it
    if _merged is None or _merged[0] != stamp:
        added = {fold(a.short).upper(): a.expansion for a in Abbreviation.objects.all()}
        _merged = (stamp, {**_ABBREVIATION_KEYS, **added})
    return _merged[1]


def expand_abbreviations(text: str) -> str:
    """The question with each clinical abbreviation written out as the book writes it."""
    table = abbreviations()

    def expand(match: re.Match[str]) -> str:
        word = match.group(0)
        key = fold(word).upper()
        if key not in table or (len(key) < 3 and not word.isupper()):
            return word
        return table[key]

    return re.sub(r"\w+", expand, text)


# Typed with diacritics or entirely without them ("ha duong huyet").
# A one-syllable term folded is other words too ("mo" is "mở" as often as "mổ": "chai mo
# ra"): without its diacritics it is read only when it has none.
_LAY_PATTERNS = [
    (re.compile(rf"(?<!\w){re.escape(spelled)}(?!\w)", re.IGNORECASE), book)
    for lay, book in sorted(LAY_TERMS.items(), key=lambda kv: -len(kv[0]))
    for spelled in dict.fromkeys((lay, fold(lay) if " " in lay else lay))
]


_CANCER = re.compile(
    r"(?<!\w)K (?=(?i:"
    + "|".join(re.escape(s) for o in CANCER_SITES for s in dict.fromkeys((o, fold(o))))
    + r")(?!\w))"
)


def book_words(text: str) -> str:
    """The question in the book's words: abbreviations written out, lay terms as printed."""
    text = _CANCER.sub("ung thư ", expand_abbreviations(text))
    for pattern, book in _LAY_PATTERNS:
        text = pattern.sub(book, text)
    return text


# The question's numbers (weight, age, pregnancy weeks, durations, labs) are read once, by
# answering.quantities; an age text ("18 tháng") is read as a band is read.
def age_months(age_text: str | None) -> float | None:
    """An age as typed ("18 tháng", "5 tuổi", "sơ sinh 5 ngày tuổi") in months: read as the
    book's bands are read, from its lower bound."""
    band = band_months(age_text) if age_text else None
    return band[0] if band is not None else None


# A population whose situation has a section of its own: asked about with no section named,
# that section answers ("sản phụ dùng X được không?" is a Thời kỳ mang thai question).
POPULATION_SECTIONS = PATIENT_SECTIONS
# An organ-function question is found by the book's own term, not the patient's story.
ORGAN_TERMS = {p: POPULATION_TERMS[p][0] for p in ("suy_than", "suy_gan")}  # "clcr", "suy gan"
# Organ function states that the safety facets search for by the book's words.
POPULATION_CONDITIONS = {"suy_than": "suy thận", "suy_gan": "suy gan"}
