"""The no-model answer: the book's own text, quoted verbatim with citations, the paragraphs
for the asked population, route, age or weight first, and plain statements of what the book
does not name ("không có nghĩa là an toàn")."""

from dataclasses import replace

from answering.floors import first_collapsed, floor_evidence, place_floors
from answering.leads import lead_sentences
from answering.metrics import EXTRACTIVE
from answering.notices import (
    not_found_blocks,
    route_block,
    route_replies,
    routes_in_view,
    safety_blocks,
)
from answering.ranking import focus
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
from answering.shapes import shape_of
from corpus.sections import SECTION_TITLES, SectionKey
from corpus.text import as_typed, words
from retrieval.catalog import get_resolver
from retrieval.evidence import Outcome, Reason
from retrieval.frame import QueryFrame, TurnType
from retrieval.phrases import population_matches
from retrieval.retrieve import Retrieved
from retrieval.which_drug_search import LONG_CONDITION

# What an answer shows before anything is expanded, when no paragraph stands out (issue 11:
# the median answer was 1.6k characters, one in ten over 10k).
VISIBLE_BUDGET = 1200


# A list's title, by the section its lines come from.
_LISTED: dict[str, str] = {
    SectionKey.CHI_DINH: "Các thuốc Dược thư ghi chỉ định",
    SectionKey.CHONG_CHI_DINH: "Các thuốc Dược thư ghi chống chỉ định",
    SectionKey.TAC_DUNG_KHONG_MONG_MUON: "Các thuốc Dược thư ghi tác dụng không mong muốn này",
}


def _lead_label(c: Citation, listing: bool) -> str:
    """A lead line's label: the drug in a list of drugs, else the section and its heading."""
    if listing:
        return c.drug_name
    return f"{c.section_title} · {c.label}" if c.label else c.section_title


def _cited_only(
    citations: list[Citation], blocks: list[AnswerBlock], main: int, keep: set[int]
) -> list[Citation]:
    """The answer's paragraphs and those of the floors that are shown or kept (a floor's
    contraindication awaiting review), numbered in order; a floor paragraph not shown is not
    cited."""
    used = {i for b in blocks for _, cited in b.claims for i in cited}
    kept = citations[:main] + [c for c in citations[main:] if c.index in used or c.chunk_id in keep]
    renumber = {c.index: n for n, c in enumerate(kept, 1)}
    for b in blocks:
        b.claims = [(t, [renumber.get(i, i) for i in cited]) for t, cited in b.claims]
    return [replace(c, index=n) for n, c in enumerate(kept, 1)]


def extractive_answer(retrieved: Retrieved, *, counted: bool = True) -> TurnResult:
    """Verbatim quotes with citations, the most relevant paragraphs first (`counted`: in the
    metrics; the arbiter's trial answers are not)."""
    frame = retrieved.frame
    evidence = list(retrieved.evidence)
    focused = focus(evidence, frame)
    rest = [e for e in evidence if e not in focused]
    ordered = focused + rest
    main = {e.chunk_id for e in ordered}
    extra = [e for e in dict.fromkeys(floor_evidence(retrieved)) if e.chunk_id not in main]
    extra = list({e.chunk_id: e for e in extra}.values())
    citations = citations_for(ordered + extra)
    shown = [c for c in citations if not c.quarantined and c.chunk_id in main]
    flagged = [c for c in citations if c.quarantined and c.chunk_id in main]
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
        collapsed = not relevant or not (
            fits or bool(in_view) or frame.turn_type == TurnType.INTERACTION
        )
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
    not_named = retrieved.reason in (
        "condition_not_named_in_book",
        "condition_not_found_as_typed",
        "interaction_not_named_in_book",
    )
    # A dose's lead comes from the paragraphs that fit the question, never from one it ranked
    # lower (a liver-failure band is not a child's dose).
    in_focus = [c for c in shown if not in_view or c.chunk_id in in_view]
    shape = shape_of(frame)
    lead_of = shape.lead if shape is not None else lead_sentences
    lead = [] if not_named else lead_of(frame, shown, in_focus)
    kept = shape.kept(frame, shown) if shape is not None and shape.kept else set()
    if kept and not lead:
        # What the shape keeps in view is in view, ahead of what is folded.
        for c, block in zip(shown, blocks, strict=True):
            block.collapsed = block.collapsed and c.chunk_id not in kept
        blocks.sort(key=lambda b: b.collapsed)
    if lead:
        # The answering sentences first; the paragraphs they come from one click away (a
        # dose band's or an antidote's paragraph stays in view: its frequency, maximum and
        # regimen are part of the answer).
        dose = (
            frame.attribute in (SectionKey.LIEU_LUONG_VA_CACH_DUNG, SectionKey.QUA_LIEU_VA_XU_TRI)
            and frame.turn_type != TurnType.INTERACTION
        )
        for c, block in zip(shown, blocks, strict=True):
            block.collapsed = c.chunk_id not in kept and (block.collapsed or not dose)
        # What the shape keeps in view comes right under the lead, ahead of what is folded.
        blocks.sort(key=lambda b: b.collapsed)
        listing = frame.turn_type == TurnType.CONDITION_TO_DRUG or (
            frame.turn_type == TurnType.CONDITION_RELATION and frame.shape == "which_drug"
        )
        labelled = [(f"{_lead_label(c, listing)}: {text}", c) for text, c in lead]
        blocks.insert(
            0,
            AnswerBlock(
                _LISTED.get(lead[0][1].section_key, _LISTED[SectionKey.CHI_DINH])
                if listing
                else f"{lead[0][1].drug_name} · nêu trong sách",
                kind_of(lead[0][1].section_key),
                lead[0][1].section_key,
                lead[0][1].drug_id,
                [(text, [c.index]) for text, c in labelled],
            ),
        )
        lines = [f"{text} [{c.index}]" for text, c in labelled] + lines
    floors = place_floors(retrieved, blocks, citations)
    # A contraindication the floor would show but that awaits a pharmacist's check of the
    # print is never left out silently: the card says to check it (and the turn is verify_pdf).
    held = {
        line.evidence.chunk_id
        for line in retrieved.floor
        if line.evidence.needs_visual_check
        and line.evidence.section_key == SectionKey.CHONG_CHI_DINH
    }
    citations = _cited_only(citations, blocks, len(ordered), held)
    flagged += [c for c in citations if c.chunk_id in held and c not in flagged]
    lines += [f"{text} [{cited[0]}]" for b in floors for text, cited in b.claims]
    if flagged:
        # What is withheld for the print check, and where to read it, in view: the held table
        # is often the answer ("Liều hiệu chỉnh theo Clcr như bảng sau:").
        blocks.insert(first_collapsed(blocks), notice_block(flagged))
        lines.append(notice_text(flagged))
    # The patient's own context (a medicine taken, a disease, a pregnancy) read against each
    # drug listed: in view under the list, ahead of the folded paragraphs.
    at = first_collapsed(blocks)
    for n, block in enumerate(safety_blocks(retrieved, citations)):
        blocks.insert(at + n, block)
        lines += [text + "".join(f" [{i}]" for i in cited) for text, cited in block.claims]
    # Asked whether it may be given, a contraindication naming the patient's situation in
    # view is the answer: that the pair is not named under it would read as reassurance.
    forbidden = frame.asks_use and any(
        line.names_situation and line.evidence.section_key == SectionKey.CHONG_CHI_DINH
        for line in retrieved.floor
    )
    if retrieved.reason == Reason.INTERACTION_NOT_NAMED_IN_BOOK and not forbidden:
        display = get_resolver().display
        names = " và ".join(display.get(d, d) for d in frame.drugs)
        absent = (
            f"Dược thư không nêu đích danh tương tác giữa {names} trong mục Tương tác thuốc; điều đó "
            "không có nghĩa là không có tương tác. Các đoạn mục Tương tác thuốc được trích bên dưới."
        )
        # "Có cho B được không" for a patient on A: what may stop it (the contraindications in
        # view) comes first; that the pair is not named is said after it, never as the lead.
        at = (
            next((n for n, b in enumerate(blocks) if b.collapsed), len(blocks))
            if frame.asks_use
            else 0
        )
        blocks.insert(
            at,
            AnswerBlock(
                "Không tìm thấy tương tác được nêu đích danh",
                BlockKind.NOTICE,
                SectionKey.TUONG_TAC_THUOC,
                frame.drugs[0],
                [(absent, [])],
            ),
        )
        lines.insert(0 if not frame.asks_use else len(lines), absent)
    # The situation as the user typed it, for the notices of what was not found.
    typed = frame.situation or as_typed(frame.standalone_query or "", frame.condition or "")
    # Words the user never typed (a population's book word put for "chạy thận nhân tạo") are
    # never quoted, and never said to be absent.
    said = set(words(typed)) <= set(words(frame.standalone_query or ""))
    if not said:
        # Put for the patient's population: the population as the user typed it ("suy thận",
        # "chạy thận nhân tạo"), whose book and ward words were all looked for.
        typed, said = _population_as_typed(frame) or (typed, False)
    if retrieved.reason == Reason.CONDITION_NOT_NAMED_IN_BOOK and frame.condition and said:
        # Not found is never "none" or "safe" (answer rule 10): say what was and was not found.
        absent = (
            f"Dược thư không nêu «{typed}» trong chuyên luận "
            "của thuốc này (đã tra Chống chỉ định, Thận trọng, Thời kỳ mang thai, cho con bú, "
            "Liều lượng, Tương tác, Tương kỵ, Bảo quản, Quá liều, Tác dụng không mong muốn); "
            "điều đó không có nghĩa là dùng được an toàn. Toàn văn mục "
            f"{SECTION_TITLES.get(frame.attribute or '', 'Chống chỉ định')} được trích bên dưới."
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
    unsaid = retrieved.reason == Reason.CONDITION_NOT_NAMED_IN_BOOK and not said
    if (retrieved.reason == Reason.CONDITION_NOT_FOUND_AS_TYPED or unsaid) and frame.condition:
        # The book says some of the situation's words, not the phrase: never "không nêu".
        # Quoted only as the user typed a situation: a vignette's leftover words are no phrase.
        short = said and len(typed.split()) <= LONG_CONDITION
        asked = f"«{typed}»" if short else "tình trạng được hỏi"
        missed = (
            f"Không tìm thấy câu nào nêu đúng {asked}; các đoạn dưới đây có những từ đó, cùng "
            "Chống chỉ định — đối chiếu trước khi dùng."
        )
        blocks.insert(
            0,
            AnswerBlock(
                "Không tìm thấy đúng cụm từ được hỏi",
                BlockKind.NOTICE,
                citations[0].section_key if citations else "",
                citations[0].drug_id if citations else "",
                [(missed, [])],
            ),
        )
        lines.insert(0, missed)
    several = routes_in_view(frame, blocks)
    if several:
        # An adult's dose with no route, paragraphs of several routes in view: named, with
        # one quick reply per route (a follow-up with the route narrows it).
        blocks.append(route_block(frame, several))
        lines.append(blocks[-1].claims[0][0])
    named_first, named_last = not_found_blocks(frame)
    if named_first is not None:
        blocks.insert(0, named_first)
        lines.insert(0, named_first.claims[0][0])
    if named_last is not None:
        blocks.append(named_last)
        lines.append(named_last.claims[0][0])
    if frame.quantities:
        # What the question's numbers were read as, in the book's notation (issue 24): a
        # misread weight or age is seen beside the dose it picked; in view, after what
        # answers (the lead and its paragraphs stay first).
        read = "Đã đọc từ câu hỏi: " + "; ".join(frame.quantities) + "."
        block = AnswerBlock("Số liệu trong câu hỏi", BlockKind.NOTICE, "", "", [(read, [])])
        blocks.insert(first_collapsed(blocks), block)
        lines.append(read)
    if counted:
        EXTRACTIVE.inc()
    decision = Outcome.VERIFY_PDF if flagged else Outcome.ANSWER
    reason = Reason.VISUAL_VERIFICATION_REQUIRED if flagged else retrieved.reason
    return TurnResult(
        decision,
        reason,
        frame,
        "\n\n".join(lines),
        blocks,
        citations,
        quick_replies=did_you_mean(frame)[1] or route_replies(several),
        near_misses=retrieved.near_misses,
        extractive=True,
    )


def _population_as_typed(frame: QueryFrame) -> tuple[str, bool] | None:
    query = frame.standalone_query or ""
    for match in population_matches(query):
        if match.key == frame.population:
            return as_typed(query, match.phrase), True
    return None
