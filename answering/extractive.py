"""The no-model answer: the book's own text, quoted verbatim with citations, the paragraphs
for the asked population, route, age or weight first, and plain statements of what the book
does not name ("không có nghĩa là an toàn")."""

from collections.abc import Sequence

from answering.cues import age_months
from answering.grounding import sentences
from answering.metrics import EXTRACTIVE
from answering.notices import not_found_blocks, safety_blocks
from answering.results import (
    AnswerBlock,
    BlockKind,
    Citation,
    TurnResult,
    citations_for,
    did_you_mean,
    kind_of,
    notice_block,
    notice_text,
)
from answering.understanding import condition_words
from corpus.text import as_typed, words
from retrieval.bands import age_in_bands, prints_age, weight_in_bands
from retrieval.catalog import get_resolver
from retrieval.evidence import Evidence, Outcome
from retrieval.frame import QueryFrame
from retrieval.queries import own_names
from retrieval.retrieve import SITUATION_SECTIONS, Retrieved, sub_phrases

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



def _label_score(item: Evidence, frame: QueryFrame) -> int:
    """How well a dosage chunk matches the question's population, route and age band."""
    haystack = (item.label + " " + item.text[:160]).lower()
    score = 0
    # A dose asked with no population is an adult's (the book's default reader).
    population = frame.population or (
        "nguoi_lon" if frame.attribute == "lieu_luong_va_cach_dung" else None
    )
    if population:
        labels = _POPULATION_LABELS.get(population, ())
        score += 2 * any(p in item.label.lower() for p in labels)
        # In a dose section only a paragraph's heading counts; elsewhere a mention anywhere.
        where = haystack if frame.attribute == "lieu_luong_va_cach_dung" else item.text.lower()
        score += any(p in where for p in labels)
    if frame.route:
        score += any(r in haystack for r in _ROUTE_LABELS.get(frame.route, ()))
    if frame.age_text and prints_age(item.text, frame.age_text):
        score += 4  # the age as the book prints it, a band of its own
    elif frame.age_text and age_in_bands(age_months(frame.age_text), item.label + " " + item.text):
        score += 2  # a band of the book that holds the age
    # A weight band counts only inside the population it belongs to: a 70 kg adult is not
    # served the child's "Trẻ em (từ 50 kg trở lên)" dose first.
    child_paragraph = any(p in item.label.lower() for p in _POPULATION_LABELS["tre_em"])
    if (
        frame.weight_kg is not None
        and weight_in_bands(frame.weight_kg, item.text)
        and child_paragraph == (population == "tre_em")
    ):
        score += 3
    return score


def _content_words(frame: QueryFrame) -> list[str]:
    """The question's own words that are not the drug, the section phrase or filler."""
    names = tuple(d.replace("_", " ") for d in frame.drugs)
    return [w for w in condition_words(frame.standalone_query or "", names).split() if len(w) > 1]


def _content_score(item: Evidence, content: Sequence[str]) -> int:
    """Adjacent word pairs of the question found in the chunk count most, then single words."""
    if not content:
        return 0
    text = f" {' '.join(words(item.text))} "
    pairs = sum(f" {a} {b} " in text for a, b in zip(content, content[1:], strict=False))
    singles = sum(f" {w} " in text for w in set(content))
    return 3 * pairs + (singles if singles * 2 >= len(set(content)) else 0)


# What an answer shows before anything is expanded, when no paragraph stands out (issue 11:
# the median answer was 1.6k characters, one in ten over 10k).
VISIBLE_BUDGET = 1200
# The lead of a situation answer: at most this many of the book's sentences naming it; of a
# which-drug answer, one line for each drug found (retrieval returns at most eight).
LEAD_SENTENCES = 3
LIST_LINES = 8


def _lead_sentences(
    frame: QueryFrame, citations: Sequence[Citation]
) -> list[tuple[str, Citation]]:
    """The sentences of the cited prose that name the situation: the sentence that answers,
    before the paragraphs it sits in. For a situation, contraindications first; for "which
    drug treats …", one line per drug in the order found. Tables are never cut."""
    listing = frame.turn_type == "condition_to_drug"
    combination = frame.turn_type == "interaction" and len(frame.drugs) >= 2
    if not combination and (
        frame.turn_type not in ("condition_relation", "condition_to_drug") or not frame.condition
    ):
        return []
    # For a combination, each drug's paragraphs are searched for the other drug's own names.
    names = {d: {" ".join(words(n)) for n in own_names(d)} - {""} for d in frame.drugs}
    lead: list[tuple[str, Citation]] = []
    for c in citations:
        if c.quarantined or c.text.lstrip().startswith("|"):
            continue
        if listing and any(d.drug_id == c.drug_id for _, d in lead):
            continue
        phrases = (
            [n for d, found in names.items() if d != c.drug_id for n in found]
            if combination
            else sub_phrases(frame.condition or "")
        )
        for sentence in sentences(c.text):
            folded = f" {' '.join(words(sentence))} "
            if any(f" {p} " in folded for p in phrases):
                lead.append((sentence, c))
                break  # one sentence a paragraph; the paragraph itself follows
    if combination:
        return lead[:LEAD_SENTENCES]
    if listing:
        return lead[:LIST_LINES]
    order = {key: n for n, key in enumerate(SITUATION_SECTIONS)}
    lead.sort(key=lambda pair: order.get(pair[1].section_key, len(order)))  # contraindications first
    return lead[:LEAD_SENTENCES]


def extractive_answer(retrieved: Retrieved) -> TurnResult:
    """Verbatim quotes with citations, the most relevant paragraphs first."""
    frame = retrieved.frame
    evidence = list(retrieved.evidence)
    focused: list[Evidence] = []
    if len(evidence) >= 2 and frame.turn_type not in ("drug_overview", "condition_to_drug"):
        content = _content_words(frame)
        scores = {
            e.chunk_id: 10 * _label_score(e, frame) + _content_score(e, content) for e in evidence
        }
        best = max(scores.values(), default=0)
        if best > 0:
            focused = [e for e in evidence if scores[e.chunk_id] == best]
    rest = [e for e in evidence if e not in focused]
    ordered = focused + rest
    citations = citations_for(ordered)
    shown = [c for c in citations if not c.quarantined]
    flagged = [c for c in citations if c.quarantined]
    blocks: list[AnswerBlock] = []
    lines: list[str] = []
    visible = 0
    in_view = {e.chunk_id for e in focused} & {c.chunk_id for c in shown}
    for c in shown:
        # The paragraphs that fit the question (or, when none stands out, the first ones in book
        # order) up to the budget; the rest one click away. The whole section is still quoted.
        # (A focus on a paragraph held for review only is no focus for what is shown.)
        relevant = not in_view or c.chunk_id in in_view
        # The paragraphs that fit the question stay in view, and each drug's passage of an
        # interaction; when none stands out, the first paragraph and the next while they fit.
        fits = visible == 0 or visible + len(c.text) <= VISIBLE_BUDGET
        collapsed = not relevant or not (fits or bool(in_view) or frame.turn_type == "interaction")
        if not collapsed:
            visible += len(c.text)
        title = f"{c.drug_name} · {c.section_title}" + (f" · {c.label}" if c.label else "")
        blocks.append(
            AnswerBlock(
                title,
                kind_of(c.section_key),
                c.section_key,
                c.drug_id,
                [(c.text, [c.index])],
                collapsed=collapsed,
            )
        )
        lines.append(f"{c.text} [{c.index}]")
    not_named = retrieved.reason in ("condition_not_named_in_book", "interaction_not_named_in_book")
    lead = [] if not_named else _lead_sentences(frame, shown)
    if lead:
        # The answering sentences first; the paragraphs they come from one click away.
        for block in blocks:
            block.collapsed = True
        listing = frame.turn_type == "condition_to_drug"
        labelled = [(f"{c.drug_name if listing else c.section_title}: {text}", c) for text, c in lead]
        blocks.insert(
            0,
            AnswerBlock(
                "Các thuốc Dược thư ghi chỉ định" if listing else f"{lead[0][1].drug_name} · nêu trong sách",
                kind_of(lead[0][1].section_key),
                lead[0][1].section_key,
                lead[0][1].drug_id,
                [(text, [c.index]) for text, c in labelled],
            ),
        )
        lines = [f"{text} [{c.index}]" for text, c in labelled] + lines
    if flagged:
        blocks.append(notice_block(flagged))
        lines.append(notice_text(flagged))
    for block in safety_blocks(retrieved, citations):
        blocks.append(block)
        lines += [text + "".join(f" [{i}]" for i in cited) for text, cited in block.claims]
    if retrieved.reason == "interaction_not_named_in_book":
        display = get_resolver().display
        names = " và ".join(display.get(d, d) for d in frame.drugs)
        absent = (
            f"Dược thư không nêu đích danh tương tác giữa {names} trong mục Tương tác thuốc; điều đó "
            "không có nghĩa là không có tương tác. Các đoạn mục Tương tác thuốc được trích bên dưới."
        )
        blocks.insert(
            0,
            AnswerBlock(
                "Không tìm thấy tương tác được nêu đích danh",
                BlockKind.NOTICE,
                "tuong_tac_thuoc",
                frame.drugs[0],
                [(absent, [])],
            ),
        )
        lines.insert(0, absent)
    if retrieved.reason == "condition_not_named_in_book" and frame.condition:
        # Not found is never "none" or "safe" (answer rule 10): say what was and was not found.
        absent = (
            f"Dược thư không nêu «{frame.situation or as_typed(frame.standalone_query or '', frame.condition)}» trong chuyên luận "
            "của thuốc này (đã tra Chống chỉ định, Thận trọng, Thời kỳ mang thai, cho con bú, "
            "Liều lượng, Tương tác, Tương kỵ, Bảo quản, Quá liều, Tác dụng không mong muốn); "
            "điều đó không có nghĩa là dùng được an toàn. Toàn văn mục Chống chỉ định được trích "
            "bên dưới."
        )
        first = citations[0] if citations else None
        blocks.insert(
            0,
            AnswerBlock(
                "Không tìm thấy tình trạng được hỏi",
                BlockKind.NOTICE,
                first.section_key if first else "",
                first.drug_id if first else "",
                [(absent, [])],
            ),
        )
        lines.insert(0, absent)
    named_first, named_last = not_found_blocks(frame)
    if named_first is not None:
        blocks.insert(0, named_first)
        lines.insert(0, named_first.claims[0][0])
    if named_last is not None:
        blocks.append(named_last)
        lines.append(named_last.claims[0][0])
    EXTRACTIVE.inc()
    decision = Outcome.VERIFY_PDF if flagged else Outcome.ANSWER
    reason = "visual_verification_required" if flagged else retrieved.reason
    return TurnResult(
        decision,
        reason,
        frame,
        "\n\n".join(lines),
        blocks,
        citations,
        quick_replies=did_you_mean(frame)[1],
        near_misses=retrieved.near_misses,
        extractive=True,
    )


