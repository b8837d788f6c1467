"""The fixed section keys of a monograph and how printed headings map onto them.

Headings in the conversion are OCR-damaged (`Ouá liều`, `Chỉ đinh`, `Tuong ky`, `Ð`),
so a heading is compared folded and with a small edit tolerance against each key's
printed forms. A heading that matches nothing is reported, never guessed.
"""

import re

from rapidfuzz import fuzz

from corpus.text import folded_phrase

SECTION_KEYS: tuple[str, ...] = (
    "ten_chung_quoc_te",
    "ma_atc",
    "loai_thuoc",
    "dang_thuoc_va_ham_luong",
    "duoc_ly_va_co_che_tac_dung",
    "duoc_dong_hoc",
    "chi_dinh",
    "chong_chi_dinh",
    "than_trong",
    "thoi_ky_mang_thai",
    "thoi_ky_cho_con_bu",
    "tac_dung_khong_mong_muon",
    "huong_dan_cach_xu_tri_adr",
    "lieu_luong_va_cach_dung",
    "tuong_tac_thuoc",
    "tuong_ky",
    "do_on_dinh_va_bao_quan",
    "qua_lieu_va_xu_tri",
    "thong_tin_quy_che",
    "ten_thuong_mai",
)

SECTION_TITLES: dict[str, str] = {
    "ten_chung_quoc_te": "Tên chung quốc tế",
    "ma_atc": "Mã ATC",
    "loai_thuoc": "Loại thuốc",
    "dang_thuoc_va_ham_luong": "Dạng thuốc và hàm lượng",
    "duoc_ly_va_co_che_tac_dung": "Dược lý và cơ chế tác dụng",
    "duoc_dong_hoc": "Dược động học",
    "chi_dinh": "Chỉ định",
    "chong_chi_dinh": "Chống chỉ định",
    "than_trong": "Thận trọng",
    "thoi_ky_mang_thai": "Thời kỳ mang thai",
    "thoi_ky_cho_con_bu": "Thời kỳ cho con bú",
    "tac_dung_khong_mong_muon": "Tác dụng không mong muốn (ADR)",
    "huong_dan_cach_xu_tri_adr": "Hướng dẫn cách xử trí ADR",
    "lieu_luong_va_cach_dung": "Liều lượng và cách dùng",
    "tuong_tac_thuoc": "Tương tác thuốc",
    "tuong_ky": "Tương kỵ",
    "do_on_dinh_va_bao_quan": "Độ ổn định và bảo quản",
    "qua_lieu_va_xu_tri": "Quá liều và xử trí",
    "thong_tin_quy_che": "Thông tin quy chế",
    "ten_thuong_mai": "Tên thương mại",
}

SECTION_ORDER: dict[str, int] = {key: index for index, key in enumerate(SECTION_KEYS)}

# Printed variants seen in the book besides the title itself (folded when compared).
_VARIANTS: dict[str, tuple[str, ...]] = {
    "duoc_ly_va_co_che_tac_dung": ("Dược lý học và cơ chế tác dụng",),
    "tac_dung_khong_mong_muon": ("Tác dụng không mong muốn",),
    "qua_lieu_va_xu_tri": ("Quá liều và cách xử trí",),
    "thong_tin_quy_che": ("Thông tin về qui chế", "Thông tin qui chế", "Thông tin về quy chế"),
    "huong_dan_cach_xu_tri_adr": ("Hướng dẫn xử trí ADR",),
    "lieu_luong_va_cach_dung": ("Liều lượng và cách sử dụng", "Cách dùng và liều lượng"),
}

# 88 on rapidfuzz's ratio accepts one or two OCR slips in a heading of 10+ letters
# (`oua lieu va xu tri`, `tuong ky` from `Turong ky` scores 94) and rejects sub-labels
# such as `lieu luong` (58 against `lieu luong va cach dung`).
_MATCH_THRESHOLD = 88.0

_FORMS: list[tuple[str, str]] = sorted(
    [(folded_phrase(title), key) for key, title in SECTION_TITLES.items()]
    + [(folded_phrase(v), key) for key, vs in _VARIANTS.items() for v in vs],
    key=lambda item: -len(item[0]),
)


def section_key_for_heading(heading: str) -> tuple[str | None, str]:
    """Map a printed heading to (section key, trailing label) or (None, heading).

    A heading may carry a label after the section title
    (`**Tác dụng không mong muốn (ADR)** *Uống:*`); the label is returned with the key.
    """
    folded_words = folded_phrase(heading).split()
    best: tuple[float, str, str] | None = None
    for form, key in _FORMS:
        form_words = form.split()
        if len(folded_words) < len(form_words):
            score = fuzz.ratio(" ".join(folded_words), form)
            label = ""
        else:
            score = fuzz.ratio(" ".join(folded_words[: len(form_words)]), form)
            label = _label_after(heading, len(form_words))
            if label and score < _PREFIX_THRESHOLD:
                continue
        if score >= _MATCH_THRESHOLD and (best is None or score > best[0]):
            best = (score, key, label)
    if best is None:
        return None, heading
    return best[1], best[2]


_PREFIX_THRESHOLD = 95.0
_TOKEN_RE = re.compile(r"[0-9A-Za-zÀ-ỹĐđÐ]+")


def _label_after(heading: str, n_words: int) -> str:
    """The printed text after the first n words of a heading, markup removed."""
    tokens = list(_TOKEN_RE.finditer(heading))
    if len(tokens) <= n_words:
        return ""
    tail = heading[tokens[n_words].start() :]
    return tail.replace("*", "").strip().strip(":").strip()
