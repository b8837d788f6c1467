"""The ward's phrasings that ask a question shape's own question, beside the section phrases:
a symptom attributed to the drug, what to do about it, what to monitor, an opened or made-up
container, an effect named by a phrase, a drug mixed with a fluid or another drug. Written as
typed (diacritics kept), matched folded and word-bounded by the shapes."""

# A symptom since the drug was started, asked whether the drug caused it: the patient's own
# effect, not a question about the drug's effects in general ("có gây … không").
ATTRIBUTION: tuple[str, ...] = (
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
    "có phải tác dụng phụ",
    "có phải là tác dụng phụ",
    "phải tác dụng phụ không",
)

# Asked of a symptom the patient has since the drug, with no section's word: will it pass,
# must the drug be stopped or changed, is it dangerous ("từ khi uống captopril … mất vị, có
# hết không?", "đang truyền … rỉ máu, có phải ngưng không?").
# Will it pass, is it dangerous.
_OUTCOME_ASKS: tuple[str, ...] = (
    "có hết không",
    "có hết ko",
    "có hết k",
    "có tự hết",
    "bao lâu thì hết",
    "bao lâu hết",
    "có nguy hiểm không",
    "có nguy hiểm ko",
    "có sao không",
    "có sao ko",
)
# What to do about it: stop, change, ease, give again — the ADR management answers these
# first, even where the ADR section's word is said ("làm sao để giảm tác dụng phụ này").
MANAGEMENT_ASKS: tuple[str, ...] = (
    "có phải ngưng",
    "có phải ngừng",
    "có cần ngưng",
    "có cần ngừng",
    "có nên ngưng",
    "có nên ngừng",
    "cần ngưng thuốc",
    "cần ngừng thuốc",
    "có phải đổi thuốc",
    "có cần đổi thuốc",
    # How it should be stopped ("tự bỏ thuốc …, lẽ ra phải ngưng thế nào?").
    "ngưng thế nào",
    "ngừng thế nào",
    "ngưng như thế nào",
    "ngừng như thế nào",
    "cách ngưng",
    "cách ngừng",
    # How to ease it ("rát bỏng quá, có cách nào đỡ ko?", "làm sao để giảm tác dụng phụ").
    "có cách nào đỡ",
    "cách nào cho đỡ",
    "cách nào để đỡ",
    "làm sao cho đỡ",
    "làm sao để đỡ",
    "làm gì cho đỡ",
    "làm gì để đỡ",
    "có cách nào giảm",
    "làm sao để giảm",
    "làm sao giảm",
    "làm gì để giảm",
    "cách giảm",
    "cách hạn chế",
    "khắc phục",
    # A remedy asked for the symptom the drug caused ("dùng morphin bị ngứa, cho thuốc gì?"):
    # the ADR management names it ("Dùng các thuốc kháng histamin … để khắc phục").
    "cho thuốc gì",
    "dùng thuốc gì",
    "cho uống thuốc gì",
    "xử trí bằng thuốc gì",
    # Given again or continued after it ("đã ngừng thuốc nay đỡ, uống lại được ko?").
    "uống lại",
    "dùng lại",
    "tiêm lại",
    "truyền lại",
    "bôi lại",
    "cho lại",
    "dùng tiếp",
    "uống tiếp",
    "tiêm tiếp",
    "truyền tiếp",
    "bôi tiếp",
    "tiếp tục dùng",
    "tiếp tục uống",
)
ADR_ASKS: tuple[str, ...] = (*_OUTCOME_ASKS, *MANAGEMENT_ASKS)

# An adverse reaction named as such in the sentence that asks, and asked how to prevent or
# treat it ("làm sao hạn chế thuốc hấp thu vào toàn thân gây phản ứng?", "ADR toàn thân nặng
# … có thuốc gì dùng được không?"): the ADR management answers, whatever section word the
# story said ("hấp thu"). Both tables must be said.
ADR_NAMED: tuple[str, ...] = (
    "adr",
    "phản ứng",
    "phản ứng phụ",
    "tác dụng phụ",
    "tác dụng không mong muốn",
)
ADR_MANAGED: tuple[str, ...] = (
    *MANAGEMENT_ASKS,
    "hạn chế",
    "phòng ngừa",
    "dự phòng",
    "để tránh",
    "xử trí",
    "có thuốc gì",
    "có thuốc nào",
    "thuốc gì",
)

# Another medicine asked for to ease the symptom ("đầy bụng, cho thêm antacid để đỡ được
# không?"): a name no monograph answers for is then the remedy asked about, not a switch.
EASED_BY: tuple[str, ...] = ("để đỡ", "cho đỡ", "để bớt", "cho bớt", "để giảm", "cho giảm")

# Time told since the drug was started, in the folded question: the story of a symptom since
# the drug ("dùng Ziagen được 2 tuần thì sốt", "bôi … được 3 hôm, than rát", "truyền
# vancomycin ngày thứ 6, ù tai", "2 ngày nay đau ngực hơn", "từ tuần trước").
ELAPSED: tuple[str, ...] = (
    r"(?:duoc|dc) (?:khoang |chung |tam )?\d+ (?:ngay|hom|tuan|thang|nam)",
    r"\d+ (?:ngay|hom|tuan|thang) (?:nay|roi|thi)",
    r"ngay thu \d+",
    r"(?:dai|lau) ngay",
    r"sau \d+ (?:ngay|hom|tuan|thang|nam) (?:dung|uong|tiem|truyen|boi)",
    r"tu (?:hom qua|hom truoc|tuan truoc|thang truoc)",
    # Stopped since ("mẩn ngứa, đã ngưng, giờ hết"), or taken and then ("uống Milurit bị nổi").
    r"da (?:ngung|ngung thuoc)",
    r"(?:uong|dung|tiem|truyen|boi|xit)(?: [a-z0-9]+){1,3} (?:bi|thi bi|xong bi)",
)

# What to monitor or test during treatment: asked of the cautions, answered wherever the
# book says it (Thận trọng, ADR management, Liều lượng: "nhất thiết phải theo dõi INR").
MONITORING: tuple[str, ...] = (
    # The range a level is kept in ("khoảng điều trị … bao nhiêu": retrieval.monitoring).
    "khoảng điều trị",
    "phạm vi điều trị",
    "nồng độ điều trị",
    "ngưỡng điều trị",
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
    "theo dõi xét nghiệm",
    "những thông số gì",
    # When and how often, and the lab named ("INR lần đầu thử lúc nào", "có bắt buộc đo
    # nồng độ thuốc trong máu", "theo dõi dấu hiệu sớm ngộ độc").
    "thử inr",
    "xét nghiệm inr",
    "kiểm tra inr",
    "đo inr",
    "inr lần đầu",
    "đo nồng độ",
    "định lượng nồng độ",
    "nồng độ thuốc trong máu",
    "theo dõi dấu hiệu",
    "dấu hiệu sớm",
    "khi nào thử",
    "lúc nào thử",
    "khi nào xét nghiệm",
    "bao lâu làm lại",
    "bao lâu xét nghiệm",
    "xét nghiệm định kỳ",
    "xét nghiệm những gì",
    # The levels of a measured drug ("nồng độ đỉnh và đáy", "đáy phải dưới bao nhiêu").
    "nồng độ đỉnh",
    "nồng độ đáy",
    "đỉnh và đáy",
    "đỉnh/đáy",
    "đỉnh đáy",
)

# A container opened or a solution made up: "dùng trong bao lâu" then asks how long it may
# be used, not how long the treatment lasts.
OPENED: tuple[str, ...] = (
    "đã mở nắp",
    "sau khi mở",
    "đã mở",
    "pha xong",
    "sau khi pha",
    "đã pha",
    # The rest kept for later doses ("có để tủ lạnh dùng dần được không"); "hoàn nguyên"
    # is no such phrase: "sau khi hoàn nguyên pha loãng với NaCl …" asks what it mixes with.
    "dùng dần",
    # Part used, the rest kept ("chai albumin mở ra truyền được 1 nửa, để dành tối").
    "mở ra",
    "mở rồi",
    "mở từ",
    "truyền dở",
    "dùng dở",
    "còn dư",
    "còn thừa",
    "để dành",
    "phần còn lại",
    # Made up ahead and kept for later ("pha sẵn từ sáng để đến chiều tiêm").
    "pha sẵn",
    "pha trước",
    "để đến chiều",
    "để tới chiều",
    "để qua đêm",
    "để đến mai",
    "để sang hôm sau",
)

# Mixing a drug with a fluid or another drug, in a bag, a syringe or a line ("pha loãng
# amphotericin B bằng NaCl 0,9%", "rút chung 1 bơm tiêm", "chạy chung đường với truyền máu"):
# asked of the incompatibilities, answered where the book says it (Tương kỵ, Cách dùng).
MIXING: tuple[str, ...] = (
    "pha loãng",
    "pha với",
    "pha bằng",
    "pha trong",
    "pha chung",
    "pha cùng",
    "pha lẫn",
    "trộn",
    "hòa tan",
    "dung môi",
    "bơm tiêm",
    "chung đường",
    "cùng đường",
    "chạy chung",
    "truyền chung",
    "tiêm chung",
    "chung dây",
    "cùng dây",
    "tương kỵ",
    "tương hợp",
    # One container ("bơm thêm ciprofloxacin vào chung chai", "hút chung 1 bơm tiêm").
    "chung chai",
    "cùng chai",
    "chung túi",
    "cùng túi",
    "chung lọ",
    "chung bơm",
    "cùng bơm",
    "hút chung",
    "bơm chung",
    "cho chung",
    "bơm vào chai",
    "bơm vào túi",
    # Into a fluid's bottle or bag ("pha Rocephin 1g vào chai Ringer lactat").
    "pha vào",
    "vào chai",
    "vào túi",
    "vào bịch",
    "vào dịch truyền",
)

# Effects whose name asks for their management ("phù môi xử trí"): the symptom itself, kept
# as the symptom where the question's other section phrases are cut.
NAMED_EFFECTS: tuple[str, ...] = ("hội chứng người đỏ", "phù mạch", "phù môi")
