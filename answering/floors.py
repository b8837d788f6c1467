"""The floors of retrieval (`retrieval.floor`) as answer blocks, in view.

Placed before the first collapsed block, so they are read without a click: the
contraindication lines that say the situation first (ahead of any lead from another
section: a line of the dose or ADR paragraphs never stands in front of a contraindication
naming the same situation), the rest of the floor after the lead, then the paragraphs
ranked best, in the asked section and in the drug, when they say the question's words and
the view does not show them.
"""

from collections.abc import Sequence

from answering.results import AnswerBlock, BlockKind, Citation, kind_of
from corpus.sections import SectionKey
from corpus.text import prints_phrase
from retrieval.evidence import Evidence, Reason
from retrieval.floor import RANKED_COVERAGE, RANKED_MARGIN, FloorLine, says_any
from retrieval.question_words import coverage, names_situation
from retrieval.retrieve import Retrieved
from retrieval.situations import with_synonyms


def floor_evidence(retrieved: Retrieved) -> list[Evidence]:
    """Every paragraph the floors may quote, to be cited."""
    return [line.evidence for line in retrieved.floor] + list(retrieved.ranked)


def in_view(blocks: Sequence[AnswerBlock]) -> list[AnswerBlock]:
    """The blocks the card shows before anything is expanded."""
    return list(blocks[: first_collapsed(blocks)])


def view_text(blocks: Sequence[AnswerBlock], book_only: bool = False) -> str:
    """What the card shows before anything is expanded; `book_only`: the book's lines alone,
    without the card's own notices (a held table's, the numbers read from the question)."""
    shown = (b for b in in_view(blocks) if not (book_only and b.kind == BlockKind.NOTICE))
    return "\n".join(text for block in shown for text, _ in block.claims)


def _seen(line: str, view: str) -> bool:
    """Whether the view already shows the line (whole, or its opening as a lead sentence)."""
    return line in view or line[:60] in view


def first_collapsed(blocks: Sequence[AnswerBlock]) -> int:
    return next((n for n, b in enumerate(blocks) if b.collapsed), len(blocks))


def _floor_block(line: FloorLine, c: Citation) -> AnswerBlock:
    title = f"{c.drug_name} · {c.section_title}" + ("" if line.whole else " · dòng liên quan")
    return AnswerBlock(
        title,
        kind_of(c.section_key),
        c.section_key,
        c.drug_id,
        [(t, [c.index]) for t in line.lines],
    )


def place_floors(
    retrieved: Retrieved, blocks: list[AnswerBlock], citations: Sequence[Citation]
) -> list[AnswerBlock]:
    """Insert the floor blocks in view (in place) and return them."""
    by_chunk = {c.chunk_id: c for c in citations if not c.quarantined}
    seen = view_text(blocks)
    lead_is_contraindication = bool(blocks) and blocks[0].section_key == SectionKey.CHONG_CHI_DINH
    front: list[AnswerBlock] = []
    after: list[AnswerBlock] = []
    shown = [text for b in in_view(blocks) for text, _ in b.claims]
    for line in retrieved.floor:
        c = by_chunk.get(line.evidence.chunk_id)
        if c is None or (not line.first and all(_seen(text, seen) for text in line.lines)):
            continue
        block = _floor_block(line, c)
        seen += "\n" + "\n".join(line.lines)
        shown.append("\n".join(line.lines))
        is_contraindication = c.section_key == SectionKey.CHONG_CHI_DINH
        leads = line.names_situation and (is_contraindication or c.section_key == line.leads_in)
        leads = leads and not (line.says and says_any(seen, line.says))
        if line.first or (leads and not (is_contraindication and lead_is_contraindication)):
            front.append(block)
        else:
            after.append(block)
    # A paragraph the floor shows whole is not repeated one click away.
    whole = {
        by_chunk[line.evidence.chunk_id].index
        for line in retrieved.floor
        if line.whole and line.evidence.chunk_id in by_chunk
    }
    shown_whole = {cited[0] for b in front + after for _, cited in b.claims if cited} & whole
    blocks[:] = [
        b
        for b in blocks
        if not (b.collapsed and len(b.claims) == 1 and set(b.claims[0][1]) <= shown_whole)
    ]
    after += _ranked_blocks(retrieved, by_chunk, seen, shown)
    start = _after_notices(blocks)
    blocks[start:start] = front
    at = first_collapsed(blocks)
    blocks[at:at] = after
    return front + after


def _after_notices(blocks: Sequence[AnswerBlock]) -> int:
    """Where the answer proper starts: after the notices that head the card."""
    n = 0
    while n < len(blocks) and blocks[n].kind == BlockKind.NOTICE and not blocks[n].collapsed:
        n += 1
    return n


def _ranked_blocks(
    retrieved: Retrieved, by_chunk: dict[int, Citation], seen: str, shown: Sequence[str]
) -> list[AnswerBlock]:
    """The asked section's best-ranked paragraph when it says the situation (a rare word or
    pair of the question's: the dose for the indication named, "COPD đợt cấp … mấy ngày"),
    then the best-ranked paragraph of the drug when it says the question's words better than
    the view; neither when the view shows it."""
    situation = retrieved.situation
    blocks = []
    asked = retrieved.frame.attribute
    best = next((e for e in retrieved.ranked if e.section_key == asked), None)
    c = by_chunk.get(best.chunk_id) if best is not None else None
    if best is not None and c is not None and c.text not in seen:
        if names_situation(best.text, situation):
            blocks.append(_ranked(c))
    # The phrase search missed but the monograph says the situation's words: the paragraph
    # saying them is what a pharmacist reads next, in place of a "not named".
    missed = retrieved.reason == Reason.CONDITION_NOT_FOUND_AS_TYPED
    # Or a phrase of the book's for it, however generic its words ("nhức đầu" for "đau đầu").
    phrases = with_synonyms(retrieved.frame.condition or "") if missed else []
    for e in retrieved.ranked:
        c = by_chunk.get(e.chunk_id)
        if c is None or c.text in seen or any(c.text == b.claims[0][0] for b in blocks):
            continue
        covered = coverage(e.text, situation)
        better = (
            covered >= RANKED_COVERAGE
            and covered >= max((coverage(t, situation) for t in shown), default=0.0) + RANKED_MARGIN
            and names_situation(e.text, situation)
        )
        if (missed and (covered > 0 or prints_phrase(e.text, phrases))) or better:
            blocks.append(_ranked(c))
        break
    return blocks


def _ranked(c: Citation) -> AnswerBlock:
    return AnswerBlock(
        f"{c.drug_name} · {c.section_title} · đoạn có các từ của câu hỏi",
        kind_of(c.section_key),
        c.section_key,
        c.drug_id,
        [(c.text, [c.index])],
    )
