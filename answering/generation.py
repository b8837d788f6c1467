"""The model path: one generation over the packed evidence, then the checks — every amount
as printed in its cited block, every citation real, list answers only about found drugs, and
one entailment pass (answering/judging.py) — with at most one repair. The book is the floor:
anything that fails (a check, the provider, the format, the budget) shows the no-model answer
for the same evidence, with one line saying the written summary was withheld and why."""

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace

from answering.extractive import extractive_answer
from answering.grounding import GroundedClaim, verify_claims
from answering.judging import judge_claims
from answering.notices import not_found_blocks, safety_blocks
from answering.prompts import answer_request, evidence_label
from answering.providers import Budget, Provider, ProviderError
from answering.ranking import focus_first
from answering.refusals import grounded_gap, is_refusal
from answering.results import (
    ABSTAIN_MESSAGES,
    AnswerBlock,
    AnswerMode,
    BlockKind,
    TurnResult,
    citations_for,
    clean_replies,
    did_you_mean,
    kind_of,
)
from answering.schemas import AnswerOut, json_schema, parse_output
from corpus.sections import DOSAGE_SECTIONS, WARNING_SECTIONS
from corpus.text import fold
from retrieval.evidence import Evidence, Outcome
from retrieval.retrieve import Retrieved

logger = logging.getLogger("duocthu.answer")

_NUMERIC_CUES = ("lieu", "bao nhieu", "tan suat", "ty le", "%", "nguong", "clcr", "mg", "kg")
_BREADTH_CUES = ("day du", "tat ca", "toan bo", "liet ke")


@dataclass
class _Draft:
    claims: list[tuple[str, list[int], str | None]]
    evidence_sufficient: bool
    clarifying_question: str | None
    quick_replies: list[str]


def _parse_draft(raw: str, list_mode: bool) -> _Draft:
    """The model's answer against its schema; any off-schema entry rejects the whole payload."""
    answer = parse_output(raw, AnswerOut)
    if list_mode and any(c.drug_id is None for c in answer.claims):
        raise ProviderError("malformed_output", "a list-mode claim has no drug_id")
    return _Draft(
        [(c.text.strip(), list(c.citations), c.drug_id) for c in answer.claims],
        answer.evidence_sufficient,
        answer.clarifying_question or None,
        clean_replies(answer.quick_replies or []),
    )


def _plan(question: str, evidence: Sequence[Evidence], list_mode: bool) -> dict[str, object]:
    sections = {e.section_key for e in evidence}
    folded = fold(question)
    layout = (
        "dosage"
        if sections & DOSAGE_SECTIONS
        else ("bullet_list" if list_mode or len(evidence) > 2 else "prose")
    )
    plan = {
        "layout": layout,
        "verbosity": "full" if any(c in folded for c in _BREADTH_CUES) else "focused",
        "sections": sorted(sections),
        "drugs": sorted({e.drug_id for e in evidence}),
        "list_mode": list_mode,
        "needs_warning": bool(sections & WARNING_SECTIONS),
    }
    # A false flag tells the model nothing (prompt size, issue 20).
    return {key: value for key, value in plan.items() if value is not False}


def _blocks_for(evidence: Sequence[Evidence]) -> list[tuple[str, str]]:
    return [
        (evidence_label(e.drug_id, e.drug_name, e.section_title, e.label), e.text) for e in evidence
    ]


def _generate(
    question: str,
    evidence: Sequence[Evidence],
    provider: Provider,
    budget: Budget,
    allowed: Sequence[str],
    missing: Sequence[str] = (),
    history: Sequence[str] = (),
) -> _Draft:
    plan = _plan(question, evidence, bool(allowed))
    suppressed = plan["layout"] != "dosage" and not any(c in fold(question) for c in _NUMERIC_CUES)
    system, user = answer_request(
        question,
        _blocks_for(evidence),
        plan,
        numeric_suppressed=suppressed,
        allowed_drugs=allowed,
        missing=missing,
        history=history,
    )
    # An answer's length scales with its evidence; a runaway reply is cut and refused.
    size = sum(e.tokens() for e in evidence)
    max_tokens = max(300, min(1500, 200 + size // 3))
    return _parse_draft(
        provider.complete(
            system,
            user,
            budget,
            max_tokens=max_tokens,
            kind="answer",
            schema=json_schema(AnswerOut),
        ),
        bool(allowed),
    )


def _is_refusal(draft: _Draft) -> bool:
    cited = any(cites for _, cites, _ in draft.claims)
    text = " ".join(t for t, _, _ in draft.claims) or (draft.clarifying_question or "")
    return not cited and is_refusal(text)


def _check(
    question: str,
    draft: _Draft,
    evidence: Sequence[Evidence],
    provider: Provider,
    budget: Budget,
    allowed: Sequence[str],
) -> tuple[str | None, list[str], list[GroundedClaim]]:
    """(reject reason or None, grounded 'missing' points for a repair, checked claims)."""
    texts = [e.text for e in evidence]
    grounding = verify_claims([(text, cites) for text, cites, _ in draft.claims], texts)
    if not grounding.ok:
        return grounding.reason, [], []
    if allowed:
        for _text, cites, drug_id in draft.claims:
            if drug_id not in allowed or any(evidence[i - 1].drug_id != drug_id for i in cites):
                return "unsupported_drug", [], []
    labelled = [_blocks_for([evidence[i - 1] for i in c.citations]) for c in grounding.claims]
    reason, missing = judge_claims(question, grounding.claims, evidence, labelled, provider, budget)
    return reason, missing, ([] if reason else grounding.claims)


def withheld_line(reason: str, said: str | None = None) -> str:
    """The one line a card shows above the book's text when a written answer was withheld."""
    if said:
        return f"Mô hình không soạn câu trả lời: «{said}» Dưới đây là nguyên văn Dược thư đã tra."
    why = ABSTAIN_MESSAGES.get(reason, "Câu trả lời soạn ra không qua được bước kiểm tra.")
    return f"Bản tóm tắt do mô hình soạn đã bị giữ lại: {why} Dưới đây là nguyên văn Dược thư."


def book_floor(retrieved: Retrieved, reason: str, said: str | None = None) -> TurnResult:
    """The no-model answer for the same evidence under the line saying what was withheld; the
    turn's reason says why (kept in the audit), its mode is `book_after_model_failed`."""
    logger.info("written answer withheld (%s): the book's text is shown", reason)
    result = extractive_answer(retrieved)
    line = withheld_line(reason, said)
    notice = AnswerBlock("Bản tóm tắt bị giữ lại", BlockKind.NOTICE, "", "", [(line, [])])
    result.blocks.insert(0, notice)
    result.answer_text = f"{line}\n\n{result.answer_text}".strip()
    result.reason, result.mode = reason, AnswerMode.BOOK_AFTER_MODEL_FAILED
    return result


def _gaps_apart(draft: _Draft, texts: Sequence[str]) -> tuple[_Draft, list[str]]:
    """The uncited book-gap sentences no passage contradicts, set apart from the claims to
    check ("Dược thư không nêu liều cho trẻ sơ sinh."); any other uncited claim stays."""
    gaps = [g for t, cites, _ in draft.claims if not cites and (g := grounded_gap(t, texts))]
    kept = [c for c in draft.claims if c[1] or not grounded_gap(c[0], texts)]
    return replace(draft, claims=kept), gaps


def _written(
    question: str,
    evidence: Sequence[Evidence],
    provider: Provider,
    budget: Budget,
    allowed: Sequence[str],
    history: Sequence[str],
) -> tuple[str | None, str | None, _Draft, list[GroundedClaim], list[str]]:
    """(failure reason, the model's gap sentence, the draft, its checked claims, its gaps)."""
    texts = [e.text for e in evidence]
    draft = _generate(question, evidence, provider, budget, allowed, history=history)
    if not draft.evidence_sufficient and not draft.clarifying_question:
        draft = _generate(question, evidence, provider, budget, allowed, history=history)
    if _is_refusal(draft):
        said = [t for t, _, _ in draft.claims] + [draft.clarifying_question or ""]
        gap = next((g for t in said if (g := grounded_gap(t, texts))), None)
        return "model_refused", gap, draft, [], []
    if draft.clarifying_question:
        return None, None, draft, [], []
    if not draft.evidence_sufficient:
        return "insufficient_evidence", None, draft, [], []
    draft, gaps = _gaps_apart(draft, texts)
    if not draft.claims:
        return "model_refused", gaps[0] if gaps else None, draft, [], []
    reason, missing, checked = _check(question, draft, evidence, provider, budget, allowed)
    if reason is None and missing:
        repaired, gaps = _gaps_apart(
            _generate(question, evidence, provider, budget, allowed, missing, history), texts
        )
        again, still, fixed = _check(question, repaired, evidence, provider, budget, allowed)
        # Never repaired into an abstain: a repair that fails leaves the book's text.
        reason = again or ("incomplete_answer" if still else None)
        checked = [] if reason else fixed
    return reason, None, draft, checked, gaps


def generated_answer(
    question: str,
    retrieved: Retrieved,
    provider: Provider,
    budget: Budget,
    history: Sequence[str] = (),
) -> TurnResult:
    """The written answer, or the book's (mode `book_after_model_failed`) when it fails;
    `history` is the conversation's earlier questions, shown to the model as history."""
    frame = retrieved.frame
    # The model reads the passages in the order the no-model answer shows them, each with
    # its section and paragraph label: generation starts from the right text.
    evidence = focus_first(retrieved.evidence, frame)
    allowed = (
        sorted({e.drug_id for e in evidence}) if frame.turn_type == "condition_to_drug" else []
    )
    citations = citations_for(evidence)
    try:
        reason, gap, draft, checked, gaps = _written(
            question, evidence, provider, budget, allowed, history
        )
    except ProviderError as exc:
        logger.warning("generation failed: %s", exc)
        return book_floor(retrieved, exc.reason)
    if reason is not None:
        return book_floor(retrieved, reason, gap)
    if draft.clarifying_question:
        frame = replace(frame, needs_clarify=True, quick_replies=tuple(draft.quick_replies))
        return TurnResult(
            Outcome.CLARIFY,
            "model_asked_back",
            frame,
            draft.clarifying_question,
            quick_replies=draft.quick_replies,
            mode=AnswerMode.MODEL,
        )
    blocks: dict[tuple[str, str], AnswerBlock] = {}
    for claim in checked:
        first = citations[claim.citations[0] - 1]
        key = (first.drug_id, first.section_key)
        if key not in blocks:
            blocks[key] = AnswerBlock(
                f"{first.drug_name} · {first.section_title}",
                kind_of(first.section_key),
                first.section_key,
                first.drug_id,
                [],
            )
        blocks[key].claims.append((claim.text, list(claim.citations)))
    named_first, named_last = not_found_blocks(frame)
    not_said = [AnswerBlock("Sách không nêu", BlockKind.NOTICE, "", "", [(g, []) for g in gaps])]
    shown = [
        *([named_first] if named_first else []),
        *blocks.values(),
        *(not_said if gaps else []),
        *safety_blocks(retrieved, citations),
        *([named_last] if named_last else []),
    ]
    text = "\n".join(
        f"{text} " + "".join(f"[{i}]" for i in cites) for b in shown for text, cites in b.claims
    ).replace(" \n", "\n")
    return TurnResult(
        Outcome.ANSWER,
        "grounded_answer",
        frame,
        text.strip(),
        shown,
        citations,
        quick_replies=did_you_mean(frame)[1],
        mode=AnswerMode.MODEL,
    )
