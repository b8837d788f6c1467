"""Evidence and the decision on it: value types and pure functions, no database.

`decide()` is the one evidence policy: any pool of evidence becomes ANSWER, VERIFY_PDF or
ABSTAIN with a named reason. `fuse()` merges ranked lists, `pack()` bounds the context.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from django.db.models.enums import TextChoices

from corpus.text import words

MAX_CONTEXT_TOKENS = 6000
RRF_K = 60  # the constant of Cormack et al.'s reciprocal-rank fusion


class Outcome(TextChoices):
    """What a turn shows; the one spelling of the decision for retrieval, answers and turns."""

    ANSWER = "answer", "Trả lời"
    ABSTAIN = "abstain", "Từ chối"
    CLARIFY = "clarify", "Hỏi lại"
    VERIFY_PDF = "verify_pdf", "Kiểm tra bản in"


@dataclass(frozen=True)
class Evidence:
    chunk_id: int
    drug_id: str
    drug_name: str
    section_key: str
    section_title: str
    label: str
    kind: str
    text: str
    page_start: int | None
    page_end: int | None
    requires_visual_check: bool
    has_quarantined_content: bool
    content_hash: str
    score: float = 1.0
    route: str = "section"

    @property
    def has_provenance(self) -> bool:
        return bool(self.drug_id and self.section_key and self.page_start and self.page_end)

    @property
    def needs_visual_check(self) -> bool:
        return self.requires_visual_check or self.has_quarantined_content

    def tokens(self) -> int:
        # Vietnamese syllables are ~1.3 tokens each for the models in use; words() counts them.
        return int(len(words(self.text)) * 1.3) + 8


@dataclass(frozen=True)
class EvidenceDecision:
    decision: Outcome
    reason: str


@dataclass
class Packed:
    evidence: list[Evidence]
    omitted_ids: list[int] = field(default_factory=list)


@dataclass
class SafetyFinding:
    drug_id: str
    facet: str  # interaction | warning | pregnancy | breastfeeding
    query: str
    evidence: list[Evidence]
    via: str = ""  # the class phrasing that found an interaction ("coumarin"), "" by name

    @property
    def status(self) -> str:
        # No hit is insufficient evidence, never "safe".
        return "evidence_found" if self.evidence else "insufficient_evidence"


def decide(evidence: Sequence[Evidence]) -> EvidenceDecision:
    """The one evidence policy, for every route and for pools assembled by callers."""
    if not evidence:
        return EvidenceDecision(Outcome.ABSTAIN, "parent_hydration_failed")
    if any(not item.has_provenance for item in evidence):
        return EvidenceDecision(Outcome.ABSTAIN, "missing_provenance")
    if any(item.needs_visual_check for item in evidence):
        return EvidenceDecision(Outcome.VERIFY_PDF, "visual_verification_required")
    return EvidenceDecision(Outcome.ANSWER, "grounded_evidence_available")


def fuse(*rankings: Sequence[Evidence]) -> list[Evidence]:
    """Reciprocal-rank fusion of ranked lists (by chunk id)."""
    scores: dict[int, float] = {}
    items: dict[int, Evidence] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking):
            scores[item.chunk_id] = scores.get(item.chunk_id, 0.0) + 1 / (RRF_K + rank + 1)
            items.setdefault(item.chunk_id, item)
    order = sorted(scores, key=lambda cid: -scores[cid])
    return [replace(items[cid], score=scores[cid], route="fused") for cid in order]


def pack(evidence: Sequence[Evidence], max_tokens: int = MAX_CONTEXT_TOKENS) -> Packed:
    """Whole blocks in order up to the budget; clinical text is never truncated."""
    packed = Packed(evidence=[])
    used = 0
    for item in evidence:
        cost = item.tokens()
        if used + cost > max_tokens:
            packed.omitted_ids.append(item.chunk_id)
            continue
        packed.evidence.append(item)
        used += cost
    return packed


def unique_evidence(items: Sequence[Evidence]) -> list[Evidence]:
    """Each chunk once, first occurrence kept."""
    seen: set[int] = set()
    result = []
    for item in items:
        if item.chunk_id not in seen:
            seen.add(item.chunk_id)
            result.append(item)
    return result
