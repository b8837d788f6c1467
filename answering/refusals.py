"""What a model says when it will not answer, and its sentence about what the book does not
say. Models open a refusal with a lead-in ("Theo các trích đoạn được cung cấp, không có thông
tin …", issue 20) as often as without; one function reads both. A book-gap sentence is kept in
the model's words only when no cited passage says what it calls missing."""

import re
from collections.abc import Sequence

from corpus.text import fold, words

# Folded. A lead-in: "theo …,", "dựa trên …,", "căn cứ vào …:", "sau khi xem …,".
_LEAD_IN = re.compile(
    r"^(?:(?:theo|dua (?:tren|vao)|can cu(?: vao| theo)?|trong|tu|sau khi (?:xem|doc|tra)(?: cuu)?|"
    r"voi|qua|ve)(?![a-z])[^,:.;]{0,90}[,:]\s*)+"
)
_GAP = (
    r"(?:duoc thu|sach|tai lieu|(?:cac |nhung )?(?:trich doan|doan trich|doan sach|bang chung|"
    r"nguon|du lieu)(?: duoc (?:cung cap|trich|dua ra))?)[^.;]{0,50}?"
    r"(?:khong|chua) (?:neu|co|de cap|noi|cung cap|ghi|dua ra|chua)"
    r"|(?:khong|chua) (?:co|tim thay|thay|du|neu|de cap)(?: (?:duoc|ro))? "
    r"(?:thong tin|du lieu|noi dung|bang chung|de cap|lieu|huong dan)"
)
_REFUSAL = re.compile(
    rf"^(?:xin loi|rat tiec|tiec la|toi (?:khong the|khong tim thay|khong co)|"
    rf"khong the (?:tra loi|xac dinh|tim|dua ra)|hien (?:khong|chua) co|{_GAP})"
)
_GAP_RE = re.compile(_GAP)
# Words that name no fact of their own in "Dược thư không nêu … về liều dùng của thuốc này".
_GENERIC = frozenset(
    "thong tin ve lieu dung luong cua thuoc nay cho trong truong hop benh nhan nguoi duoc va "
    "cac nhung viec su khi o tren duoi voi de den cu the ro rang nao gi hay hoac la co mot "
    "nhu the cach su dung".split()
)
_MAX_GAP_CHARS = 240


def is_refusal(text: str) -> bool:
    """A refusal, with or without a lead-in: "Xin lỗi, …", "Dược thư không nêu …", "Theo các
    trích đoạn được cung cấp, không có thông tin …"."""
    if not isinstance(text, str):
        return False
    first = re.split(r"(?<=[.!?])\s", fold(text).strip(), maxsplit=1)[0][:300]
    return bool(_REFUSAL.match(_LEAD_IN.sub("", first)))


def grounded_gap(text: str, evidence: Sequence[str]) -> str | None:
    """The model's book-gap sentence, if it is one and no passage says what it calls missing:
    no number (an absence cannot carry one), short, and no two of its fact words side by side
    (or its one fact word) in any passage — else None."""
    if not isinstance(text, str) or len(text) > _MAX_GAP_CHARS or re.search(r"\d", text):
        return None
    if re.search(r"<[^\s<>\d][^<>\d]*>", text):
        return None  # the gap rule's own placeholder, copied
    folded = _LEAD_IN.sub("", fold(text).strip())
    found = _GAP_RE.search(folded)
    if not found:
        return None
    subject = [w for w in words(folded[found.end() :]) if w not in _GENERIC]
    if not subject:
        return None
    said = [" ".join(words(passage)) for passage in evidence]
    probes = [" ".join(pair) for pair in zip(subject, subject[1:], strict=False)] or subject
    if any(f" {probe} " in f" {passage} " for probe in probes for passage in said):
        return None
    return text.strip()
