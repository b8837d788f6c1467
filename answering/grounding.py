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

Numbers are not checked bare (issue 20): "tối đa là 6 g/ngày" cited to "… 4 - 6 giờ một lần;
tối đa là 4 g/ngày" has every number in its block and is a wrong dose. Each amount of a claim
is read with its unit and what it is per (answering/amounts.py, `read_amounts`, the same
reader for the book and the answer) and must be an amount of a cited block written the same
way (a range whole: one end of "2 - 3 lần/ngày" is not it); and the amounts of one sentence
must follow one another in the block as they do in the claim, none skipping a nearer amount
of its own unit: "2 - 4 tuổi: 240 mg" is refused where the block says "2 - 4 tuổi: 180 mg;
4 - 6 tuổi: 240 mg".
`manage.py check_amounts` proves it on recombinations of the book's dose paragraphs.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import permutations

from answering.amounts import Amount, numeric_tokens, read_amounts

_GROUP_RE = re.compile(r"(?:\s*\[\s*\d+\s*\])+")
_INDEX_RE = re.compile(r"\[\s*(\d+)\s*\]")
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


# Units of a population band (age, weight, renal function): what a dose is given for.
BAND_UNITS = frozenset({"tuoi", "thang", "tuan", "nam", "kg", "ml/phut", "thangtuoi", "tuantuoi"})


def _follows(claimed: Sequence[Amount], book: Sequence[Amount]) -> bool:
    """The claimed amounts in the book's order; a value found before any other amount of its
    unit, and after a band before any other band of that kind (so no band's value moves into
    the next band); a band may follow past other bands, its value is checked next."""

    def search(k: int, start: int) -> bool:
        if k == len(claimed):
            return True
        want, prev = claimed[k], claimed[k - 1]
        blocking = {prev.unit} if prev.unit in BAND_UNITS else set()
        if want.unit not in BAND_UNITS:
            blocking.add(want.unit)
        for j in range(start, len(book)):
            if book[j].holds(want) and search(k + 1, j + 1):
                return True
            if k and not book[j].holds(want) and book[j].unit in blocking:
                return False
        return False

    return search(0, 0)


def amounts_follow_the_book(sentence: str, blocks: Sequence[str]) -> bool:
    """Every amount of the sentence is one of its cited blocks', in their order (the blocks
    taken in any order when there are three or fewer)."""
    claimed = read_amounts(sentence)
    if not claimed:
        return True
    ordered = permutations(blocks) if len(blocks) <= 3 else [tuple(blocks)]
    bare = [a for a in claimed if not a.unit]
    with_unit = [a for a in claimed if a.unit]
    for order in ordered:
        book = [a for text in order for a in read_amounts(text)]
        if all(any(b.holds(a) for b in book) for a in bare) and _follows(with_unit, book):
            return True
    return False


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
            if not amounts_follow_the_book(sentence, [evidence[i - 1] for i in cites]):
                return GroundingResult(
                    False, "ungrounded_quantity", checked, f"{sentence[:80]!r} in {list(cites)}"
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
