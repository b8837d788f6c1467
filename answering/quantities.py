"""The numbers of a ward question, read once: weight, age, gestational age, durations, labs, doses.

Matching runs on the folded question, which keeps the length of NFC Vietnamese, so a reading
keeps the words as typed. A number is read as one thing, by the words around it: a lab name or
a pregnancy word before it, its unit (kg, tuổi, ngày, mg), a weight or person word before it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from corpus.text import diacritics_agree, fold, nfc

_MAX_CHARS = 20_000
# Unit words after a number (folded) -> (what the number is, the reading's unit).
_UNITS: dict[str, tuple[str, str]] = {
    word: (kind, unit)
    for kind, unit, words in (
        ("weight", "kg", "kg|ky|ki|ki lo|kilo|kilogam|kilogram"), ("gram", "kg", "g|gam|gram"),
        ("dose", "", "mg|mcg|microgam|microgram|ml|ui|iu|don vi|vien|ong|goi"),
        ("age", "nam", "tuoi|nam tuoi|t"), ("age_half", "nam", "tuoi ruoi"),
        ("age", "thang", "thang tuoi|th"), ("age", "tuan", "tuan tuoi"), ("age", "ngay", "ngay tuoi"),
        ("age", "gio", "gio tuoi"), ("time", "nam", "nam"), ("time", "thang", "thang"),
        ("time", "tuan", "tuan"), ("time", "ngay", "ngay|hom"), ("time", "gio", "gio|tieng|h"),
    )
    for word in words.split("|")
}  # fmt: skip
_PERSONS = (
    "bé|bé trai|bé gái|cháu|cháu bé|trẻ|trẻ em|trẻ sơ sinh|sơ sinh|con|cụ|cụ ông|cụ bà|ông|bà|bn|"
    "bệnh nhân|bệnh nhi|người bệnh|nam|nữ|anh|chị|sản phụ|thai phụ"
).split("|")
_WEIGHT_WORDS = ("cân nặng", "nặng", "cân", "cn", "trọng lượng")
# Folded words typed with other diacritics are other words ("còn 3 ngày", "cần 20", "2 ông").
_CUE_SPELLINGS = {fold(w): w for w in (*_PERSONS, *_WEIGHT_WORDS)}
_UNIT_SPELLINGS = {"ong": "ống"}
# Pregnancy words before "N tuần" -> the fewest weeks they can mean: "sơ sinh 32 tuần" is a
# preterm newborn's gestation, as the book's bands print it; "sơ sinh 2 tuần" is an age.
_PREGNANCY_CUES = {"so sinh": 22} | dict.fromkeys(
    "tuoi thai|thai ky|thai nhi|mang thai|co thai|thai|thai phu|san phu|de non|sinh non|co bau|mang bau|bau".split("|"), 0)  # fmt: skip
_DURATION_CUES = "ngung|dung|uong|tiem|da|sau|cach|cach day|truoc|tu|trong|duoc|nay|keo dai|lien tuc|khoang|x"  # fmt: skip
# Lab key -> (card label, plausible values, folded spellings). The ranges keep "k 3 ngày"
# (không) and "na 5" from being read as labs.
_LABS: dict[str, tuple[str, float, float, str]] = {
    "clcr": ("Clcr", 0, 250, "clcr|crcl|cl cr|cr cl|do thanh thai creatinin|do thanh thai creatinine|thanh thai creatinin|do thanh thai"),
    "egfr": ("eGFR", 0, 250, "egfr|gfr|mlct|muc loc cau than"),
    "creatinin": ("Creatinin", 0, 3000, "creatinin|creatinine|creatinin mau|creat|crea|cre|cr|scr"),
    "inr": ("INR", 0.5, 20, "inr"),
    "kali": ("Kali", 1, 10, "kali|kali mau|k+|k"),
    "natri": ("Natri", 90, 200, "natri|natri mau|na+|na"),
    "glucose": ("Glucose", 0.5, 1500, "glucose|glucose mau|duong huyet|duong mau|glu"),
    "hba1c": ("HbA1c", 3, 25, "hba1c|hb a1c|a1c"),
    "ast": ("AST", 0, 20000, "ast|sgot|got"),
    "alt": ("ALT", 0, 20000, "alt|sgpt|gpt"),
    "tieu_cau": ("Tiểu cầu", 0, 2_000_000, "tieu cau|tc|plt"),
}  # fmt: skip
_LAB_KEYS = {word: key for key, (*_, words) in _LABS.items() for word in words.split("|")}
_AGE_WORDS = dict(nam="tuổi", thang="tháng", tuan="tuần tuổi", ngay="ngày tuổi", gio="giờ tuổi")
_TIME_WORDS = dict(nam="năm", thang="tháng", tuan="tuần", ngay="ngày", gio="giờ")
_MONTHS = dict(nam=12.0, thang=1.0, tuan=1 / 4.345, ngay=1 / 30.44, gio=1 / 730.56)
_OLDEST_MONTHS = 130 * 12


def _alt(words: Iterable[str]) -> str:
    """Folded phrases as one alternation, longest first, any run of spaces between words."""
    ordered = sorted({fold(w) for w in words}, key=len, reverse=True)
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in ordered)


# Words between a lab's name and its value ("INR hôm nay 1,3", "glucose đói 3.8").
_LAB_QUALIFIERS = "hom nay|sang nay|sang|toi|doi|luc doi|tang len|tang|giam con|giam|len|con|chi con|mau|hien tai|gan nhat|khoang|xap xi|do duoc|luc vao|khi vao|luc nhap vien|tinh ra|tinh duoc|uoc tinh|uoc"
_TRIMESTER_AFTER = re.compile(r"\s*(?:dau|giua|cuoi)(?![a-z])")
_WEIGHT_CHANGE = re.compile(r"(?<![a-z])(?:sut|giam|tang|len|xuong|mat)\s*$")  # "sụt 5 ký": a loss
# fmt: off
_B, _E = r"(?<![a-z])", r"(?![a-z])"  # word edges on the folded text
_P = _alt(_PERSONS)
_NUMBER = re.compile(r"(?<![\d.,])\d{1,7}(?:[.,]\d+)?(?!\d)")  # not a phone or an id
_AFTER = re.compile(rf"(?:\s*(?:-|–|den|toi)\s*(?P<hi>\d+(?:[.,]\d+)?))?\s*(?P<w>{_alt(_UNITS)}){_E}")
_LAB_BEFORE = re.compile(rf"(?<![a-z0-9])(?P<w>{_alt(_LAB_KEYS)})\s*(?:\([^)]{{0,15}}\)\s*)?(?:(?:{_LAB_QUALIFIERS}){_E}\s*)*(?:[=:~<>]|la{_E})?\s*$")
# A lab's name a few words before its value, told as a result ("INR của BN uống warfarin về
# 5,6", "kali máu sáng nay đo được là 6,1"), never as a target ("INR mục tiêu là 2,5"); only
# the names of three letters or more ("k", "na", "cr" are other words).
_LAB_FAR = re.compile(rf"(?<![a-z0-9])(?P<w>{_alt(w for w in _LAB_KEYS if len(w) >= 3)}){_E}(?P<between>(?:\s+[a-z]+){{1,6}}?)\s+(?:ve|la|len|xuong|con|dat)\s*[=:]?\s*$")
_TARGET = re.compile(rf"{_B}(?:muc tieu|dich|can dat|nen|phai|duoi|tren|toi da|toi thieu){_E}")
_THOUSANDS = re.compile(r"\d{1,3}(?:[ .]\d{3})+(?![\d]|[.,]\d)")
_PREGNANCY_BEFORE = re.compile(rf"{_B}(?P<w>{_alt(_PREGNANCY_CUES)})[\s,:]*(?:(?:duoc|khoang|la|da)\s+)*(?P<nth>tuan\s+thu\s*)?$")
_PERSON_BEFORE = re.compile(rf"{_B}(?:(?:{_P})[\s,]+)*(?P<w>{_P})[\s,:]*$")
_WEIGHT_BEFORE = re.compile(rf"{_B}(?<!vien\s)(?P<w>{_alt(_WEIGHT_WORDS)})\s*(?:[:=~]|la|khoang)?\s*$")
_GRAM_CUE = re.compile(rf"{_B}(?:{_P}|{_alt(_WEIGHT_WORDS)}|sinh){_E}")
_DURATION_CUE = re.compile(rf"{_B}(?:{_alt(_DURATION_CUES.split('|'))}){_E}")
_AFTER_CUE = re.compile(rf"\s*(?:truoc|nay|roi|qua){_E}")
# A frequency ("mỗi 8 giờ", "8 giờ/lần", "2 ngày 1 lần") or a time of day ("lúc 8 giờ sáng").
_FREQUENCY_BEFORE = re.compile(rf"(?:{_B}(?:moi|cu|q|luc|vao)|/)\s*$")
_FREQUENCY_AFTER = re.compile(rf"\s*(?:/|(?:\d+|mot)?\s*l(?:an)?{_E}|(?:sang|chieu|toi|dem|trua){_E}|[:h]?\d)")
_PER = re.compile(r"\s*/")  # "kg/ngày", "mg/kg": a dose, not a weight
_LAB_UNIT = re.compile(rf"\s*/\s*(?:ph|phut|min|dl|l|mmol){_E}")  # "40 ml/ph", "90 g/l"
_DOSE_TAIL = re.compile(
    rf"(?:\s*/\s*(?:kg|ngay|lan|lieu|24\s*h|24\s*gio|m2){_E})*"  # "mg/kg/ngày"
    rf"(?:\s*[x×*]\s*\d+(?![\d.,])(?!\s*(?:ngay|tuan|thang|gio|nam){_E})(?:\s*l(?:an)?{_E})?|\s*\d+\s*l(?:an)?{_E})?"  # "x 2 lần", not "x 7 ngày"
    rf"(?:\s*/\s*ngay|\s+(?:mot|1|trong|moi)\s+ngay)?{_E}"  # "/ngày", "một ngày"
)
# What may not follow a bare number read as an age or a weight ("ông 70%", "nặng 20 lần").
_BARE_BLOCK = re.compile(rf"\s*(?:[%/+°x×*]|[.,]\d|(?:cm|mm|m|l|lit|lan|do|goi|giot|lieu|mmhg|mmol|k){_E})")
_MONTHS_AFTER = re.compile(rf"\s+(\d{{1,2}})\s*thang{_E}(?!\s*(?:tuoi|nay|truoc|roi|qua))")
_NEWBORN = re.compile(rf"{_B}(?<!doa\s)(?:so\s+sinh|de\s+non|sinh\s+non){_E}")
_MOTHER = re.compile(rf"{_B}(?:san phu|thai phu|mang thai|co thai|doa\s+(?:de|sinh)){_E}")
_AGE_TEXT = re.compile(rf"tuoi(?!\s+thai)|\d\s*th?{_E}|^(?:{_P}){_E}")
_PREGNANCY_TEXT = re.compile(r"thai|non\s+(?:tuan\s+thu\s+)?\d")
# fmt: on


def _float(number: str) -> float:
    return float(number.replace(" ", "").replace(",", "."))


def _book_number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".").replace(".", ",")


@dataclass(frozen=True)
class Reading:
    value: float
    unit: str  # ages, durations: nam | thang | tuan | ngay | gio; weights kg; pregnancy tuan
    text: str  # the words it came from, as typed
    high: float | None = None  # the upper end of a range ("10-12kg")

    @property
    def book(self) -> str:
        """The value as the book prints it: "12,5 kg", "82 tuổi", "3 tuần tuổi", "1 tuần"."""
        number = _book_number(self.value)
        if self.high is not None:
            number += f" - {_book_number(self.high)}"
        if self.unit == "kg":
            return f"{number} kg"
        if self.unit == "ngay" and self.value == 0:
            return "sơ sinh"
        text = fold(self.text).strip()
        if _AGE_TEXT.search(text) and not _PREGNANCY_TEXT.search(text):
            return f"{number} {_AGE_WORDS.get(self.unit, self.unit)}"
        return f"{number} {_TIME_WORDS.get(self.unit, self.unit)}"


@dataclass(frozen=True)
class Quantities:
    weight: Reading | None
    age: Reading | None
    pregnancy_weeks: Reading | None
    durations: tuple[Reading, ...] = ()
    labs: tuple[tuple[str, str, str], ...] = ()  # (key, value as the book writes it, text)
    doses: tuple[str, ...] = ()  # as typed

    @property
    def weight_kg(self) -> float | None:
        return self.weight.value if self.weight else None

    @property
    def age_months(self) -> float | None:
        return self.age.value * _MONTHS.get(self.age.unit, 1.0) if self.age else None

    @property
    def elderly(self) -> bool:
        return self.age_months is not None and self.age_months >= 60 * 12

    def summary(self) -> dict[str, object]:
        """The readings as JSON, only those the question gives."""
        out: dict[str, object] = {
            "weight_kg": self.weight_kg,
            "weight_text": self.weight.book if self.weight else None,
            "age_text": self.age.book if self.age else None,
            "age_months": self.age_months,
            "pregnancy_weeks": self.pregnancy_weeks.value if self.pregnancy_weeks else None,
            "durations": [d.book for d in self.durations],
            "labs": {key: value for key, value, _ in self.labs},
            "doses": list(self.doses),
        }
        return {key: value for key, value in out.items() if value not in (None, [], {})}

    def understood(self) -> list[str]:
        """What was read, for the card, in the book's notation."""
        lines = [f"Cân nặng: {self.weight.book}"] if self.weight else []
        lines += [f"Tuổi: {self.age.book}"] if self.age else []
        lines += [f"Tuổi thai: {self.pregnancy_weeks.book}"] if self.pregnancy_weeks else []
        lines += [f"{_LABS[key][0]}: {value}" for key, value, _ in self.labs]
        lines += [f"Thời gian: {d.book}" for d in self.durations]
        return lines + [f"Liều đang dùng: {dose}" for dose in self.doses]

    def sources(self) -> list[str]:
        """The words each line of `understood()` was read from, as typed, in the same order."""
        read = [r.text for r in (self.weight, self.age, self.pregnancy_weeks) if r is not None]
        read += [text for _, _, text in self.labs]
        read += [d.text for d in self.durations]
        return read + list(self.doses)


@dataclass(frozen=True)
class _Hit:
    kind: str  # weight | age | person_age | pregnancy | duration | lab | dose
    value: float
    unit: str  # the reading's unit; a lab's key
    start: int
    end: int  # of the words read, where reading goes on
    high: float | None = None
    lab_value: str = ""


def _spelled(
    match: re.Match[str] | None, spellings: dict[str, str], src: str, base: int = 0
) -> re.Match[str] | None:
    """The match, if its word `w` was typed with the diacritics of the word it folds to."""
    if match is None:
        return None
    spelling = spellings.get(" ".join(match["w"].split()))
    typed = src[base + match.start("w") : base + match.end("w")].lower()
    return match if spelling is None or diacritics_agree(typed, spelling) else None


def _read_number(f: str, src: str, m: re.Match[str]) -> _Hit | None:
    """What one number of the folded question `f` is, from the words around it."""
    start, token, value = m.start(), m.group(), _float(m.group())
    before = f[max(0, start - 60) : start]
    base = start - len(before)
    after = _spelled(_AFTER.match(f, m.end()), _UNIT_SPELLINGS, src)
    kind, unit = _UNITS[" ".join(after["w"].split())] if after else ("", "")
    high = _float(after["hi"]) if after and after["hi"] else None
    end = after.end() if after else m.end()
    lab = _LAB_BEFORE.search(before)
    far = _LAB_FAR.search(before) if lab is None else None
    lab = far if far and not _TARGET.search(far["between"]) else lab
    # "glucose 5%", "kali clorid 10%": a fluid's strength, not the patient's lab (HbA1c is a %).
    percent = f[m.end() : m.end() + 2].lstrip().startswith("%")
    if lab and percent and _LAB_KEYS[" ".join(lab["w"].split())] != "hba1c":
        lab = None
    if lab and kind not in ("weight", "age", "age_half", "time"):
        key = _LAB_KEYS[" ".join(lab["w"].split())]
        _, low, top, _ = _LABS[key]
        grouped = _THOUSANDS.match(f, start)
        plain = (token, token.replace(".", ","))
        joined = (grouped.group(), re.sub(r"[ .]", "", grouped.group())) if grouped else plain
        # "150 000" is one number; "1.500" is 1500 only for platelets, else 1,5
        first = key == "tieu_cau" or " " in joined[0]
        for typed, book in (joined, plain) if first else (plain, joined):
            if low <= _float(book) <= top:
                lab_end = start + len(typed)
                return _Hit("lab", _float(book), key, base + lab.start(), lab_end, None, book)
    pregnancy = _PREGNANCY_BEFORE.search(before)
    if kind == "time" and unit == "thang" and _TRIMESTER_AFTER.match(f, end):
        return None  # "3 tháng cuối": a trimester, said in the book's own words, not weeks
    if pregnancy and (pregnancy["nth"] or (kind == "time" and unit in ("tuan", "thang"))):
        weeks = value if pregnancy["nth"] or unit == "tuan" else float(round(value * 4.345))
        cue = " ".join(pregnancy["w"].split())
        if _PREGNANCY_CUES[cue] <= weeks <= 45:
            text_start = start if cue == "so sinh" else base + pregnancy.start()
            text_end = m.end() if pregnancy["nth"] else end
            return _Hit("pregnancy", weeks, "tuan", text_start, text_end)
    if kind == "gram":
        grams = _float(token.replace(".", "")) if re.fullmatch(r"\d{1,2}\.\d{3}", token) else value
        if grams >= 300 and not _PER.match(f, end) and _GRAM_CUE.search(before[-40:]):
            kind, value, high = "weight", grams / 1000, high / 1000 if high else None
        else:
            kind = "dose"
    if kind == "weight":
        ok = 0.3 <= value <= 500 and not _PER.match(f, end) and not _WEIGHT_CHANGE.search(before)
        return _Hit("weight", value, "kg", start, end, high) if ok else None
    if kind in ("age", "age_half"):
        if kind == "age_half":
            value += 0.5
        elif unit == "nam" and (months := _MONTHS_AFTER.match(f, end)):
            value, end = value + int(months.group(1)) / 12, months.end()
        ok = value * _MONTHS[unit] <= _OLDEST_MONTHS
        return _Hit("age", value, unit, start, end, high) if ok else None
    if kind == "dose":
        tail = _DOSE_TAIL.match(f, end)
        dose_end = tail.end() if tail else end
        return None if _LAB_UNIT.match(f, end) else _Hit("dose", value, "", start, dose_end, high)
    person = _spelled(_PERSON_BEFORE.search(before), _CUE_SPELLINGS, src, base)
    if kind == "time":
        # "tháng 10" after a number is a date, except right after a person ("bé 18 tháng 10 kg").
        if _FREQUENCY_BEFORE.search(before) or (person is None and _FREQUENCY_AFTER.match(f, end)):
            return None
        window = before[-30:]
        cues = [len(window) - c.end() for c in _DURATION_CUE.finditer(window)]
        nearer = person is not None and bool(cues) and cues[-1] < len(before) - person.end("w")
        if person is None or nearer or _AFTER_CUE.match(f, end):
            return _Hit("duration", value, unit, start, end, high)
        ok = value * _MONTHS[unit] <= _OLDEST_MONTHS
        return _Hit("person_age", value, unit, base + person.start(), end, high) if ok else None
    if kind or _BARE_BLOCK.match(f, m.end()):
        return None
    weight = _spelled(_WEIGHT_BEFORE.search(before), _CUE_SPELLINGS, src, base)
    if weight and 0.3 <= value <= 500:
        return _Hit("weight", value, "kg", base + weight.start(), m.end())
    if person and value <= 120:
        return _Hit("person_age", value, "nam", base + person.start(), m.end())
    return None


def read_quantities(question: str) -> Quantities:
    """The weight, age, gestational age, durations, labs and doses a question states."""
    typed = nfc(question if isinstance(question, str) else "")[:_MAX_CHARS]
    f = fold(typed)
    src = typed if len(f) == len(typed) else f
    found: dict[str, list[Reading]] = defaultdict(list)
    labs: dict[str, tuple[str, str, str]] = {}
    cursor = 0
    for m in _NUMBER.finditer(f):
        if m.start() >= cursor and (hit := _read_number(f, src, m)):
            cursor, text = hit.end, src[hit.start : hit.end]
            found[hit.kind].append(Reading(hit.value, hit.unit, text, hit.high))
            if hit.kind == "lab":
                labs.setdefault(hit.unit, (hit.unit, hit.lab_value, text))
    ages = found["age"] + found["person_age"]
    newborn = _NEWBORN.search(f)
    if not ages and newborn and not _MOTHER.search(f):
        ages = [Reading(0.0, "ngay", src[newborn.start() : newborn.end()])]
    return Quantities(
        weight=next(iter(found["weight"]), None),
        age=next(iter(ages), None),
        pregnancy_weeks=next(iter(found["pregnancy"]), None),
        durations=tuple(found["duration"]),
        labs=tuple(labs.values()),
        doses=tuple(dict.fromkeys(dose.text for dose in found["dose"])),
    )
