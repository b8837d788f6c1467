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


class Reason(TextChoices):
    """Why a turn decided as it did: the one spelling of every reason a turn records (an
    abstain's message is keyed by it in answering.results)."""

    # Answered.
    GROUNDED_EVIDENCE_AVAILABLE = "grounded_evidence_available", "Có đoạn sách để trả lời"
    GROUNDED_ANSWER = "grounded_answer", "Câu trả lời soạn ra đã qua kiểm tra"
    SMALLTALK = "smalltalk", "Chào hỏi"
    CONDITION_NOT_NAMED_IN_BOOK = "condition_not_named_in_book", "Sách không nêu tình trạng"
    CONDITION_NOT_FOUND_AS_TYPED = "condition_not_found_as_typed", "Không thấy đúng chữ đã gõ"
    INTERACTION_NOT_NAMED_IN_BOOK = "interaction_not_named_in_book", "Sách không nêu cặp thuốc"
    # Asked back, or to be checked against the printed page.
    CHILD_DOSE_NEEDS_AGE_OR_WEIGHT = "child_dose_needs_age_or_weight", "Cần tuổi hoặc cân nặng"
    AGE_BETWEEN_BOOK_BANDS = "age_between_book_bands", "Tuổi nằm giữa các khoảng của sách"
    VISUAL_VERIFICATION_REQUIRED = "visual_verification_required", "Cần đối chiếu bản in"
    # Abstained: the question.
    EMPTY_QUESTION = "empty_question", "Câu hỏi trống"
    QUESTION_TOO_LONG = "question_too_long", "Câu hỏi quá dài"
    OUT_OF_SCOPE = "out_of_scope", "Ngoài phạm vi"
    NON_HUMAN_SUBJECT = "non_human_subject", "Không dành cho người"
    NO_DRUG_NAMED = "no_drug_named", "Chưa nêu thuốc"
    UNKNOWN_DRUG = "unknown_drug", "Không tìm thấy thuốc"
    DRUG_NOT_LOADED = "drug_not_loaded", "Chuyên luận chưa nạp"
    # Abstained: the book.
    SECTION_NOT_IN_MONOGRAPH = "section_not_in_monograph", "Chuyên luận không có mục này"
    NO_INDICATION_MATCH = "no_indication_match", "Không thuốc nào có chỉ định này"
    NO_CONDITION_MATCH = "no_condition_match", "Không thuốc nào nêu tình trạng này"
    PARENT_HYDRATION_FAILED = "parent_hydration_failed", "Không có đoạn sách"
    MISSING_PROVENANCE = "missing_provenance", "Thiếu số trang in"
    INSUFFICIENT_EVIDENCE = "insufficient_evidence", "Không đủ đoạn sách"
    # Abstained: a written answer or a model failed a check.
    PROVIDER_UNAVAILABLE = "provider_unavailable", "Mô hình không phản hồi"
    REQUEST_BUDGET_EXHAUSTED = "request_budget_exhausted", "Hết thời gian"
    MALFORMED_OUTPUT = "malformed_output", "Kết quả sai định dạng"
    UNGROUNDED_NUMBER = "ungrounded_number", "Con số không khớp sách"
    UNGROUNDED_QUANTITY = "ungrounded_quantity", "Liều, đơn vị hoặc nhóm không khớp sách"
    JUDGE_UNRELIABLE = "judge_unreliable", "Bước đối chiếu không đáng tin"
    INVALID_CITATION = "invalid_citation", "Trích dẫn không tồn tại"
    UNCITED_CLAIM = "uncited_claim", "Ý không có trích dẫn"
    UNSUPPORTED_CLAIM = "unsupported_claim", "Ý không khớp sách"
    INCOMPLETE_ANSWER = "incomplete_answer", "Bỏ sót thông tin"
    UNSUPPORTED_DRUG = "unsupported_drug", "Thuốc ngoài danh sách"
    MODEL_REFUSED = "model_refused", "Mô hình từ chối"
    UNDERSTANDING_PROVIDER_UNAVAILABLE = (
        "understanding_provider_unavailable",
        "Mô hình phân tích câu hỏi không phản hồi",
    )
    UNDERSTANDING_MALFORMED_OUTPUT = (
        "understanding_malformed_output",
        "Phân tích câu hỏi sai định dạng",
    )


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
        return "evidence_found" if self.evidence else Reason.INSUFFICIENT_EVIDENCE


def decide(evidence: Sequence[Evidence]) -> EvidenceDecision:
    """The one evidence policy, for every route and for pools assembled by callers."""
    if not evidence:
        return EvidenceDecision(Outcome.ABSTAIN, Reason.PARENT_HYDRATION_FAILED)
    if any(not item.has_provenance for item in evidence):
        return EvidenceDecision(Outcome.ABSTAIN, Reason.MISSING_PROVENANCE)
    if any(item.needs_visual_check for item in evidence):
        return EvidenceDecision(Outcome.VERIFY_PDF, Reason.VISUAL_VERIFICATION_REQUIRED)
    return EvidenceDecision(Outcome.ANSWER, Reason.GROUNDED_EVIDENCE_AVAILABLE)


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
