"""One turn, from question to what is shown: answer, abstain, clarify or verify_pdf.

Retrieval decides what is true; generation only decides how it reads. A generated answer
replaces the book's text only if it clears the deterministic grounding check and one
entailment pass; if anything fails (a check, the provider, the output format, the time
budget) the card shows the no-model answer for the same evidence under one line saying the
written summary was withheld, and the turn keeps the reason (mode `book_after_model_failed`).
"""

from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings

from answering.extractive import extractive_answer
from answering.generation import generated_answer
from answering.metrics import CLARIFY, TURNS
from answering.model_frame import understand_turn
from answering.notices import not_found_blocks
from answering.providers import Budget, Provider, get_provider
from answering.red_flags import FIRST_LINES
from answering.results import (
    MAX_QUESTION_CHARS,
    SMALLTALK_TEXT,
    AnswerBlock,
    BlockKind,
    TurnResult,
    abstain,
    quarantine_notice,
)
from answering.shapes.arbiter import choose
from corpus.catalog_models import turn_stamps
from corpus.text import clean_input
from retrieval.evidence import Outcome
from retrieval.frame import QueryFrame
from retrieval.turn_cache import one_turn

# Earlier questions handed to understanding: enough for a follow-up, bounded for the prompt.
HISTORY_TURNS = 6


def prior_frame(
    summary: Mapping[str, Any] | None, decision: str, question: str
) -> QueryFrame | None:
    """The previous turn's frame as a conversation keeps it (its summary, outcome, question)."""
    if not summary:
        return None
    return QueryFrame.from_summary(
        summary, needs_clarify=decision == Outcome.CLARIFY, standalone_query=question
    )


def answer_in_conversation(questions: Sequence[str]) -> TurnResult:
    """The last of `questions`, asked after the others in one conversation (as the chat page
    asks them): each earlier answer becomes the next one's prior frame."""
    *earlier, question = questions
    prior: QueryFrame | None = None
    for n, asked in enumerate(earlier):
        result = answer_turn(asked, earlier[max(0, n - HISTORY_TURNS) : n], prior)
        prior = prior_frame(result.frame.summary(), result.decision, asked)
    return answer_turn(question, earlier[-HISTORY_TURNS:], prior)


class _Configured:
    """The provider the settings name (the default); tests and tools pass one explicitly."""


CONFIGURED = _Configured()


def answer_turn(
    question: str,
    history: Sequence[str] = (),
    prior: QueryFrame | None = None,
    *,
    provider: Provider | None | _Configured = CONFIGURED,
    claimed_scope: str = "human",
) -> TurnResult:
    """Answer one turn. `history` is the earlier questions, `prior` the last turn's frame."""
    with one_turn(turn_stamps):
        result = with_red_flag(_answer(question, history, prior, provider, claimed_scope))
    TURNS.labels(result.decision, result.reason).inc()
    if result.decision == Outcome.CLARIFY:
        CLARIFY.labels(result.reason).inc()
    return result


def with_red_flag(result: TurnResult) -> TurnResult:
    """An emergency described: the card opens with its fixed line, whatever else it shows."""
    flag = result.frame.red_flag
    if flag is None:
        return result
    line = FIRST_LINES[flag]
    notice = AnswerBlock("Xử trí cấp cứu trước", BlockKind.NOTICE, "", "", [(line, [])])
    result.blocks.insert(0, notice)
    result.answer_text = f"{line}\n\n{result.answer_text}" if result.answer_text else line
    return result


def _answer(
    question: str,
    history: Sequence[str],
    prior: QueryFrame | None,
    provider: Provider | None | _Configured,
    claimed_scope: str,
) -> TurnResult:
    chosen = get_provider() if isinstance(provider, _Configured) else provider
    question = clean_input(question or "").strip()
    if not question:
        return abstain(QueryFrame(turn_type="out_of_scope"), "empty_question")
    if len(question) > MAX_QUESTION_CHARS:
        return abstain(QueryFrame(turn_type="out_of_scope"), "question_too_long")
    budget = Budget(settings.ANSWER_BUDGET_SECONDS)
    frame = understand_turn(
        question, history, prior, provider=chosen, budget=budget, claimed_scope=claimed_scope
    )
    if frame.system_error:
        return abstain(frame, frame.system_error)
    if frame.turn_type == "smalltalk":
        return TurnResult(Outcome.ANSWER, "smalltalk", frame, SMALLTALK_TEXT)
    retrieved = choose(frame, frame.standalone_query or question)
    if retrieved.decision == Outcome.ABSTAIN:
        return abstain(retrieved.frame, retrieved.reason, retrieved.near_misses)
    if retrieved.decision == Outcome.CLARIFY:
        return TurnResult(
            Outcome.CLARIFY,
            retrieved.reason,
            retrieved.frame,
            retrieved.clarifying_question or "",
            quick_replies=retrieved.quick_replies,
        )
    if chosen is None:
        return extractive_answer(retrieved)
    if retrieved.decision == Outcome.VERIFY_PDF:
        notice = quarantine_notice(retrieved)
        named_first, named_last = not_found_blocks(retrieved.frame)
        notice.blocks = [b for b in (named_first, *notice.blocks, named_last) if b is not None]
        return notice
    return generated_answer(question, retrieved, chosen, budget, history)
