"""Who the patient is and how the drug is given: the population and route phrase tables.

Phrases with diacritics as the book and wards write them; matching folds them, and where a
question was typed with diacritics they must agree (`retrieval/phrases.py`). Adding a
phrasing is adding an entry.
"""

from corpus.text import folded_phrase

POPULATION_PHRASES: dict[str, tuple[str, ...]] = {
    "tre_em": (
        "trẻ em",
        "trẻ",
        "bé",
        "nhi",
        "trẻ nhỏ",
        "sơ sinh",
        "trẻ sơ sinh",
        "nhũ nhi",
        "tháng tuổi",
        "ngày tuổi",
        "cháu bé",
        "em bé",
        "children",
        "pediatric",
        "nhi khoa",
    ),
    "nguoi_lon": ("người lớn", "nl"),
    "nguoi_cao_tuoi": ("người cao tuổi", "người già", "cao tuổi", "lớn tuổi", "elderly"),
    "suy_than": (
        "suy thận",
        "clcr",
        "độ thanh thải creatinin",
        "thanh thải creatinin",
        "mức lọc cầu thận",
        "lọc máu",
        "chạy thận",
        "chạy thận nhân tạo",
        "thẩm phân",
        "thẩm tách máu",
        "creatinin tăng",
        "tăng creatinin",
        "creatinin cao",
        "bệnh thận mạn",
        "renal impairment",
        "mlct",
        "egfr",
    ),
    "suy_gan": (
        "suy gan",
        "bệnh gan",
        "xơ gan",
        "men gan cao",
        "men gan tăng",
        "tăng men gan",
        "suy chức năng gan",
    ),
    "phu_nu_mang_thai": (
        "mang thai",
        "có thai",
        "bà bầu",
        "bầu",
        "mang bầu",
        "đang mang bầu",
        "có bầu",
        "thai phụ",
        "sản phụ",
        "phụ nữ có thai",
        "đang mang thai",
        "pnct",
        # A pregnancy planned is asked about as one ("ngưng acitretin 6 tháng, muốn có con").
        "muốn có con",
        "muốn sinh con",
        "chuẩn bị có con",
        "muốn có thai",
        "định có thai",
        "định mang thai",
        "chuẩn bị có thai",
        "chuẩn bị mang thai",
        "kế hoạch có thai",
        "kế hoạch mang thai",
        "chuẩn bị có em bé",
        "muốn có em bé",
        # Her delivery ("mổ lấy thai gây mê toàn thân, … ảnh hưởng đến em bé sơ sinh không?"):
        # the pregnancy section speaks of the newborn at birth.
        "mổ lấy thai",
        "phẫu thuật lấy thai",  # as it is read ("mổ" is the book's "phẫu thuật")
        "chuyển dạ",
        # A pregnancy just found ("trễ kinh 10 ngày, que thử 2 vạch").
        "que thử 2 vạch",
        "que thử hai vạch",
        "thử thai dương tính",
        "trễ kinh",
        "chậm kinh",
        # Assisted reproduction: a pregnancy being started ("chuẩn bị chuyển phôi").
        "chuyển phôi",
        "thụ tinh ống nghiệm",
        "ivf",
        "pregnant",
        "pregnancy",
    ),
    "cho_con_bu": (
        "cho con bú",
        "cho bú",
        "cho bé bú",
        "cho trẻ bú",
        "bé bú",
        "đang cho con bú",
        "mẹ cho bú",
        "mẹ cho con bú",
        "mẹ đang cho con bú",
        "bà mẹ cho con bú",
        "nuôi con bú",
        "đang nuôi con bú",
        "nuôi con bằng sữa mẹ",
        # As mothers and midwives say it ("đang cho bé ti", "hút sữa cho bé").
        "cho bé ti",
        "cho con ti",
        "bé ti mẹ",
        "ti mẹ",
        "bú mẹ",
        "hút sữa",
        "vắt sữa",
        "ccb",
        "breastfeeding",
    ),
}

# (key, phrases) that contain a population word and mean something else: "rung nhĩ" (atrial
# fibrillation) holds the child cue "nhi" once folded.
NOT_A_POPULATION = (
    "_not_a_population",
    ("rung nhĩ", "tâm nhĩ", "nhĩ thất", "cuồng nhĩ", "blốc nhĩ thất", "nhĩ trái", "nhĩ phải"),
)

ROUTE_PHRASES: dict[str, tuple[str, ...]] = {
    "uong": ("uống", "đường uống"),
    "tiem_tinh_mach": (
        "tiêm tĩnh mạch",
        "truyền tĩnh mạch",
        "truyền",
        "tiêm tm",
        "truyền tm",
        "tĩnh mạch",
    ),
    "tiem_bap": ("tiêm bắp", "tiêm tb"),
    "tiem_duoi_da": ("tiêm dưới da", "tiêm tdd", "dưới da"),
    "dat_truc_trang": ("đặt trực tràng", "thuốc đạn", "đặt hậu môn"),
    "xit_hit": ("xịt", "hít", "khí dung", "phun sương"),
    "nho_mat": ("nhỏ mắt",),
    "boi_ngoai_da": ("bôi", "dùng ngoài"),
}

# Dialysis as the ward says it, and as the book prints its dose lines ("Thẩm phân máu: Liều
# 2,5 - 5 mg/kg … sau khi thẩm phân", "Người bệnh thẩm tách:"): a renal patient's lines for it.
DIALYSIS_WORDS = ("lọc máu", "chạy thận", "lọc thận", "thận nhân tạo", "thẩm phân", "thẩm tách")
DIALYSIS_TERMS = ("thẩm phân", "thẩm tách", "lọc máu", "chạy thận nhân tạo")

# The book's own words for a population's situation, searched after the question's words when
# those name nothing ("bệnh nhân suy thận dùng X được không" finds "ClCr" or "suy thận").
POPULATION_TERMS: dict[str, tuple[str, ...]] = {
    "suy_than": (
        "clcr",
        "suy thận",
        "thanh thải creatinin",
        "lọc máu",
        "suy chức năng thận",
        "suy giảm chức năng thận",
        "tổn thương thận",
    ),
    "suy_gan": (
        "suy gan",
        "bệnh gan",
        "xơ gan",
        "suy chức năng gan",
        "suy giảm chức năng gan",
        "rối loạn chức năng gan",
        "tổn thương gan",
    ),
    # A child asked about as the patient's situation ("aspirin cho trẻ em được không?"): the
    # Reye's-syndrome line sits in Thận trọng, not in Chống chỉ định.
    "tre_em": (
        "trẻ em",
        "trẻ nhỏ",
        "trẻ sơ sinh",
        "sơ sinh",
        "trẻ dưới",
        "thiếu niên",
        "vị thành niên",
        # How cautions name children by age ("người bệnh dưới 18 tuổi" for ciprofloxacin).
        "dưới 18 tuổi",
        "dưới 16 tuổi",
        "dưới 12 tuổi",
        "dưới 6 tuổi",
        "dưới 2 tuổi",
    ),
    "phu_nu_mang_thai": ("người mang thai", "phụ nữ mang thai", "mang thai", "có thai"),
    "cho_con_bu": ("cho con bú",),
    # "Không nên dùng cho người già ngoài 80 tuổi" (alteplase), "… suy thận, người già là
    # không cần thiết" (clopidogrel): the book says both.
    "nguoi_cao_tuoi": ("người cao tuổi", "người già", "người lớn tuổi"),
}


# Phrases the book uses for one condition, each group searched as one (the shared corpus:
# "Helicobacter pylori" 9 times, "H. pylori" 3). Written as printed; matched folded.
CONDITION_SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("helicobacter pylori", "h. pylori", "h pylori"),
    ("loét dạ dày tá tràng", "loét dạ dày - tá tràng", "loét dạ dày, tá tràng"),
    ("đái tháo đường typ 2", "đái tháo đường không phụ thuộc insulin"),
    ("đái tháo đường typ 1", "đái tháo đường phụ thuộc insulin"),
    ("rung nhĩ", "rung tâm nhĩ"),
    ("động kinh cơn lớn", "động kinh co cứng - co giật", "cơn co cứng - co giật"),
    ("trào ngược dạ dày thực quản", "trào ngược dạ dày - thực quản"),
    ("suy tim sung huyết", "suy tim"),
    ("nhiễm khuẩn tiết niệu", "nhiễm khuẩn đường tiết niệu"),
    # Ward words first, the book's after: status epilepticus as the ward describes it.
    (
        "trạng thái động kinh",
        "co giật liên tục",
        "động kinh liên tục",
        "co giật kéo dài",
        "cơn co giật kéo dài",
        "co giật không cắt",
        "co giật toàn thân liên tục",
        "co giật toàn thân kéo dài",
        "co giật không dứt",
        "co giật chưa dứt",
        "co giật liên tiếp",
    ),
    ("viêm phổi cộng đồng", "viêm phổi mắc phải tại cộng đồng"),
    # Heavy drinking as the ward tells it (the book: "nghiện rượu", "nhiễm độc rượu").
    ("nghiện rượu", "nghiện bia rượu", "uống rượu nhiều", "uống nhiều rượu", "uống rượu"),
    ("tăng sản lợi", "phì đại lợi", "phì đại nướu", "tăng sinh lợi", "quá sản lợi"),
    # Angioedema as the ward sees it (the book: "phù mạch … phù mặt, mắt, môi, lưỡi").
    ("phù mạch", "sưng môi", "sưng lưỡi", "sưng mặt", "phù môi", "phù lưỡi", "sưng phù mặt"),
    # Taste as the patient says it ("ăn gì cũng mất vị, mặn nhạt lẫn lộn"); the book:
    # "mất vị giác", "Thay đổi vị giác do dùng thuốc …".
    ("thay đổi vị giác", "mất vị giác", "rối loạn vị giác", "mất vị", "nhạt miệng"),
    # Around the injection site, as the book says a local reaction.
    ("phản ứng tại chỗ", "quanh chỗ tiêm", "ở chỗ tiêm", "tại chỗ tiêm", "nơi tiêm"),
    ("phù cổ chân", "phù mắt cá chân", "sưng mắt cá chân", "phù mắt cá", "phù chân"),
    ("đau đầu", "nhức đầu"),
    # A loan word the book spells both ways (mometason: "polip mũi"; aciclovir: "polyp").
    ("polip mũi", "polyp mũi"),  # the book prints both, about 38 monographs each
    # Drug-induced parkinsonism as the ward describes it (amantadin: "Hội chứng ngoại tháp do
    # các thuốc an thần kinh").
    (
        "hội chứng ngoại tháp",
        "triệu chứng ngoại tháp",
        "cứng đơ kiểu parkinson",
        "run cứng kiểu parkinson",
        "parkinson do thuốc",
    ),
    # Refraction and cycloplegia as eye clinics say them (the book: "liệt cơ thể mi để đo
    # khúc xạ").
    ("đo khúc xạ", "đo kính", "cắt kính", "đo độ mắt"),
    ("liệt cơ thể mi", "liệt điều tiết", "mất điều tiết", "liệt thể mi"),
    # Hyperthyroidism as the ward names it ("Basedow chưa kiểm soát"); the book prints
    # "cường giáp", "cường tuyến giáp", "nhiễm độc giáp".
    ("cường giáp", "cường tuyến giáp", "nhiễm độc giáp", "basedow", "bệnh graves"),
    # Phaeochromocytoma: the book prints "u tế bào ưa crôm"; wards write the organ or the name.
    (
        "u tế bào ưa crôm",
        "u tế bào ưa crom",
        "u tủy thượng thận",
        "u tuỷ thượng thận",
        "pheochromocytoma",
        "phaeochromocytoma",
        "pheo",
    ),
)


def _folded_groups() -> list[list[str]]:
    return [[folded_phrase(p) for p in group] for group in CONDITION_SYNONYMS]


def condition_synonyms(folded: str) -> list[str]:
    """The other phrases of the book for a folded condition phrase: where a group's phrase is
    the whole of it or a word-bounded part, that part replaced by each other phrase."""
    found: list[str] = []
    padded = f" {folded} "
    for group in _folded_groups():
        for phrase in group:
            if f" {phrase} " not in padded:
                continue
            for other in group:
                if other != phrase:
                    replaced = padded.replace(f" {phrase} ", f" {other} ").strip()
                    if replaced not in found and replaced != folded:
                        found.append(replaced)
    return found


def with_synonyms(condition: str) -> list[str]:
    """The condition folded, then the book's other phrases for it (`condition_synonyms`)."""
    folded = folded_phrase(condition)
    return [folded, *condition_synonyms(folded)] if folded else []


def with_book_phrases(text: str) -> str:
    """The text followed by the book's other phrases of every synonym group it says ("cứng
    đơ kiểu Parkinson" … "hội chứng ngoại tháp"), for searches by words."""
    return " ".join([text, *condition_phrases(folded_phrase(text))])


def condition_phrases(folded: str) -> list[str]:
    """The book's phrases of every synonym group a phrase of the folded text belongs to."""
    padded = f" {folded} "
    return [
        other
        for group in _folded_groups()
        if any(f" {p} " in padded for p in group)
        for other in group
        if f" {other} " not in padded
    ]


# Words that say whose situation or what is asked, not what the situation is: a phrase of
# only these ("có tiền sử", "cần theo dõi", "người bệnh") names nothing to search for.
# The book's words for the trimester a pregnancy week falls in: (from week, to week, words).
TRIMESTERS = (
    (0, 13, ("3 tháng đầu", "ba tháng đầu")),
    (13, 28, ("3 tháng giữa", "ba tháng giữa")),
    (28, 45, ("3 tháng cuối", "ba tháng cuối")),
)


def trimester_terms(weeks: float | None) -> tuple[str, ...]:
    """How the book names the trimester of this week of pregnancy ("thai 32 tuần" → "3
    tháng cuối"), or nothing."""
    if weeks is None:
        return ()
    return next((words for low, high, words in TRIMESTERS if low <= weeks < high), ())


GENERIC_SITUATION_WORDS = frozenset(
    folded_phrase(w)
    for w in (
        "có tiền sử người bệnh nhân bị đang từng mắc cho với và hoặc cần theo dõi phải nên "
        "khi dùng được không thuốc uống sau trước lúc "
        # When it happened, not what: "tiêm xong", "hôm nay", "vừa mới thấy".
        "xong rồi hôm nay vừa mới thấy "
        # The book itself, as wards name it ("trong DT có thuốc nào …").
        "dt dtqg"
    ).split()
)
