"""Mask phone numbers and national ID numbers typed into questions before they are stored."""

import re

# Vietnamese mobile/landline numbers: 0 or +84 then 9–10 digits, separators allowed.
_PHONE_RE = re.compile(r"(?<![\d,.])(?:\+?84|0)(?:[\s.-]?\d){8,10}(?!\d|[,.]\d)")
# CCCD (12 digits) and the old CMND (9 digits), written as one run of digits.
_NATIONAL_ID_RE = re.compile(r"(?<![\d,.])\b(?:\d{12}|\d{9})\b(?!\d|[,.]\d)")

PHONE_MASK = "[số điện thoại]"
ID_MASK = "[số CCCD/CMND]"


def mask_personal_numbers(text: str) -> str:
    text = _PHONE_RE.sub(PHONE_MASK, text)
    return _NATIONAL_ID_RE.sub(ID_MASK, text)
