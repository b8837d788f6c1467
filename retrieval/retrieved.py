"""What a search returns: the evidence of one reading of the question and the decision on it.

The frame is read, never changed: what retrieval decided (the drugs a reverse lookup found,
the section a condition sits in, the bands to ask back with) comes back as `Retrieved.frame`.
"""

from dataclasses import dataclass, field, replace

from retrieval.evidence import Evidence, Outcome, SafetyFinding, decide, unique_evidence
from retrieval.floor import FloorLine
from retrieval.frame import QueryFrame
from retrieval.question_words import Situation


@dataclass
class Retrieved:
    frame: QueryFrame  # the question's frame with what retrieval decided
    evidence: list[Evidence]
    decision: Outcome
    reason: str
    quick_replies: list[str] = field(default_factory=list)
    clarifying_question: str | None = None
    near_misses: list[str] = field(default_factory=list)
    safety: list[SafetyFinding] = field(default_factory=list)
    # What stays in view whatever reading won (retrieval.floor): the contraindication floor of
    # a "may it be given" question, the best plain-ranked paragraphs, the informative words
    # of the question (idf) that decide whether those show.
    floor: list[FloorLine] = field(default_factory=list)
    ranked: list[Evidence] = field(default_factory=list)
    situation: Situation = field(default_factory=lambda: Situation({}))


def from_decision(
    frame: QueryFrame, evidence: list[Evidence], reason: str | None = None
) -> Retrieved:
    """The evidence with the one evidence policy's decision; `reason` names an answer's kind."""
    verdict = decide(evidence)
    answered = verdict.decision == Outcome.ANSWER
    return Retrieved(
        frame, evidence, verdict.decision, reason if answered and reason else verdict.reason
    )


def ahead_of(asked: Retrieved, first: list[Evidence]) -> Retrieved:
    """A search's result with other paragraphs ahead of its own, decided again by the one
    evidence policy; the rest of what it found (quick replies, near misses) kept."""
    if not first:
        return asked
    decided = from_decision(asked.frame, unique_evidence(first + list(asked.evidence)))
    return replace(
        asked, evidence=decided.evidence, decision=decided.decision, reason=decided.reason
    )


def sub_phrases(condition: str, most: int = 60) -> list[str]:
    """The condition, then its contiguous sub-phrases of two words or more, longest first."""
    tokens = condition.split()
    if len(tokens) == 1:
        return tokens
    phrases = []
    for length in range(len(tokens), 1, -1):
        for start in range(0, len(tokens) - length + 1):
            phrases.append(" ".join(tokens[start : start + length]))
    return phrases[:most]
