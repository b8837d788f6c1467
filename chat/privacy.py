"""Mask phone numbers and national ID numbers typed into questions (and feedback) before they
are stored, in the forms Vietnamese users write them.

Phones, by their shape: a mobile is 0 + [35789] + 8 digits, a landline 02 + 9 digits, either
with `+84`, `(+84)`, `0084` or `+84 (0)` for the leading 0, grouped by spaces, dots, dashes or
brackets (`0912 345 678`, `(028) 3822 1234`), fullwidth digits too; masked wherever they stand
(after "Tel." or "BN," or a letter) and whatever word follows ("gọi 0912345678 ngày mai").
IDs: CCCD (12 digits) and CMND (9), as one run or in groups (`001 234 567 890`,
`001.234.567.890`, `123-456-789`), with or without a `CCCD`/`CMND` prefix, and only with no
unit or `/` after them. Never masked: the book's doses and ranges (`1 500 mg`,
`10 000 000 đơn vị`, `150 000 - 200 000/ngày`, `0,5 - 1 g`) and dates (`05.12.2024 10.30`).
"""

import re

PHONE_MASK = "[số điện thoại]"
ID_MASK = "[số CCCD/CMND]"

_FULLWIDTH = str.maketrans("０１２３４５６７８９＋（）", "0123456789+()")
_SEP = r"[\s.\-()]{0,3}"
_COUNTRY = rf"\(?(?:\+\s?|00)84\)?{_SEP}(?:\(0\){_SEP})?"
_NATIONAL = rf"(?:[35789](?:{_SEP}\d){{8}}|2(?:{_SEP}\d){{9}})"
# Not inside a longer number, nor the decimals of one ("2,0912345678").
_PHONE = re.compile(
    rf"(?<!\d)(?<!\d[.,])(?:{_COUNTRY}|\(?0{_SEP}){_NATIONAL}(?!\d)(?![.,]\d)", re.IGNORECASE
)
_PREFIX = r"(?:(?:cccd|cmnd|cmt|căn cước|sđt|sdt|đt|dt|số)\s*[:#.\-]?\s*)?"
_RUN = re.compile(
    rf"(?<![\w,.]){_PREFIX}\(?\d(?:[\s.\-()]{{0,3}}\d)+(?![\w])",
    re.IGNORECASE,
)
# A unit after a number makes it a quantity; only a dose unit after a phone's shape does.
_UNIT_AFTER = re.compile(
    r"\s*(?:/|mg|g\b|ml|kg|mcg|µg|microgam|nanogam|đv|đơn vị|iu|ui|%|lần|giờ|ngày|viên|tuổi|"
    r"tháng|tuần|mmol|mol|l\b|lít|đồng|vnđ|vnd|đ\b)",
    re.IGNORECASE,
)
_DOSE_AFTER = re.compile(
    r"\s*(?:/\s*kg|mg|g\b|ml|kg|mcg|µg|microgam|nanogam|đv|đơn vị|iu\b|ui\b|mmol|viên)",
    re.IGNORECASE,
)
_DATE = re.compile(r"\d{1,2}[./\-]\d{1,2}[./\-](?:19|20)\d{2}|(?:19|20)\d{2}-\d{1,2}-\d{1,2}")
# Ranges are written with a spaced dash; an ID's groups never are.
_RANGE = re.compile(r"\s[-–]\s")
_ID_WORD = re.compile(r"cccd|cmnd|cmt|căn cước", re.IGNORECASE)


def mask_personal_numbers(text: str) -> str:
    text = text.translate(_FULLWIDTH)

    def phone(match: re.Match[str]) -> str:
        found = match.group(0)
        if _DATE.search(found) or _DOSE_AFTER.match(match.string, match.end()):
            return found
        return PHONE_MASK

    text = _PHONE.sub(phone, text)

    def identity(match: re.Match[str]) -> str:
        found = match.group(0)
        digits = re.sub(r"\D", "", found)
        if (
            not 9 <= len(digits) <= 12
            or _UNIT_AFTER.match(match.string, match.end())
            or _DATE.search(found)
            or _RANGE.search(found)
        ):
            return found
        return ID_MASK

    return _RUN.sub(identity, text)
