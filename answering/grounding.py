"""Deterministic grounding: every claim cites real blocks and every number in it is copied.

Claims are checked as the model returned them, each with its own citations (rendering them
into one text first let an uncited sentence merge into the cited one after it), and a claim
of several sentences is split so that every sentence carries the citations and is judged on
its own. Only the block(s) a claim names may support it: pooling every block's numbers once
let a number attributed to the wrong source pass.

Numbers are read the way the book prints them and compared character for character, never
parsed: `7,5` ≠ `7.5` ≠ `75` (a normaliser that strips separators scores `7,5` against `75`,
a tenfold dose error, as a match). A thousands group after a space, a no-break space or a
thin space belongs to its number (`1 500`, `10 000`, `5 000 đvqt`), so a claim's `500` is not
found in a block's `1 500`, and `2 500` is not found in a block with `2 mg` and `500 mg`. A
range (`0,5 - 1 g`) is its parts. `manage.py check_numbers` proves this on every number of
the loaded book. What this cannot do: tell whether a cited claim is entailed
by its block; that is the entailment judge's job (answering/generation.py).
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

_GROUP_RE = re.compile(r"(?:\s*\[\s*\d+\s*\])+")
_INDEX_RE = re.compile(r"\[\s*(\d+)\s*\]")
_THOUSANDS_SEPARATORS = " \u00a0\u2009\u202f"
# Digit groups joined by one such space are one number (the book has no other runs: 195 runs
# in the shared corpus, all thousands groups, once a group that runs into a letter, as in
# "P450 3A4", is left apart). So a claim's "10 0 00" is one number, not three parts to find.
_NUMBER_RE = re.compile(rf"(?<!\d)\d+(?:[{_THOUSANDS_SEPARATORS}]\d+(?![^\W\d_]))*(?:[.,]\d+)*")
_SEPARATOR_RE = re.compile(f"[{_THOUSANDS_SEPARATORS}]")
# A sentence ends at . ! ? followed by a space and a capital (a decimal point has no space).
_SENTENCE_END = re.compile(r"[.!?]\s+")
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
    """Every number as printed, its thousands separator written as one plain space."""
    return [_SEPARATOR_RE.sub(" ", m) for m in _NUMBER_RE.findall(text)]


def _substantive(text: str) -> bool:
    return sum(ch.isalpha() for ch in text) >= _MIN_CLAIM_LETTERS or bool(numeric_tokens(text))


def sentences(text: str) -> list[str]:
    parts, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        if text[match.end() : match.end() + 1].isupper():
            parts.append(text[start : match.start() + 1])
            start = match.end()
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


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


def verify_claims(
    claims: Sequence[tuple[str, Sequence[int]]], evidence: Sequence[str]
) -> GroundingResult:
    """Each claim on its own: cited, citations real, every number whole in a cited block."""
    checked: list[GroundedClaim] = []
    for text, cites in claims:
        parts = [s for s in sentences(text) if _substantive(s)]
        if not parts:
            continue
        if not cites:
            return GroundingResult(False, "uncited_claim", checked, text[:80])
        bad = [i for i in cites if not 1 <= i <= len(evidence)]
        if bad:
            return GroundingResult(
                False, "invalid_citation", checked, f"[{bad[0]}] of {len(evidence)}"
            )
        cited_numbers = {token for i in cites for token in numeric_tokens(evidence[i - 1])}
        for sentence in parts:
            for token in numeric_tokens(sentence):
                if token not in cited_numbers:
                    return GroundingResult(
                        False,
                        "ungrounded_number",
                        checked,
                        f"{token!r} is not in block(s) {list(cites)}",
                    )
            checked.append(GroundedClaim(sentence, tuple(cites)))
    if not checked:
        return GroundingResult(False, "uncited_claim", checked, "no cited claim")
    return GroundingResult(True, None, checked)


def verify(answer: str, evidence: Sequence[str]) -> GroundingResult:
    """An answer written as text with [n] markers: each marker group binds the text before it."""
    claims, trailing = split_claims(answer)
    if _substantive(trailing):
        claims.append(GroundedClaim(trailing, ()))
    return verify_claims([(c.text, c.citations) for c in claims], evidence)
