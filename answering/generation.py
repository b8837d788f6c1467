"""The model path: one generation over the packed evidence, then the checks — every number
verbatim in its cited block, every citation real, list answers only about found drugs, and one
entailment pass — with at most one repair. Anything that fails abstains with its reason."""

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from answering.canary import plant_among
from answering.grounding import GroundedClaim, numeric_tokens, verify_claims
from answering.metrics import JUDGE_UNRELIABLE
from answering.notices import not_found_blocks, safety_blocks
from answering.prompts import answer_request, entailment_request, evidence_label
from answering.providers import Budget, Provider, ProviderError
from answering.ranking import focus_first
from answering.results import (
    DOSAGE_SECTIONS,
    WARNING_SECTIONS,
    AnswerBlock,
    TurnResult,
    abstain,
    citations_for,
    clean_replies,
    did_you_mean,
    kind_of,
    pages,
)
from answering.schemas import AnswerOut, VerdictOut, parse_output
from corpus.text import fold, words
from retrieval.evidence import Evidence, Outcome
from retrieval.retrieve import Retrieved

logger = logging.getLogger("duocthu.answer")

_NUMERIC_CUES = ("lieu", "bao nhieu", "tan suat", "ty le", "%", "nguong", "clcr", "mg", "kg")
_BREADTH_CUES = ("day du", "tat ca", "toan bo", "liet ke")
_REFUSAL_RE = re.compile(
    r"^(xin lỗi|rất tiếc|tôi không thể|không thể trả lời|dược thư không (nêu|có|đề cập)|"
    r"không có thông tin|không tìm thấy)",
    re.IGNORECASE,
)


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
    return {
        "layout": layout,
        "verbosity": "full" if any(c in folded for c in _BREADTH_CUES) else "focused",
        "sections": sorted(sections),
        "drugs": sorted({e.drug_id for e in evidence}),
        "list_mode": list_mode,
        "needs_warning": bool(sections & WARNING_SECTIONS),
    }


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
            schema=AnswerOut.model_json_schema(),
        ),
        bool(allowed),
    )


def _is_refusal(draft: _Draft) -> bool:
    cited = any(cites for _, cites, _ in draft.claims)
    text = " ".join(t for t, _, _ in draft.claims) or (draft.clarifying_question or "")
    return not cited and bool(_REFUSAL_RE.search(text.strip()[:80]))


def _check(
    question: str,
    draft: _Draft,
    evidence: Sequence[Evidence],
    provider: Provider,
    budget: Budget,
    allowed: Sequence[str],
) -> tuple[str | None, list[str], list[GroundedClaim]]:
    """(reject reason or None, grounded 'missing' descriptions for a repair, checked claims)."""
    texts = [e.text for e in evidence]
    grounding = verify_claims([(text, cites) for text, cites, _ in draft.claims], texts)
    if not grounding.ok:
        return grounding.reason, [], []
    if allowed:
        for _text, cites, drug_id in draft.claims:
            if drug_id not in allowed or any(evidence[i - 1].drug_id != drug_id for i in cites):
                return "unsupported_drug", [], []
    pairs = [
        (c.text, _blocks_for([evidence[i - 1] for i in c.citations])) for c in grounding.claims
    ]
    # One planted claim its block does not support, shuffled in: a judge that calls it
    # supported is not judging (answering/canary.py).
    cited = evidence[grounding.claims[0].citations[0] - 1]
    mixed, plant = plant_among(pairs, [cited], _blocks_for([cited]))
    system, user = entailment_request(question, mixed)
    verdict = parse_output(
        provider.complete(
            system,
            user,
            budget,
            max_tokens=120 + 80 * len(mixed),
            kind="judge",
            schema=VerdictOut.model_json_schema(),
        ),
        VerdictOut,
    )
    if len(verdict.claims) < len(mixed):
        raise ProviderError("malformed_output", "the judge skipped claims")
    if verdict.claims[plant.position].supported:
        JUDGE_UNRELIABLE.inc()
        logger.warning("judge called the planted claim supported: verdict void")
        return "judge_unreliable", [], []
    real = [item for n, item in enumerate(verdict.claims[: len(mixed)]) if n != plant.position]
    if any(not item.supported for item in real):
        return "unsupported_claim", [], []
    if verdict.complete:
        return None, [], grounding.claims
    grounded = [
        m.description
        for m in verdict.missing or []
        if quote_supports_missing(m.description, m.evidence_quote, texts)
    ]
    return None, grounded, grounding.claims


_META = frozenset("thieu khong neu chua de cap thong tin ve cua cac va la cho trong".split())


def quote_supports_missing(description: str, quote: str, evidence: Sequence[str]) -> bool:
    """A 'missing' objection counts only if its quote is verbatim evidence that backs it."""
    if not isinstance(description, str) or not isinstance(quote, str) or len(quote.strip()) < 8:
        return False
    squash = lambda s: " ".join(s.split())  # noqa: E731
    if not any(squash(quote) in squash(text) for text in evidence):
        return False
    described = [w for w in words(description) if w not in _META]
    if not described:
        return False
    quoted = set(words(quote))
    if sum(w in quoted for w in described) / len(described) < 0.5:
        return False
    return all(n in numeric_tokens(quote) for n in numeric_tokens(description))


def generated_answer(
    question: str, retrieved: Retrieved, provider: Provider, budget: Budget
) -> TurnResult:
    frame = retrieved.frame
    # The model reads the passages in the order the no-model answer shows them, each with
    # its section and paragraph label: generation starts from the right text.
    evidence = focus_first(retrieved.evidence, frame)
    allowed = (
        sorted({e.drug_id for e in evidence}) if frame.turn_type == "condition_to_drug" else []
    )
    citations = citations_for(evidence)
    near = [f"{c.drug_name} · {c.section_title} ({pages(c)})" for c in citations]
    try:
        draft = _generate(question, evidence, provider, budget, allowed)
        if not draft.evidence_sufficient and not draft.clarifying_question:
            draft = _generate(question, evidence, provider, budget, allowed)  # one identical retry
        if _is_refusal(draft):
            return abstain(frame, "model_refused", near)
        if draft.clarifying_question:
            frame = replace(frame, needs_clarify=True, quick_replies=tuple(draft.quick_replies))
            return TurnResult(
                Outcome.CLARIFY,
                "model_asked_back",
                frame,
                draft.clarifying_question,
                quick_replies=draft.quick_replies,
            )
        if not draft.evidence_sufficient:
            return abstain(frame, "insufficient_evidence", near)
        reason, missing, checked = _check(question, draft, evidence, provider, budget, allowed)
        if reason is None and missing:
            draft = _generate(question, evidence, provider, budget, allowed, missing)
            reason, still_missing, checked = _check(
                question, draft, evidence, provider, budget, allowed
            )
            if reason is None and still_missing:
                reason = "incomplete_answer"
    except ProviderError as exc:
        logger.warning("generation abstained: %s", exc)
        return abstain(frame, exc.reason, near)
    if reason is not None:
        return abstain(frame, reason, near)
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
    shown = [
        *([named_first] if named_first else []),
        *blocks.values(),
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
    )
