"""What a question shape is: three small steps over one question.

- *recognise*: how strongly the question reads as this shape (a prior from the cue phrases
  it says; the registry's order is the order of these priors) and the frame of that reading;
- *search*: the evidence of that reading (a function of retrieval.searches: retrieval keeps
  the queries and the decision);
- *lead*: the opening lines of the answer, cut from the cited paragraphs.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from answering.reading import Reading
from answering.results import Citation
from retrieval.frame import QueryFrame
from retrieval.searches import Search

Lead = Callable[[QueryFrame, Sequence[Citation], Sequence[Citation]], list[tuple[str, Citation]]]
# The paragraphs that stay in view under the lead (by chunk id), when the lead alone is not the
# whole answer (a short ADR management section).
Kept = Callable[[QueryFrame, Sequence[Citation]], set[int]]


@dataclass(frozen=True)
class Candidate:
    """One reading of the question: which shape read it, how strongly, as what frame."""

    shape: str
    prior: int
    frame: QueryFrame


@dataclass(frozen=True)
class Shape:
    name: str
    recognise: Callable[[Reading], list[Candidate]] | None
    search: Search
    lead: Lead
    # A shape that re-reads the frame another shape chose (an emergency around any question)
    # instead of recognising the question on its own.
    # With the question as typed.
    reread: Callable[[QueryFrame, str], QueryFrame] | None = None
    kept: Kept | None = None


def candidate(shape: str, prior: int, frame: QueryFrame) -> Candidate:
    """A reading of `shape`, its frame marked with the shape that produced it."""
    return Candidate(shape, prior, replace(frame, shape=shape))
