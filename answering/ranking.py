"""Which paragraphs of the cited sections answer: ranked by how well their label fits the
question (the stated population, adult when nothing says child; the age on the book's band;
the weight band only inside its population; the route; the indication words), then by the
question's own words in the text.

A paragraph without a label of its own continues the one before it in the section ("*Trẻ
em*: …" then "Ibuprofen thường không khuyến cáo … dưới 7 kg"), so it is ranked under that
label. A label naming an indication the question does not ("Viêm khớp dạng thấp …" for a
child's fever) does not earn the indication's weight; one naming the question's does.
"""

import re
from collections.abc import Sequence
from functools import lru_cache

from answering.reading import SENTENCE, condition_words
from corpus.sections import PATIENT_SECTIONS, SectionKey
from corpus.text import SEARCH_FILLER, fold, prints_phrase, words
from retrieval.bands import ADULT_MONTHS, age_in_bands, prints_age, weight_in_bands
from retrieval.catalog import get_resolver
from retrieval.evidence import Evidence
from retrieval.floor import says_any
from retrieval.frame import QueryFrame, TurnType
from retrieval.situations import condition_phrases
from retrieval.ward_cues import COMMON_ASKED

_POPULATION_LABELS: dict[str, tuple[str, ...]] = {
    "tre_em": ("trẻ em", "trẻ", "sơ sinh", "nhi"),
    "nguoi_lon": ("người lớn",),
    "nguoi_cao_tuoi": ("người cao tuổi", "người già", "cao tuổi"),
    "suy_than": ("suy thận", "clcr", "thanh thải creatinin"),
    "suy_gan": ("suy gan",),
    "phu_nu_mang_thai": ("mang thai", "có thai"),
    "cho_con_bu": ("cho con bú",),
}
_ROUTE_LABELS: dict[str, tuple[str, ...]] = {
    "uong": ("uống",),
    "tiem_tinh_mach": ("tĩnh mạch", "truyền"),
    "tiem_bap": ("tiêm bắp",),
    "tiem_duoi_da": ("dưới da",),
    "dat_truc_trang": ("trực tràng",),
    "xit_hit": ("xịt", "hít", "khí dung"),
}


@lru_cache(maxsize=256)
def _as_words(phrase: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(phrase)}(?!\w)")


def _says(text: str, phrases: Sequence[str]) -> bool:
    """Whether the text says one of the phrases as words ("nhi" is not in "nhiễm")."""
    lowered = text.lower()
    return any(_as_words(p).search(lowered) for p in phrases)


def label_populations(label: str) -> set[str]:
    """The populations a label heads: those of its innermost segment that names any
    ("Bôi tại chỗ người lớn › Người cao tuổi" heads the elderly; "Người lớn › Truyền tĩnh
    mạch" still heads adults)."""
    return set(_label_populations(label))


@lru_cache(maxsize=1 << 12)  # the book's labels, read again for every turn's ranking
def _label_populations(label: str) -> frozenset[str]:
    for segment in reversed(label.split("›")):
        named = {key for key, phrases in _POPULATION_LABELS.items() if _says(segment, phrases)}
        if named:
            return frozenset(named)
    return frozenset()


def _label_score(item: Evidence, label: str, frame: QueryFrame) -> int:
    """How well a chunk under this label matches the question's population, route and age."""
    haystack = (label + " " + item.text[:160]).lower()
    score = 0
    # A dose asked with no population is an adult's (the book's default reader); so is a
    # pregnant or nursing woman's ("tuổi thai" in a newborn's band is no pregnancy): her own
    # section is in view beside it (retrieval.patient_floor).
    population = frame.population
    if frame.attribute == SectionKey.LIEU_LUONG_VA_CACH_DUNG and (
        population is None or population in PATIENT_SECTIONS
    ):
        population = "nguoi_lon"
    if population:
        labels = _POPULATION_LABELS.get(population, ())
        score += 2 * (population in label_populations(label))
        # In a dose section only a paragraph's heading counts; elsewhere a mention anywhere.
        where = haystack if frame.attribute == SectionKey.LIEU_LUONG_VA_CACH_DUNG else item.text
        score += _says(where, labels)
    if frame.route:
        # A route heads a dose paragraph; elsewhere only a label counts ("do uống lặp lại
        # liều lớn" in an overdose paragraph is no oral regimen).
        where = haystack if frame.attribute == SectionKey.LIEU_LUONG_VA_CACH_DUNG else label
        score += _says(where, _ROUTE_LABELS.get(frame.route, ()))
        # A dose paragraph headed by another route only is another route's dose ("Efferalgan
        # uống …" is not answered by the child's 15-minute infusion).
        other = [p for r, said in _ROUTE_LABELS.items() if r != frame.route for p in said]
        if frame.attribute == SectionKey.LIEU_LUONG_VA_CACH_DUNG and _says(label, other):
            score -= 2 * (not _says(label, _ROUTE_LABELS.get(frame.route, ())))
    if frame.attribute == SectionKey.TAC_DUNG_KHONG_MONG_MUON and says_any(
        frame.standalone_query or "", COMMON_ASKED
    ):
        score += 2 * ("thuong gap" in fold(label))  # "hay gặp những tác dụng phụ gì?"
    child_age = frame.age_months is not None and frame.age_months < ADULT_MONTHS
    if not child_age:
        pass  # an adult's age selects no band: the population and route decide
    elif frame.age_text and prints_age(item.text, frame.age_text):
        score += 4  # the age as the book prints it, a band of its own
    elif frame.age_band and frame.age_band.lower() in " ".join(item.text.split()).lower():
        score += 3  # the narrowest band of the book that holds the age, as retrieval found it
    elif frame.age_text and age_in_bands(frame.age_months, label + " " + item.text):
        score += 2  # a band of the book that holds the age
    # A weight band counts only inside the population it belongs to: a 70 kg adult is not
    # served the child's "Trẻ em (từ 50 kg trở lên)" dose first.
    child_paragraph = "tre_em" in label_populations(label)
    if (
        frame.weight_kg is not None
        and weight_in_bands(frame.weight_kg, item.text)
        and child_paragraph == (population == "tre_em")
    ):
        score += 3
    return score


def _content_words(frame: QueryFrame, *, drop_populations: bool = False) -> list[str]:
    """The question's own words that are not the drug, the section phrase or filler; of a
    dose question, only its sentences that name the drug or ask (a sentence of labs or
    history told around it moves no dose paragraph: "Xét nghiệm công thức máu … bình
    thường.")."""
    names = tuple(d.replace("_", " ") for d in frame.drugs)
    query = frame.standalone_query or ""
    if frame.attribute == SectionKey.LIEU_LUONG_VA_CACH_DUNG:
        query = _own_sentences(query)
    kept = condition_words(query, names, drop_populations=drop_populations)
    return [w for w in kept.split() if len(w) > 1]


def _own_sentences(query: str) -> str:
    """The sentences that name a drug or end in a question mark; the whole query when there
    is one sentence, or none of them does."""
    told = [s for s in SENTENCE.findall(query) if s.strip()]
    if len(told) < 2:
        return query
    resolver = get_resolver()
    own = [s for s in told if s.rstrip().endswith("?") or resolver.resolve_detail(s).spans]
    return "".join(own) if own else query


def _content_score(item: Evidence, content: Sequence[str]) -> int:
    """Adjacent word pairs of the question found in the chunk count most, then single words."""
    if not content:
        return 0
    text = f" {' '.join(words(item.text))} "
    pairs = sum(f" {a} {b} " in text for a, b in zip(content, content[1:], strict=False))
    singles = sum(f" {w} " in text for w in set(content))
    return 3 * pairs + (singles if singles * 2 >= len(set(content)) else 0)


# Words of a paragraph label that say who or how, not what for.
_LABEL_GENERIC = frozenset(
    words(
        "liều lượng cách dùng thường người lớn trẻ em nhỏ sơ sinh nhũ nhi thiếu niên cao tuổi "
        "uống tiêm truyền tĩnh mạch bắp dưới da đặt trực tràng hậu môn xịt hít khí dung suy "
        "thận gan điều chỉnh ở và hoặc cho bệnh nhân người bệnh trong tuổi tháng kg trên "
        "từ đến nặng nhẹ vừa chung khởi đầu duy trì trở lên lớn hơn nhỏ hơn tuần năm ngày giờ "
        "lần"
    )
)


def _indication_words(content: Sequence[str]) -> list[str]:
    """The question's words that can name an indication: not who or how ("bé", "trẻ em",
    "kg"), not filler ("bao nhiêu"), not the drug's name as typed ("lohatidin")."""
    resolver = get_resolver()
    return [
        w
        for w in _not_generic(content)
        if w not in SEARCH_FILLER and not any(ch.isdigit() for ch in w) and not resolver.resolve(w)
    ]


# "suy" is a population's word only before these ("suy thận", "suy gan", "suy chức năng …"):
# "suy tim", "suy hô hấp" are indications.
_POPULATION_FAILING = frozenset({"than", "gan", "chuc"})


def _not_generic(tokens: Sequence[str]) -> list[str]:
    """The words that are not who or how ("người lớn", "tiêm", "suy thận")."""
    return [
        w
        for n, w in enumerate(tokens)
        if w not in _LABEL_GENERIC
        or (w == "suy" and n + 1 < len(tokens) and tokens[n + 1] not in _POPULATION_FAILING)
    ]


def _indication_fit(label: str, asked: Sequence[str]) -> int:
    """+1 when the paragraph's own heading says two adjacent words of the question's
    indication ("Viêm màng não"). A heading naming another indication is not counted against
    its paragraph: which headings are indications and which are forms ("Khí dung định liều
    hít qua miệng") no word list tells reliably, and a wrong penalty hid dev-062's answer."""
    own = [w for w in _not_generic(words(label.split("›")[-1])) if not w.isdigit()]
    if len(own) < 2 or not asked:
        return 0  # a heading of who or how, or a question that names no indication
    heading = f" {' '.join(own)} "
    pairs = zip(asked, asked[1:], strict=False)
    return 1 if any(f" {a} {b} " in heading for a, b in pairs) else 0


def inherited_labels(evidence: Sequence[Evidence]) -> dict[int, str]:
    """Each chunk's label, or the label of the chunk before it in the same section (the
    evidence of a section comes in book order)."""
    labels: dict[int, str] = {}
    previous: dict[tuple[str, str], str] = {}
    for item in evidence:
        key = (item.drug_id, item.section_key)
        label = item.label or previous.get(key, "")
        previous[key] = label
        labels[item.chunk_id] = label
    return labels


def indication_words(frame: QueryFrame) -> list[str]:
    """The question's words that may name what the dose is for ("sốt", "viêm màng não")."""
    return _indication_words(_content_words(frame, drop_populations=True))


def paragraph_scores(evidence: Sequence[Evidence], frame: QueryFrame) -> dict[int, int]:
    """Label fit first (ten times), then the question's words in the text."""
    content = _content_words(frame)
    indication = (
        indication_words(frame) if frame.attribute == SectionKey.LIEU_LUONG_VA_CACH_DUNG else []
    )
    labels = inherited_labels(evidence)
    dose = frame.attribute == SectionKey.LIEU_LUONG_VA_CACH_DUNG
    # The book's phrase for a condition the question names in ward words ("co giật liên tục"
    # → "trạng thái động kinh"): the paragraph printing it is the indication's, and that
    # outweighs any age band's fit (at most 4): another indication's dose is no answer.
    printed = condition_phrases(" ".join(words(frame.standalone_query or ""))) if dose else []
    scores = {}
    for item in evidence:
        label = labels[item.chunk_id]
        fit = _label_score(item, label, frame)
        if dose:
            fit += 2 * _indication_fit(label, indication)
            fit += 5 * prints_phrase(item.text, printed)
        elif label and item.section_key == frame.attribute:
            # A heading of the asked section naming what the question asks about is that
            # paragraph ("Với alcohol (rượu)" for "… nhậu bia rượu, có tương tác gì?"); another
            # section's heading is not ("Tăng huyết áp nhẹ hoặc vừa" for an ADR asked of THA).
            own = set(_not_generic(words(label.split("›")[-1])))
            fit += any(len(w) >= 4 and w in own for w in content)
        scores[item.chunk_id] = 10 * fit + _content_score(item, content)
    return scores


def focus(evidence: Sequence[Evidence], frame: QueryFrame) -> list[Evidence]:
    """The paragraphs that fit the question best, in book order; none when nothing fits.

    The focus is what can be shown: a table held for review is never the paragraph in view
    (its notice is), so it does not push a fitting paragraph beside it out of focus; but a
    paragraph that only shares a word with the question is no focus either."""
    if len(evidence) < 2 or frame.turn_type in (TurnType.DRUG_OVERVIEW, TurnType.CONDITION_TO_DRUG):
        return []
    scores = paragraph_scores(evidence, frame)
    best_all = max(scores.values(), default=0)
    best = max((scores[e.chunk_id] for e in evidence if not e.needs_visual_check), default=0)
    if best < best_all and best < 10:
        best = 0
    focused = [e for e in evidence if best > 0 and scores[e.chunk_id] == best]
    adjusted = frame.population in ("suy_than", "suy_gan")  # "Liều cần giảm một nửa"
    if frame.attribute == SectionKey.LIEU_LUONG_VA_CACH_DUNG and focused and not adjusted:
        # A dose is an amount: focused on a paragraph printing none ("Thời gian điều trị: …
        # 10 ngày với viêm phổi mắc phải tại cộng đồng"), the best one printing one too; a
        # renal or hepatic patient's answer is the adjustment, however it is said.
        dosed = [e for e in evidence if _AMOUNT.search(e.text) and not e.needs_visual_check]
        if dosed and not any(_AMOUNT.search(e.text) for e in focused):
            also = max(dosed, key=lambda e: scores[e.chunk_id])
            focused = [e for e in evidence if e in focused or e == also]
    return focused


# An amount of a drug as the book prints it ("400 mg", "0,5 - 1 g/lần", "2 viên").
_AMOUNT = re.compile(
    r"\d(?:[\d ]*\d)?(?:,\d+)?\s*(?:mg|g|mcg|µg|microgam|ml|đvqt|đơn vị|UI|IU|viên|giọt|ống|gói|mmol)"
    r"(?![^\W\d_])"
)


def focus_first(evidence: Sequence[Evidence], frame: QueryFrame) -> list[Evidence]:
    """The evidence with its focus first: the order both answer modes quote and cite in."""
    focused = focus(evidence, frame)
    return focused + [e for e in evidence if e not in focused]
