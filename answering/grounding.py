"""Deterministic grounding: every claim cites real blocks and every number in it is copied.

Binding is per citation group: the text before a marker group is that group's claim, and
only the block(s) that group names may support it (pooling every block's numbers once let
a number attributed to the wrong source pass). Numbers are compared character for
character and never parsed: `1.500` is 1500 under one reading and 1,5 under another, and a
normaliser that strips separators scores `7,5` against `75`, a tenfold dose error, as a
match. The model is told to copy figures verbatim, so exact matching is achievable.

What this cannot do: tell whether a cited non-numeric claim is entailed by its block. That
is the entailment judge's job (answering/answer.py).
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

_GROUP_RE = re.compile(r"(?:\s*\[\s*\d+\s*\])+")
_INDEX_RE = re.compile(r"\[\s*(\d+)\s*\]")
_NUMBER_RE = re.compile(r"\d+(?:[.,]\d+)*")
# A segment with fewer letters than this is punctuation or a connective, not a claim.
_MIN_CLAIM_LETTERS = 3


@dataclass(frozen=True)
class GroundedClaim:
    text: str
    citations: tuple[int, ...]


@dataclass
class GroundingResult:
    ok: bool
    reason: str | None = None
    claims: list[GroundedClaim] = field(default_factory=list)
    detail: str = ""


def numeric_tokens(text: str) -> list[str]:
    return _NUMBER_RE.findall(text)


def _substantive(text: str) -> bool:
    return sum(ch.isalpha() for ch in text) >= _MIN_CLAIM_LETTERS or bool(numeric_tokens(text))


def split_claims(answer: str) -> tuple[list[GroundedClaim], str]:
    """(claims bound to their marker group, the trailing text after the last group)."""
    claims: list[GroundedClaim] = []
    position = 0
    for match in _GROUP_RE.finditer(answer):
        text = answer[position : match.start()].strip()
        indices = tuple(int(i) for i in _INDEX_RE.findall(match.group(0)))
        claims.append(GroundedClaim(text, indices))
        position = match.end()
    return claims, answer[position:].strip()


def verify(answer: str, evidence: Sequence[str]) -> GroundingResult:
    claims, trailing = split_claims(answer)
    for claim in claims:
        bad = [i for i in claim.citations if not 1 <= i <= len(evidence)]
        if bad:
            return GroundingResult(
                False, "invalid_citation", claims, f"[{bad[0]}] of {len(evidence)}"
            )
    for claim in claims:
        if not _substantive(claim.text):
            continue
        cited_numbers = {
            token for i in claim.citations for token in numeric_tokens(evidence[i - 1])
        }
        for token in numeric_tokens(claim.text):
            if token not in cited_numbers:
                return GroundingResult(
                    False,
                    "ungrounded_number",
                    claims,
                    f"{token!r} is not in block(s) {list(claim.citations)}",
                )
    if _substantive(trailing):
        return GroundingResult(False, "uncited_claim", claims, trailing[:80])
    if not any(_substantive(c.text) for c in claims):
        return GroundingResult(False, "uncited_claim", claims, "no cited claim")
    return GroundingResult(True, None, [c for c in claims if _substantive(c.text)])
