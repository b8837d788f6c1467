"""Whether an answer delivers its key fact, and how much a user reads before expanding.

Issue 11's measure: the key fact (a verbatim phrase of the book the question is about) is
*delivered* when the answer shows it anywhere, *before any collapsed part* when it sits in a
block in view ahead of the first block one click away; the *visible length* is the characters
of the blocks in view. Matching is on folded words, so markup and spacing do not count.
"""

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from answering.results import TurnResult
from corpus.text import words


@dataclass(frozen=True)
class Delivery:
    delivered: bool
    before_collapsed: bool
    visible_chars: int


def _has(text: str, key: str) -> bool:
    # Word-bounded at the start; the key's last word may be cut ("… cho trẻ em ph").
    wanted = " ".join(words(key))
    return bool(wanted) and f" {wanted}" in f" {' '.join(words(text))} "


def delivery(result: TurnResult, key: str | Sequence[str]) -> Delivery:
    """How the answer delivers the key fact (or any of its spellings: a drug's names)."""
    keys = [key] if isinstance(key, str) else list(key)
    ahead: list[str] = []
    visible = 0
    folded_yet = False
    for block in result.blocks:
        text = " ".join(t for t, _ in block.claims)
        if block.collapsed:
            folded_yet = True
            continue
        visible += len(text)
        if not folded_yet:
            ahead.append(text)
    everything = " ".join(t for b in result.blocks for t, _ in b.claims) + " " + result.answer_text
    seen = " ".join(ahead)
    return Delivery(
        any(_has(everything, k) for k in keys), any(_has(seen, k) for k in keys), visible
    )


@dataclass(frozen=True)
class Tally:
    questions: int
    delivered: int
    before_collapsed: int
    median_visible: int
    p90_visible: int

    def line(self) -> str:
        n = max(self.questions, 1)
        return (
            f"key fact delivered {self.delivered / n:.3f} ({self.delivered}/{self.questions}), "
            f"before any collapsed part {self.before_collapsed / n:.3f} "
            f"({self.before_collapsed}/{self.questions}); visible median {self.median_visible}, "
            f"p90 {self.p90_visible} chars"
        )


def tally(deliveries: Iterable[Delivery]) -> Tally:
    items: Sequence[Delivery] = list(deliveries)
    sizes = sorted(d.visible_chars for d in items)
    p90 = sizes[min(len(sizes) - 1, int(0.9 * len(sizes)))] if sizes else 0
    return Tally(
        len(items),
        sum(d.delivered for d in items),
        sum(d.before_collapsed for d in items),
        int(statistics.median(sizes)) if sizes else 0,
        p90,
    )
