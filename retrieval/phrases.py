"""Which section a question asks for, and its population and route cues, from a phrase table.

Measured on the predecessor: letting vector similarity pick the section gave hit@1 0.544
overall and 0.05 on chong_chi_dinh. So a phrase table decides, matched on folded text at
word boundaries; the longest phrase wins across all sections (`chống chỉ định` before
`chỉ định`, `quá liều` before `liều`); no match returns None — this layer never guesses.
Adding a phrasing is adding an entry below.
"""

import re
from dataclasses import dataclass

from corpus.sections import SectionKey
from corpus.text import diacritics_agree, folded_phrase, typed_words
from retrieval.situations import NOT_A_POPULATION, POPULATION_PHRASES, ROUTE_PHRASES

SECTION_PHRASES: dict[str, tuple[str, ...]] = {
    SectionKey.TEN_CHUNG_QUOC_TE: ("tên chung quốc tế", "tên quốc tế", "tên inn", "inn"),
    SectionKey.MA_ATC: ("mã atc", "atc"),
    SectionKey.LOAI_THUOC: (
        "loại thuốc",
        "nhóm thuốc",
        "thuộc nhóm",
        "nhóm gì",
        "nhóm nào",
        "thuộc loại",
    ),
    SectionKey.DANG_THUOC_VA_HAM_LUONG: (
        "dạng thuốc",
        "hàm lượng",
        "dạng bào chế",
        "bào chế",
        "có những dạng",
        "dạng nào",
    ),
    SectionKey.DUOC_LY_VA_CO_CHE_TAC_DUNG: (
        "cơ chế",
        "cơ chế tác dụng",
        "dược lý",
        "tác dụng dược lý",
    ),
    SectionKey.DUOC_DONG_HOC: (
        "dược động học",
        "nửa đời",
        "thời gian bán thải",
        "bán thải",
        "nửa đời thải trừ",
        "hấp thu",
        "chuyển hóa",
        "thải trừ",
        "sinh khả dụng",
        "half-life",
        "pharmacokinetics",
        "t1/2",
    ),
    SectionKey.CHI_DINH: (
        "chỉ định",
        "dùng để trị",
        "dùng để điều trị",
        "trị bệnh gì",
        "dùng để làm gì",
        "có tác dụng gì",
        "tác dụng gì",
        "trị gì",
        "chữa bệnh gì",
        "điều trị bệnh gì",
        "công dụng",
        "dùng trong trường hợp nào",
        "dùng trong những trường hợp nào",
        "dùng khi nào",
        "dùng cho bệnh gì",
        "được dùng để",
        "indication",
        "indications",
    ),
    SectionKey.CHONG_CHI_DINH: (
        "chống chỉ định",
        "không được dùng",
        "không nên dùng",
        "cấm dùng",
        "chống chỉ định với những ai",
        "ccđ",
        "contraindication",
        "contraindications",
    ),
    SectionKey.THAN_TRONG: (
        "thận trọng",
        "lưu ý",
        "cần chú ý",
        "cảnh báo",
        "thận trọng gì",
        # What to monitor or test during treatment: the cautions say it.
        "theo dõi gì",
        "theo dõi những gì",
        "theo dõi thế nào",
        "theo dõi như thế nào",
        "cần theo dõi",
        "phải theo dõi",
        "xét nghiệm gì",
        "làm xét nghiệm",
        "cần xét nghiệm",
        "kiểm tra gì",
        "cần kiểm tra",
        "giám sát gì",
    ),
    SectionKey.THOI_KY_MANG_THAI: (
        "mang thai",
        "có thai",
        "bà bầu",
        "phụ nữ có thai",
        "thai kỳ",
        "bầu",
        "đang mang thai",
        "thai phụ",
        "3 tháng cuối",
        "ba tháng cuối",
        "thai nhi",
        "3 tháng đầu",
        "ba tháng đầu",
        "pnct",
        "pregnancy",
        "pregnant",
    ),
    SectionKey.THOI_KY_CHO_CON_BU: (
        "cho con bú",
        "cho bú",
        "đang cho con bú",
        "nuôi con bằng sữa mẹ",
        "sữa mẹ",
        "ccb",
        "breastfeeding",
        "lactation",
    ),
    SectionKey.TAC_DUNG_KHONG_MONG_MUON: (
        "tác dụng phụ",
        "tác dụng không mong muốn",
        "adr",
        "phản ứng có hại",
        "tác dụng ngoại ý",
        "có gây",
        "gây ra",
        "có làm",
        "tdkmm",
        "tdp",
        "side effect",
        "side effects",
        "adverse effect",
        # A symptom since the drug was started, asked whether the drug caused it.
        "do thuốc",
        "do thuốc không",
        "do thuốc à",
        "do thuốc hả",
        "do thuốc ha",
        "liên quan thuốc",
        "liên quan đến thuốc",
        "liên quan tới thuốc",
        "có liên quan",
        "có phải do",
        "phải do thuốc",
        "tác dụng phụ của thuốc",
    ),
    SectionKey.HUONG_DAN_CACH_XU_TRI_ADR: (
        "xử trí adr",
        "xử trí tác dụng phụ",
        "hội chứng người đỏ",
        "phù mạch",
        "phù môi",
        "xử trí thế nào khi bị",
        "giảm nguy cơ hội chứng",
        # What to do once it happened ("sưng môi sau liều đầu, xử trí sao?"); with an overdose
        # or a poisoning said, Quá liều và xử trí answers instead (route_section).
        "xử trí thế nào",
        "xử trí như thế nào",
        "xử trí sao",
        "xử trí ra sao",
        "xử lý thế nào",
        "xử lý sao",
        "phải làm gì",
        "cần làm gì",
        "dự phòng ra sao",
        "phòng ngừa thế nào",
    ),
    SectionKey.LIEU_LUONG_VA_CACH_DUNG: (
        "liều",
        "liều dùng",
        "liều lượng",
        "cách dùng",
        "uống bao nhiêu",
        "dùng bao nhiêu",
        "bao nhiêu mg",
        "mấy viên",
        "uống thế nào",
        "dùng thế nào",
        "uống trước hay sau",
        "trước hay sau bữa ăn",
        "liều tối đa",
        "liều khởi đầu",
        "chỉnh liều",
        "hiệu chỉnh liều",
        "mỗi lần",
        "liều bao nhiêu",
        "buổi tối hay buổi sáng",
        "dùng liều nào",
        "uống lúc nào",
        "dùng lúc nào",
        "uống khi nào",
        "thời điểm uống",
        "truyền bao lâu",
        "truyền trong bao lâu",
        "dùng bao lâu",
        "dùng trong bao lâu",
        "uống bao lâu",
        "tốc độ truyền",
        "pha loãng",
        "cách pha",
        "nghiền",
        "bẻ đôi",
        "bẻ viên",
        "nhai",
        "mở nang",
        "hòa tan",
        "dose",
        "dosage",
        "dosing",
        "liều dùng te",
        # How it is given, asked without "liều".
        "tiêm thế nào",
        "tiêm như thế nào",
        "truyền thế nào",
        "truyền như thế nào",
        "uống thế nào",
        "uống như thế nào",
        "dùng thế nào",
        "dùng như thế nào",
    ),
    SectionKey.TUONG_TAC_THUOC: (
        "tương tác",
        "dùng chung với",
        "uống cùng",
        "dùng cùng",
        "phối hợp",
        "kết hợp với",
        "uống chung",
        "dùng chung",
        "rượu bia",
        "uống rượu",
        "phối hợp thêm",
        "làm giảm tác dụng",
        "làm tăng tác dụng",
        "giảm tác dụng của",
        "tăng tác dụng của",
        "nước bưởi",
        "thức ăn",
        "ttt",
        "interaction",
        "interactions",
        "drug interaction",
    ),
    SectionKey.TUONG_KY: (
        "tương kỵ",
        "pha chung",
        "pha cùng",
        "trộn chung",
        "pha chung bơm tiêm",
        "cùng bơm tiêm",
        "pha với dung dịch",
        # Mixing or diluting with a named fluid or drug: what it must not be mixed with.
        "pha loãng với",
        "pha với",
        "pha lẫn",
        "trộn với",
        "trộn lẫn",
        "chung dây truyền",
        "cùng dây truyền",
        "chung đường truyền",
        "cùng đường truyền",
        "truyền chung",
        "tiêm chung",
    ),
    SectionKey.DO_ON_DINH_VA_BAO_QUAN: (
        "bảo quản",
        "độ ổn định",
        "nhiệt độ phòng",
        "tủ lạnh",
        "hạn dùng sau khi mở",
        "để ở nhiệt độ",
        # How long it keeps, once made up or opened.
        "để được bao lâu",
        "để được mấy ngày",
        "để được bao nhiêu ngày",
        "giữ được bao lâu",
        "giữ được mấy ngày",
        "bền vững",
        "ổn định trong bao lâu",
        "để tủ lạnh",
        "đông lạnh",
        "tránh ánh sáng",
        "hạn dùng",
        "storage",
    ),
    SectionKey.QUA_LIEU_VA_XU_TRI: (
        "quá liều",
        "ngộ độc",
        "thuốc giải độc",
        "giải độc",
        "uống quá liều",
        "inr",
        "overdose",
        "ngộ độc thuốc",
        # An antagonist asked for ("dùng chất đối kháng nào"), a dose given by mistake.
        "chất đối kháng",
        "thuốc đối kháng",
        "chất giải độc",
        "quá tay",
    ),
    SectionKey.THONG_TIN_QUY_CHE: (
        "thông tin quy chế",
        "quy chế",
        "danh mục thuốc thiết yếu",
        "thuốc thiết yếu",
        "thuốc độc",
        "thuốc gây nghiện",
        "kê đơn",
    ),
    SectionKey.TEN_THUONG_MAI: ("tên thương mại", "biệt dược", "tên biệt dược", "thương hiệu"),
}


@dataclass(frozen=True)
class PhraseMatch:
    key: str
    phrase: str
    start: int


Table = list[tuple[re.Pattern[str], str, str, tuple[str, ...]]]


def compile_table(table: dict[str, tuple[str, ...]]) -> Table:
    """A phrase table ready for `match_table`: longest phrases first."""
    entries = [(folded_phrase(p), key, p) for key, phrases in table.items() for p in phrases]
    entries.sort(key=lambda e: (-len(e[0]), e[0]))
    return [
        (re.compile(rf"(?<![0-9a-z]){re.escape(f)}(?![0-9a-z])"), f, key, tuple(typed_words(p)))
        for f, key, p in entries
    ]


_SECTIONS = compile_table(SECTION_PHRASES)
# Phrases that hold a population word but name something else claim their span first.
_POPULATIONS = compile_table({**POPULATION_PHRASES, NOT_A_POPULATION[0]: NOT_A_POPULATION[1]})
_ROUTES = compile_table(ROUTE_PHRASES)


def match_table(text: str, table: Table) -> list[PhraseMatch]:
    """Longest phrases first; a shorter phrase inside an already-matched span is ignored.

    Matched on folded text; where the question was typed with diacritics, they must agree
    with the phrase's ("rung nhĩ" is not the child cue "nhi"; "hoá" still matches "hóa").
    """
    folded = folded_phrase(text)
    typed = typed_words(text)
    candidates = []
    for pattern, phrase, key, spelled in table:
        for m in pattern.finditer(folded):
            first = folded.count(" ", 0, m.start())
            span = typed[first : first + len(spelled)]
            if len(span) == len(spelled) and not all(
                diacritics_agree(t, p) for t, p in zip(span, spelled, strict=True)
            ):
                continue
            candidates.append((m.start(), m.end(), phrase, key))
    # More words first, then the earlier phrase, then the longer: "quá liều dùng gì" is an
    # overdose question ("quá liều"), not "liều dùng" (the same two words, a letter longer).
    candidates.sort(key=lambda c: (-len(c[2].split()), c[0], -len(c[2])))
    taken: list[tuple[int, int]] = []
    found = []
    for start, end, phrase, key in candidates:
        if any(start < e and s < end for s, e in taken):
            continue
        taken.append((start, end))
        found.append(PhraseMatch(key, phrase, start))
    return found


def section_matches(text: str) -> list[PhraseMatch]:
    return match_table(text, _SECTIONS)


def route_section(text: str) -> str | None:
    """The section whose longest phrase appears in the question, or None."""
    found = section_matches(text)
    if not found:
        return None
    keys = {m.key for m in found}
    # "Ngộ độc morphin dùng naloxon liều bao nhiêu?" asks for the antidote's dose, which the
    # book prints under Quá liều và xử trí, not under the drug's own dosage.
    if {SectionKey.QUA_LIEU_VA_XU_TRI, SectionKey.LIEU_LUONG_VA_CACH_DUNG} <= keys:
        return SectionKey.QUA_LIEU_VA_XU_TRI
    # "Quá liều paracetamol xử trí thế nào?": the overdose's management, not an ADR's.
    if {SectionKey.QUA_LIEU_VA_XU_TRI, SectionKey.HUONG_DAN_CACH_XU_TRI_ADR} <= keys:
        return SectionKey.QUA_LIEU_VA_XU_TRI
    longest = max(found, key=lambda m: (len(m.phrase), -m.start))
    return longest.key


def population_matches(text: str) -> list[PhraseMatch]:
    return [m for m in match_table(text, _POPULATIONS) if m.key != NOT_A_POPULATION[0]]


def _keys_in_order(text: str, table: Table) -> list[str]:
    found = sorted(match_table(text, table), key=lambda m: m.start)
    return list(dict.fromkeys(m.key for m in found))


def populations(text: str) -> list[str]:
    return [k for k in _keys_in_order(text, _POPULATIONS) if k != NOT_A_POPULATION[0]]


def routes(text: str) -> list[str]:
    return _keys_in_order(text, _ROUTES)
