"""The entailment pass over a written answer's grounded claims: one judge call with a planted
claim among the real ones (answering/canary.py), then the judge's completeness objections —
each kept only if its quote is verbatim evidence that backs it and the answer does not
already state it (issue 20: a complete answer was "repaired" into `incomplete_answer`)."""

import logging
from collections.abc import Sequence

from answering.amounts import numeric_tokens, read_amounts
from answering.canary import plant_among
from answering.grounding import GroundedClaim
from answering.metrics import JUDGE_UNRELIABLE
from answering.prompts import entailment_request
from answering.providers import Budget, Provider, ProviderError
from answering.schemas import VerdictOut, json_schema, parse_output
from corpus.text import words
from retrieval.evidence import Evidence

logger = logging.getLogger("duocthu.answer")

_META = frozenset("thieu khong neu chua de cap thong tin ve cua cac va la cho trong".split())
# A point counts as stated when this share of its words is in the answer (with its amounts).
_STATED_SHARE = 0.6

Labelled = list[tuple[str, str]]


def judge_claims(
    question: str,
    claims: Sequence[GroundedClaim],
    evidence: Sequence[Evidence],
    labelled: Sequence[Labelled],
    provider: Provider,
    budget: Budget,
) -> tuple[str | None, list[str]]:
    """(reject reason or None, the grounded points the answer misses) for grounded claims;
    `labelled[n]` is claim n's cited blocks as the judge sees them."""
    pairs = [(c.text, list(blocks)) for c, blocks in zip(claims, labelled, strict=True)]
    cited = evidence[claims[0].citations[0] - 1]
    mixed, plant = plant_among(pairs, [cited], labelled[0][:1])
    system, user = entailment_request(question, mixed)
    verdict = parse_output(
        provider.complete(
            system,
            user,
            budget,
            max_tokens=120 + 80 * len(mixed),
            kind="judge",
            schema=json_schema(VerdictOut),
        ),
        VerdictOut,
    )
    if len(verdict.claims) < len(mixed):
        raise ProviderError("malformed_output", "the judge skipped claims")
    if verdict.claims[plant.position].supported:
        JUDGE_UNRELIABLE.inc()
        logger.warning("judge called the planted claim supported: verdict void")
        return "judge_unreliable", []
    real = [item for n, item in enumerate(verdict.claims[: len(mixed)]) if n != plant.position]
    if any(not item.supported for item in real):
        return "unsupported_claim", []
    if verdict.complete:
        return None, []
    texts = [e.text for e in evidence]
    answer = " ".join(c.text for c in claims)
    return None, [
        m.description
        for m in verdict.missing or []
        if quote_supports_missing(m.description, m.evidence_quote, texts)
        and not already_stated(m.description, m.evidence_quote, answer)
    ]


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


def already_stated(description: str, quote: str, answer: str) -> bool:
    """Whether the answer already says the point: every amount of the point (the description's,
    else the quote's) among the answer's, with its unit, and most of its words in the answer."""
    said = read_amounts(answer)
    point = read_amounts(description) or read_amounts(quote)
    if not all(any(a.holds(p) for a in said) for p in point):
        return False
    described = [w for w in words(description) if w not in _META] or words(quote)
    have = set(words(answer))
    return bool(described) and sum(w in have for w in described) / len(described) >= _STATED_SHARE
