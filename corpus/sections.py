"""The fixed section keys of a monograph and how printed headings map onto them.

Headings in the conversion are OCR-damaged (`Ouá liều`, `Chỉ đinh`, `Tuong ky`, `Ð`),
so a heading is compared folded and with a small edit tolerance against each key's
printed forms. A heading that matches nothing is reported, never guessed.
"""

import functools
import re

from django.db.models import TextChoices
from rapidfuzz import fuzz

from corpus.text import folded_phrase


class SectionKey(TextChoices):
    """The one spelling of a monograph's sections, in the book's order, with their titles."""

    TEN_CHUNG_QUOC_TE = "ten_chung_quoc_te", "Tên chung quốc tế"
    MA_ATC = "ma_atc", "Mã ATC"
    LOAI_THUOC = "loai_thuoc", "Loại thuốc"
    DANG_THUOC_VA_HAM_LUONG = "dang_thuoc_va_ham_luong", "Dạng thuốc và hàm lượng"
    DUOC_LY_VA_CO_CHE_TAC_DUNG = "duoc_ly_va_co_che_tac_dung", "Dược lý và cơ chế tác dụng"
    DUOC_DONG_HOC = "duoc_dong_hoc", "Dược động học"
    CHI_DINH = "chi_dinh", "Chỉ định"
    CHONG_CHI_DINH = "chong_chi_dinh", "Chống chỉ định"
    THAN_TRONG = "than_trong", "Thận trọng"
    THOI_KY_MANG_THAI = "thoi_ky_mang_thai", "Thời kỳ mang thai"
    THOI_KY_CHO_CON_BU = "thoi_ky_cho_con_bu", "Thời kỳ cho con bú"
    TAC_DUNG_KHONG_MONG_MUON = "tac_dung_khong_mong_muon", "Tác dụng không mong muốn (ADR)"
    HUONG_DAN_CACH_XU_TRI_ADR = "huong_dan_cach_xu_tri_adr", "Hướng dẫn cách xử trí ADR"
    LIEU_LUONG_VA_CACH_DUNG = "lieu_luong_va_cach_dung", "Liều lượng và cách dùng"
    TUONG_TAC_THUOC = "tuong_tac_thuoc", "Tương tác thuốc"
    TUONG_KY = "tuong_ky", "Tương kỵ"
    DO_ON_DINH_VA_BAO_QUAN = "do_on_dinh_va_bao_quan", "Độ ổn định và bảo quản"
    QUA_LIEU_VA_XU_TRI = "qua_lieu_va_xu_tri", "Quá liều và xử trí"
    THONG_TIN_QUY_CHE = "thong_tin_quy_che", "Thông tin quy chế"
    TEN_THUONG_MAI = "ten_thuong_mai", "Tên thương mại"


SECTION_KEYS: tuple[str, ...] = tuple(SectionKey.values)
SECTION_TITLES: dict[str, str] = dict(SectionKey.choices)

S = SectionKey
# The roles sections play, each defined once (issue 17); an answer or a search names a role,
# never its own list of keys.
# Where a pharmacist looks for a patient's situation, contraindications first: the
# Ringer-lactate/calcium warning sits in Liều lượng, alcohol in Tương tác thuốc.
SITUATION_SECTIONS: tuple[SectionKey, ...] = (
    S.CHONG_CHI_DINH,
    S.THAN_TRONG,
    S.THOI_KY_MANG_THAI,
    S.THOI_KY_CHO_CON_BU,
    # "Homatropin dùng trong viêm màng bồ đào cấp được không?": an indication that says the
    # condition answers yes, ahead of the dose paragraph headed by it.
    S.CHI_DINH,
    S.LIEU_LUONG_VA_CACH_DUNG,
    S.TUONG_TAC_THUOC,
    S.TUONG_KY,
    S.DO_ON_DINH_VA_BAO_QUAN,
    S.QUA_LIEU_VA_XU_TRI,
    S.TAC_DUNG_KHONG_MONG_MUON,
)
# Where an effect asked about ("có gây …") is said: an ADR, a caution, an overdose sign.
EFFECT_SECTIONS = (S.TAC_DUNG_KHONG_MONG_MUON, S.THAN_TRONG, S.CHONG_CHI_DINH, S.QUA_LIEU_VA_XU_TRI)
# Shown as warnings on the card (a block's kind comes from its chunk's section).
WARNING_SECTIONS = frozenset(
    {
        S.CHONG_CHI_DINH,
        S.THAN_TRONG,
        S.TUONG_TAC_THUOC,
        S.TUONG_KY,
        S.QUA_LIEU_VA_XU_TRI,
        S.THOI_KY_MANG_THAI,
        S.THOI_KY_CHO_CON_BU,
        S.TAC_DUNG_KHONG_MONG_MUON,
    }
)
DOSAGE_SECTIONS = frozenset({S.LIEU_LUONG_VA_CACH_DUNG})
# Where one drug's monograph names another it must not be given with, or mixed with in one
# infusion ("không trộn acid tranexamic và heparin vào cùng một dung dịch").
PAIR_SECTIONS = (
    S.TUONG_TAC_THUOC,
    S.CHONG_CHI_DINH,
    S.THAN_TRONG,
    S.TUONG_KY,
    S.DO_ON_DINH_VA_BAO_QUAN,
    # One given for the other's harm (omeprazol's "dự phòng … loét do thuốc chống viêm
    # không steroid" beside diclofenac).
    S.CHI_DINH,
)
# What "X là thuốc gì" is answered with.
OVERVIEW_SECTIONS = (S.TEN_CHUNG_QUOC_TE, S.LOAI_THUOC, S.CHI_DINH, S.DUOC_LY_VA_CO_CHE_TAC_DUNG)
# Sections whose words are also the names of conditions a patient has (ADRs, overdose).
CONDITION_SECTIONS = frozenset(
    {S.TAC_DUNG_KHONG_MONG_MUON, S.HUONG_DAN_CACH_XU_TRI_ADR, S.QUA_LIEU_VA_XU_TRI}
)
# Sections no patient "has": their words after "người"/"bị" are part of a condition's name
# ("người rối loạn chuyển hóa porphyrin" is not a question about Dược động học).
NOT_A_PATIENTS_SECTIONS = frozenset(
    {S.DUOC_DONG_HOC, S.DUOC_LY_VA_CO_CHE_TAC_DUNG, S.DANG_THUOC_VA_HAM_LUONG}
)
# Where a population asked about as the patient's situation is looked for beyond Chống chỉ
# định: not the dose paragraphs (every dose section names children), not interactions, not
# pregnancy and breast-feeding (their "sơ sinh" is the mother's baby, not the patient).
POPULATION_SITUATION_SECTIONS = (S.THAN_TRONG, S.TAC_DUNG_KHONG_MONG_MUON)
# The patient's own sections: a pregnant or breast-feeding patient's lines.
PATIENT_SECTIONS = {
    "phu_nu_mang_thai": S.THOI_KY_MANG_THAI,
    "cho_con_bu": S.THOI_KY_CHO_CON_BU,
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


@functools.lru_cache(maxsize=4096)
def section_key_for_heading(heading: str) -> tuple[str | None, str]:
    """Map a printed heading to (section key, trailing label) or (None, heading).

    A heading may carry a label after the section title
    (`**Tác dụng không mong muốn (ADR)** *Uống:*`); the label is returned with the key.
    The book prints the same few dozen headings in every monograph: each is matched once.
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
            if score < _MATCH_THRESHOLD:
                continue
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
