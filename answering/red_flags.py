"""Red flags: an emergency described in the question is answered as one (issue 18).

One data table of how wards describe emergencies (chest pain, anaphylaxis, a seizure, an
accidental swallow or an overdose, self-harm), matched by the one diacritics-aware phrase
matcher (`retrieval.phrases.match_table`), with the rows pharmacists add or switch off in the
admin (`corpus.RedFlag`). A matched turn opens with a fixed line (self-harm has its own), and
its answer is the named drug's Quá liều và xử trí or ADR management, never its dose table.
"""

import re

from corpus.sections import SectionKey
from corpus.text import fold, folded_phrase
from retrieval.catalog import catalog_version
from retrieval.phrases import Table, compile_table, match_table

EMERGENCY, POISONING, SELF_HARM = "cap_cuu", "ngo_doc", "tu_hai"

RED_FLAGS: dict[str, tuple[str, ...]] = {
    EMERGENCY: (
        "đau ngực dữ dội",
        "đau thắt ngực dữ dội",
        "đau ngực vã mồ hôi",
        "vã mồ hôi",
        "sốc phản vệ",
        "phản vệ",
        "khó thở dữ dội",
        "tím tái",
        "ngừng thở",
        "ngừng tim",
        "co giật",
        "lên cơn co giật",
        "động kinh liên tục",
        "hôn mê",
        "lơ mơ",
        "mất ý thức",
        "ngất",
        "tụt huyết áp",
        "phù thanh quản",
        "phù mặt môi",
        "sưng môi",
        "sưng lưỡi",
        "phù lưỡi",
        "sưng mặt môi",
        "nôn ra máu",
        "đi ngoài phân đen",
    ),
    POISONING: (
        "uống nhầm",
        "nuốt nhầm",
        "uống cả vỉ",
        "uống cả lọ",
        "uống hết vỉ",
        "uống hết lọ",
        "ăn nhầm",
        "ngộ độc",
        "quá liều",
        "uống quá liều",
        # Too much of it, or the wrong one, given ("nhỏ homatropin quá nhiều", "tiêm nhầm").
        "tiêm nhầm",
        "uống quá nhiều",
        "nhỏ quá nhiều",
        "tiêm quá nhiều",
        "dùng quá nhiều",
    ),
    SELF_HARM: (
        "tự tử",
        "tự sát",
        "muốn chết",
        "tự tử bằng thuốc",
        "tự hại",
        "tự làm hại",
        "uống thuốc tự tử",
        "có ý định tự tử",
    ),
}

# The fixed opening line per kind: what to do first, before any book text.
FIRST_LINES = {
    EMERGENCY: (
        "Dấu hiệu cấp cứu: xử trí như một cấp cứu theo phác đồ của bệnh viện (gọi bác sĩ trực, "
        "đánh giá đường thở – hô hấp – tuần hoàn) trước khi tra cứu thuốc."
    ),
    POISONING: (
        "Ngộ độc / uống nhầm thuốc: xử trí như một cấp cứu — gọi bác sĩ trực hoặc Trung tâm Chống "
        "độc ngay; ghi tên thuốc, lượng và thời điểm uống. Phần Quá liều và xử trí của Dược thư "
        "ở dưới, không phải liều điều trị."
    ),
    SELF_HARM: (
        "Người bệnh có ý định hoặc hành vi tự hại: bảo đảm an toàn ngay, không để người bệnh một "
        "mình, báo bác sĩ trực và chuyên khoa tâm thần; xử trí ngộ độc như một cấp cứu."
    ),
}
# Words that tell the emergency followed the drug (the drug may be its cause): such a turn is
# answered from the ADR management even when a dose is asked. Without them, a dose asked for
# a drug in an emergency ("co giật liên tục, lorazepam TM liều bao nhiêu") is the treatment's.
AFTER_THE_DRUG = (
    "sau khi dùng",
    "sau khi uống",
    "sau khi tiêm",
    "sau khi truyền",
    "sau dùng",
    "sau uống",
    "sau tiêm",
    "sau truyền",
    "từ khi dùng",
    "từ khi uống",
    "do dùng",
    "do uống",
    "do tiêm",
    "do thuốc",
    "đang dùng",
    "đang uống",
    "đang tiêm",
    "đang truyền",
    "vừa dùng",
    "vừa uống",
    "vừa tiêm",
    "vừa truyền",
    # A drug started lately ("mới chuyển sang tiêm insulin 2 tuần, đỏ ngứa quanh chỗ tiêm").
    "mới dùng",
    "mới uống",
    "mới tiêm",
    "mới truyền",
    "mới chuyển sang",
    "bắt đầu dùng",
    "bắt đầu uống",
    "bắt đầu tiêm",
    "mới thêm",
    "mới bắt đầu",
)
_AFTER = compile_table({"after": AFTER_THE_DRUG})
# Which section answers a red-flag turn about a named drug, per kind.
SECTIONS = {
    EMERGENCY: SectionKey.HUONG_DAN_CACH_XU_TRI_ADR,
    POISONING: SectionKey.QUA_LIEU_VA_XU_TRI,
    SELF_HARM: SectionKey.QUA_LIEU_VA_XU_TRI,
}
# The order kinds are told: self-harm before poisoning before the rest.
_PRIORITY = (SELF_HARM, POISONING, EMERGENCY)
_cached: tuple[str, Table] | None = None


def _table() -> Table:
    """The defaults with the admin's rows (added phrasings; a default switched off)."""
    from corpus.models import RedFlag

    global _cached

    stamp = catalog_version()  # a saved or deleted row moves it
    if _cached is None or _cached[0] != stamp:
        rows = list(RedFlag.objects.values_list("phrase", "kind", "active"))
        off = {phrase for phrase, _, active in rows if not active}
        table = {
            kind: tuple(p for p in phrases if p not in off) for kind, phrases in RED_FLAGS.items()
        }
        for phrase, kind, active in rows:
            if active and kind in table:
                table[kind] += (phrase,)
        _cached = (stamp, compile_table(table))
    return _cached[1]


# Many tablets swallowed at once ("uống 20 viên amlodipin 5mg"): no dose is that many.
MANY_TABLETS = 10
_SWALLOWED = re.compile(
    r"(?<![a-z0-9])(?:uong|nuot|an)(?: (?:het|mot luc|1 luc|ca))? (\d+) (?:vien|v)(?![a-z0-9/])"
    r"(?! ?/)(?! (?:moi|1|mot) (?:lan|ngay))"
)


# An emergency's sign said as a risk, a history or a prevention ("có nguy cơ phản vệ không",
# "tiền sử sốc phản vệ với penicilin", "dự phòng co giật") is not happening now.
_NOT_NOW = re.compile(
    r"(?<![a-z0-9])(?:nguy co|co the gay|co gay|gay ra|de gay|de bi|tien su|tung bi|phong|"
    r"phong ngua|du phong|tranh|neu bi|neu co)(?: (?:bi|bi len|xay ra|con))? ?$"
)


def red_flag(question: str) -> str | None:
    """The most serious kind of emergency the question describes, or None."""
    folded = folded_phrase(question)
    kinds = {
        m.key
        for m in match_table(question, _table())
        if m.key != EMERGENCY or not _NOT_NOW.search(folded[: m.start])
    }
    if any(int(m.group(1)) >= MANY_TABLETS for m in _SWALLOWED.finditer(fold(question))):
        kinds.add(POISONING)
    return next((kind for kind in _PRIORITY if kind in kinds), None)


def follows_a_drug(question: str) -> bool:
    """Whether the question tells the emergency came after a drug was given."""
    return bool(match_table(question, _AFTER))
