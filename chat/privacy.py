"""Mask phone numbers and national ID numbers typed into questions (and feedback) before they
are stored, in the forms Vietnamese users write them.

Phones: `0912 345 678`, `+84 912 345 678`, `(+84) 912…`, `+84 (0) 912…`, `(028) 3822 1234`,
`0912.345.678`, fullwidth digits; IDs: CCCD (12 digits) and CMND (9), as one run or in groups
(`001 234 567 890`, `001.234.567.890`, `123-456-789`), with or without a `CCCD`/`CMND` prefix.
A run is a personal number only with 9 to 12 digits and no unit after it: the book's doses
(`1 500 mg`, `10 000 000 đơn vị`, `0,5 - 1 g`, `4 - 6 giờ`) are never masked.
"""

import re

PHONE_MASK = "[số điện thoại]"
ID_MASK = "[số CCCD/CMND]"

_FULLWIDTH = str.maketrans("０１２３４５６７８９＋（）", "0123456789+()")
_PREFIX = r"(?:(?:cccd|cmnd|cmt|căn cước|sđt|sdt|đt|dt|số)\s*[:#.\-]?\s*)?"
_COUNTRY = r"(?:\(?\+\s?84\)?[\s.\-]{0,3}(?:\(0\)[\s.\-]{0,3})?)?"
_RUN = re.compile(
    rf"(?<![\w,.]){_PREFIX}{_COUNTRY}\(?\d(?:[\s.\-()]{{0,3}}\d)+(?![\w])",
    re.IGNORECASE,
)
# A unit after the run makes it a quantity, not a personal number.
_UNIT_AFTER = re.compile(
    r"\s*(?:mg|g\b|ml|kg|mcg|µg|microgam|nanogam|đv|đơn vị|iu|ui|%|lần|giờ|ngày|viên|tuổi|"
    r"tháng|tuần|mmol|mol|l\b|lít)",
    re.IGNORECASE,
)
_ID_WORD = re.compile(r"cccd|cmnd|cmt|căn cước", re.IGNORECASE)


def mask_personal_numbers(text: str) -> str:
    text = text.translate(_FULLWIDTH)

    def mask(match: re.Match[str]) -> str:
        found = match.group(0)
        digits = re.sub(r"\D", "", found)
        if not 9 <= len(digits) <= 12 or _UNIT_AFTER.match(text, match.end()):
            return found
        phone = "+" in found or (digits.startswith("0") and len(digits) in (10, 11))
        if _ID_WORD.search(found) or not phone:
            return ID_MASK
        return PHONE_MASK

    return _RUN.sub(mask, text)
