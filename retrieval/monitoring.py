"""What to monitor or test during treatment ("dùng warfarin theo dõi xét nghiệm gì?"): asked
of the cautions, answered wherever the book says it — Thận trọng, the ADR management, the
dose section ("nhất thiết phải theo dõi INR"). The paragraphs that tell a monitoring step
come first, those saying more of what the question names ("men gan", "điện giải") first."""

from corpus.sections import SectionKey
from corpus.text import folded_phrase
from retrieval.evidence import Evidence
from retrieval.frame import QueryFrame
from retrieval.question_words import Situation, coverage, situation_of
from retrieval.ranked import section_evidence
from retrieval.retrieved import Retrieved, ahead_of
from retrieval.searches import section

MONITOR_SECTIONS = (
    SectionKey.THAN_TRONG,
    SectionKey.HUONG_DAN_CACH_XU_TRI_ADR,
    SectionKey.LIEU_LUONG_VA_CACH_DUNG,
)
# The book's words for a monitoring step (folded, word-bounded).
MONITOR_WORDS = (
    "theo doi",
    "kiem tra",
    "xet nghiem",
    "giam sat",
    "danh gia",
    "dinh ky",
    # A level measured ("đo nồng độ digoxin trong huyết tương ở người suy chức năng thận …").
    "do nong do",
    "dinh luong",
)
# And, when the question asks for the peak or trough, the levels a measured drug is kept
# within ("nồng độ đáy (trước liều sau) phải dưới 2 microgam/ml", "Cần tránh nồng độ đỉnh …").
# Or the range a level is kept in ("Phạm vi điều trị (định lượng huyết thanh): 50 - 100
# microgam/ml"), asked as the ward says it ("khoảng điều trị … là bao nhiêu").
RANGE_WORDS = ("pham vi dieu tri", "khoang dieu tri", "nong do dieu tri", "nguong dieu tri")
LEVEL_WORDS = ("nong do dinh", "nong do day", *RANGE_WORDS)
LEVELS_ASKED = (
    "nong do dinh",
    "nong do day",
    "dinh va day",
    "dinh day",
    "day phai",
    "dinh phai",
    *RANGE_WORDS,
)
# Paragraphs telling a step kept ahead of the section.
MONITOR_PARAGRAPHS = 4


def tells_a_step(text: str, levels: bool = False) -> bool:
    padded = f" {folded_phrase(text)} "
    words = MONITOR_WORDS + LEVEL_WORDS if levels else MONITOR_WORDS
    return any(f" {w} " in padded for w in words)


def asks_levels(question: str) -> bool:
    """ "nồng độ đỉnh và đáy", "đáy phải dưới bao nhiêu": the question asks for the levels."""
    padded = f" {folded_phrase(question.replace('/', ' '))} "
    return any(f" {w} " in padded for w in LEVELS_ASKED)


def what_is_monitored(frame: QueryFrame) -> Situation:
    """What the question names to monitor, as the book's words, without the drugs' names."""
    return situation_of(frame.condition or "", exclude=[d.replace("_", " ") for d in frame.drugs])


def monitoring_paragraphs(drug_id: str, said: Situation, levels: bool = False) -> list[Evidence]:
    """The paragraphs telling a monitoring step, those saying more of the question first, then
    in the sections' order (the cautions first) and the book's."""
    # A level's range asked: the paragraph printing one first, wherever the book put it
    # (carbamazepin's "Nồng độ điều trị thông thường …" is in Dược động học).
    found = [
        (-(levels and says_a_level(e.text)), -coverage(e.text, said), n, k, e)
        for n, key in enumerate(monitor_sections(levels))
        for k, e in enumerate(section_evidence(drug_id, key))
        if tells_a_step(e.text, levels)
    ]
    return [e for *_, e in sorted(found, key=lambda f: f[:4])][:MONITOR_PARAGRAPHS]


def _prints(text: str, phrases: tuple[str, ...]) -> bool:
    padded = f" {folded_phrase(text)} "
    return any(f" {p} " in padded for p in phrases)


def says_a_level(text: str) -> bool:
    """Whether the text prints a level's peak, trough or range."""
    return _prints(text, LEVEL_WORDS)


def monitor_sections(levels: bool) -> tuple[str, ...]:
    return (*MONITOR_SECTIONS, SectionKey.DUOC_DONG_HOC) if levels else MONITOR_SECTIONS


def monitoring(frame: QueryFrame, question: str) -> Retrieved:
    asked = section(frame, question)
    levels = asks_levels(question)
    said = what_is_monitored(frame)
    named = monitoring_paragraphs(frame.drugs[0], said, levels) if frame.drugs else []
    return ahead_of(asked, named)
