"""How wards ask for a section without naming it: harm and how often, the common effects, an
amount by its unit, a dose given by mistake, drawn up together, kept where it may spoil (the
cue tables of `retrieval.section_phrases` and the floors, one table each)."""

# Harm and how often it happens, asked of a drug taken ("dùng lâu có hại gì không?", "phản
# ứng này có hay gặp không, tỉ lệ bao nhiêu?").
HARM_ASKED: tuple[str, ...] = (
    # A harm asked as a risk ("tiêm bắp có nguy cơ phản vệ không?").
    "có nguy cơ",
    "nguy cơ gây",
    "có hại gì",
    "hại gì",
    "tác hại",
    "có hay gặp",
    "hay gặp không",
    "tỉ lệ gặp",
    "tỷ lệ gặp",
    "tỉ lệ khoảng bao nhiêu",
    "tỷ lệ khoảng bao nhiêu",
    "tỉ lệ bao nhiêu",
    "tỷ lệ bao nhiêu",
)

# The common effects asked for ("hay gặp những tác dụng phụ gì?", "tác dụng phụ phổ biến"):
# the ADR section's "Thường gặp" band fits best.
COMMON_ASKED: tuple[str, ...] = (
    "hay gặp",
    "thường gặp",
    "phổ biến",
    "hay bị",
    "thường bị",
    "hay xảy ra",
    "thường xảy ra",
    "hay thấy",
    "thường thấy",
)

# An amount asked by its unit ("amlodipin cho mấy mg/ngày?", "bao nhiêu ml một lần"): the dose.
AMOUNT_ASKED: tuple[str, ...] = tuple(
    f"{how} {unit}"
    for how in ("mấy", "bao nhiêu")
    for unit in ("mg", "mcg", "µg", "g", "ml", "gói", "ống", "viên", "đơn vị", "ui", "iu")
)

# A dose given by mistake or too much ("bơm nhầm 3 ống", "lỡ tiêm gấp đôi liều", "uống lộn"):
# the overdose section, whichever section the ask reads as. Never "lỡ uống" alone: "lỡ uống
# … khi đang có thai" asks of the pregnancy.
GIVEN_BY_MISTAKE: tuple[str, ...] = (
    *(
        f"{how} {by}"
        for how in ("tiêm", "uống", "nuốt", "pha", "bơm", "truyền", "nhỏ", "cho")
        for by in ("nhầm", "lộn")
    ),
    *(f"{how} gấp đôi" for how in ("tiêm", "uống", "truyền", "bơm", "cho")),
    "nhầm liều",
    "gấp đôi liều",
    "liều gấp đôi",
    "gấp 2 liều",
    "lỡ tay",
    "quá tay",
    "uống cả vỉ",
    "uống hết vỉ",
    "uống cả lọ",
    "uống hết lọ",
    "uống một lúc",
    "nhỏ quá nhiều",
    "uống quá nhiều",
    "tiêm quá nhiều",
    "dùng quá nhiều",
)

# Drawn up or run in together ("rút … chung xi lanh", "bơm chung vào chai … đang chạy"):
# what it must not be mixed with.
DRAWN_TOGETHER: tuple[str, ...] = (
    "chung xi lanh",
    "cùng xi lanh",
    "chung bơm tiêm",
    "chung ống tiêm",
    "cùng ống tiêm",
    "bơm chung",
)

# Kept where it may spoil, or looking spoilt ("bóc ra để ngoài khay … nồm ẩm", "ống … ngả
# màu nhưng còn hạn, phải hủy?"): how it is kept and how a spoilt one looks.
SPOILT: tuple[str, ...] = (
    "nồm",
    "ẩm ướt",
    "bị ẩm",
    "độ ẩm",
    "nơi ẩm",
    "để ngoài",
    "ánh nắng",
    "nắng nóng",
    "ra khỏi vỉ",
    "bóc vỉ",
    "còn hạn",
    "hết hạn",
    "quá hạn",
    "phải hủy",
    "ngả màu",
)
