"""What a turn shows: the result types, the abstain messages and the one abstain constructor."""

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from django.db.models.enums import TextChoices

from corpus.sections import DOSAGE_SECTIONS, WARNING_SECTIONS
from corpus.text import as_typed
from retrieval.evidence import Evidence, Outcome
from retrieval.frame import QueryFrame
from retrieval.retrieve import Retrieved

DISCLAIMER = (
    "Nội dung được trích từ Dược thư Quốc gia Việt Nam 2018, phục vụ tra cứu chuyên môn và "
    "không thay thế chỉ định của bác sĩ hoặc dược sĩ lâm sàng."
)
# A question is a sentence or a short case description; 2,000 characters holds the longest
# case in the development set five times over. Longer input is refused, not truncated.
MAX_QUESTION_CHARS = 2000

SMALLTALK_TEXT = (
    "Xin chào! Tôi tra cứu Dược thư Quốc gia Việt Nam 2018 cho dược sĩ và bác sĩ. "
    "Bạn muốn hỏi về thuốc nào?"
)

ABSTAIN_MESSAGES: dict[str, str] = {
    "empty_question": "Bạn chưa nhập câu hỏi. Hãy hỏi về một thuốc, ví dụ «Liều paracetamol cho người lớn?».",
    "question_too_long": "Câu hỏi dài quá {limit} ký tự. Hãy rút gọn, chỉ giữ thuốc và điều cần tra.",
    "unknown_drug": "Không tìm thấy thuốc {names} trong Dược thư Quốc gia Việt Nam 2018 đã nạp. "
    "Hãy kiểm tra lại tên hoạt chất hoặc biệt dược.",
    "drug_not_loaded": "{names} có trong mục lục Dược thư 2018 nhưng chuyên luận chưa được nạp "
    "vào hệ thống, nên chưa thể trả lời.",
    "no_drug_named": "Bạn hỏi về thuốc nào? Hãy nêu tên hoạt chất hoặc biệt dược.",
    "non_human_subject": "Dược thư Quốc gia Việt Nam 2018 chỉ dành cho người; câu hỏi về động vật "
    "(thú y) nằm ngoài phạm vi của sách.",
    "out_of_scope": "Câu hỏi nằm ngoài phạm vi Dược thư Quốc gia Việt Nam 2018 (sách không có "
    "thông tin này, ví dụ giá thuốc hoặc nội dung không về thuốc).",
    "section_not_in_monograph": "Chuyên luận của thuốc này không có mục được hỏi.",
    "no_indication_match": "Không tìm thấy mục Chỉ định nào nêu đúng tình trạng được hỏi (sách có "
    "thể ghi bằng từ khác; điều đó không có nghĩa là không có thuốc nào). Hãy ghi tên bệnh như "
    "sách viết, hoặc hỏi theo tên thuốc.",
    "no_condition_match": "Không có chuyên luận nào đã nạp nêu tình trạng này trong mục được hỏi "
    "(điều đó không có nghĩa là không có thuốc nào liên quan).",
    "parent_hydration_failed": "Không tìm thấy đoạn sách phù hợp để trả lời.",
    "missing_provenance": "Đoạn sách tìm được thiếu số trang in nên không thể trích dẫn.",
    "provider_unavailable": "Dịch vụ mô hình ngôn ngữ không phản hồi; chưa thể soạn câu trả lời.",
    "request_budget_exhausted": "Hết thời gian xử lý cho câu hỏi này trước khi kiểm tra xong câu trả lời.",
    "malformed_output": "Mô hình trả về kết quả sai định dạng nên câu trả lời bị loại.",
    "ungrounded_number": "Câu trả lời soạn ra có con số không khớp nguyên văn với đoạn sách được trích, nên bị loại.",
    "ungrounded_quantity": "Câu trả lời soạn ra ghép một con số với đơn vị, nhịp dùng hoặc nhóm đối tượng khác với đoạn sách được trích, nên bị loại.",
    "judge_unreliable": "Bước đối chiếu tự động không đáng tin cậy ở lượt này (chấp nhận cả một ý cài sẵn là sai), nên câu trả lời soạn ra bị loại.",
    "invalid_citation": "Câu trả lời soạn ra trích dẫn một đoạn không tồn tại, nên bị loại.",
    "uncited_claim": "Câu trả lời soạn ra có ý không kèm trích dẫn, nên bị loại.",
    "unsupported_claim": "Bước đối chiếu cho thấy câu trả lời soạn ra không khớp với đoạn sách được trích, nên bị loại.",
    "incomplete_answer": "Câu trả lời soạn ra bỏ sót thông tin quan trọng có trong sách, nên bị loại.",
    "unsupported_drug": "Câu trả lời soạn ra nêu thuốc ngoài danh sách tìm được hoặc trích sai chuyên luận, nên bị loại.",
    "insufficient_evidence": "Các đoạn sách tìm được không đủ để trả lời câu hỏi này.",
    "model_refused": "Không tìm thấy nội dung trả lời trong các đoạn sách đã tra.",
    "understanding_provider_unavailable": "Dịch vụ mô hình ngôn ngữ không phản hồi khi phân tích câu hỏi; "
    "hãy thử lại sau.",
    "understanding_malformed_output": "Không phân tích được câu hỏi (kết quả mô hình sai định dạng); "
    "hãy diễn đạt lại.",
}


# Block title and kind come from the cited chunk's section, never from model prose.


@dataclass
class Citation:
    index: int
    chunk_id: int
    drug_id: str
    drug_name: str
    section_key: str
    section_title: str
    label: str
    page_start: int | None
    page_end: int | None
    text: str
    content_hash: str
    quarantined: bool


class AnswerMode(TextChoices):
    """Which mode produced what a turn shows (the audit row and, discreetly, the card)."""

    BOOK = "book", "Nguyên văn Dược thư"
    MODEL = "model", "Bản tóm tắt của mô hình, đã đối chiếu với sách"
    BOOK_AFTER_MODEL_FAILED = (
        "book_after_model_failed",
        "Nguyên văn Dược thư (bản tóm tắt bị giữ lại)",
    )


class BlockKind(TextChoices):
    """How a block of an answer card is drawn."""

    FACT_LIST = "fact_list", "Thông tin"
    WARNING = "warning", "Cảnh báo"
    DOSAGE = "dosage", "Liều dùng"
    NOTICE = "notice", "Lưu ý"


@dataclass
class AnswerBlock:
    title: str
    kind: BlockKind
    section_key: str
    drug_id: str
    claims: list[tuple[str, list[int]]]
    collapsed: bool = False


@dataclass
class TurnResult:
    decision: Outcome
    reason: str
    frame: QueryFrame
    answer_text: str = ""
    blocks: list[AnswerBlock] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)
    quick_replies: list[str] = field(default_factory=list)
    near_misses: list[str] = field(default_factory=list)
    extractive: bool = False
    disclaimer: str = DISCLAIMER
    mode: AnswerMode = AnswerMode.BOOK
    withheld: str = ""  # why a written answer was not shown (book_after_model_failed)

    def as_dict(self) -> dict[str, object]:
        return {
            "decision": self.decision,
            "reason": self.reason,
            "frame": self.frame.summary(),
            "answer_text": self.answer_text,
            "blocks": [asdict(b) for b in self.blocks],
            "citations": [
                {
                    "drug_id": c.drug_id,
                    "section_key": c.section_key,
                    "page_start": c.page_start,
                    "page_end": c.page_end,
                    "chunk_id": c.chunk_id,
                }
                for c in self.citations
            ],
            "quick_replies": self.quick_replies,
            "near_misses": self.near_misses,
            "disclaimer": self.disclaimer,
            # Said only where a model took part: the no-model lines stay byte for byte.
            **({"mode": self.mode} if self.mode != AnswerMode.BOOK else {}),
            **({"withheld": self.withheld} if self.withheld else {}),
        }


def citations_for(evidence: Sequence[Evidence]) -> list[Citation]:
    return [
        Citation(
            n,
            e.chunk_id,
            e.drug_id,
            e.drug_name,
            e.section_key,
            e.section_title,
            e.label,
            e.page_start,
            e.page_end,
            e.text,
            e.content_hash,
            e.needs_visual_check,
        )
        for n, e in enumerate(evidence, 1)
    ]


def pages(c: Citation) -> str:
    return (
        f"tr. {c.page_start}" if c.page_start == c.page_end else f"tr. {c.page_start}–{c.page_end}"
    )


def clean_replies(replies: Sequence[str]) -> list[str]:
    """A model's quick replies as shown: trimmed, short, each once, four at most."""
    seen: list[str] = []
    for reply in replies:
        reply = reply.strip()
        if reply and len(reply) <= 40 and reply not in seen:
            seen.append(reply)
    return seen[:4]


def abstain(frame: QueryFrame, reason: str, near_misses: Sequence[str] = ()) -> TurnResult:
    """The turn declines, saying why in the reason's own words (names filled in), and offers
    the loaded names close to an unknown one as quick replies, never as the answer."""
    names = ", ".join(f"«{n}»" for n in (frame.unknown_drugs or frame.not_loaded)) or "được nêu"
    message = ABSTAIN_MESSAGES.get(reason, "Không trả lời được câu hỏi này từ Dược thư.")
    message = message.format(names=names, limit=MAX_QUESTION_CHARS)
    offer, replies = did_you_mean(frame)
    return TurnResult(
        Outcome.ABSTAIN,
        reason,
        frame,
        f"{message} {offer}".strip(),
        quick_replies=replies,
        near_misses=list(near_misses),
    )


def did_you_mean(frame: QueryFrame) -> tuple[str, list[str]]:
    """("Có phải bạn muốn hỏi về «aspirin»?", the question asked again with each name)."""
    if not frame.did_you_mean:
        return "", []
    question = frame.standalone_query or ""
    offered: list[str] = []
    replies: list[str] = []
    for typed, candidates in frame.did_you_mean:
        written = as_typed(question, typed)
        for name, _drug_id in candidates:
            offered.append(f"«{name}»")
            again = (
                re.sub(re.escape(written), name, question, count=1) if written in question else name
            )
            replies.append(again)
    return f"Có phải bạn muốn hỏi về {' hay '.join(dict.fromkeys(offered))}?", list(
        dict.fromkeys(replies)
    )[:4]


def notice_text(flagged: Sequence[Citation]) -> str:
    where = "; ".join(f"{c.drug_name} · {c.section_title}, {pages(c)}" for c in flagged)
    return (
        f"Có {len(flagged)} đoạn (bảng hoặc công thức) đang chờ dược sĩ đối chiếu bản in, "
        f"nên không được hiển thị như câu trả lời. Kiểm tra bản in: {where}."
    )


NOTICE_TITLE = "Cần kiểm tra bản in"


def notice_block(flagged: Sequence[Citation]) -> AnswerBlock:
    """The block that stands in for chunks awaiting a pharmacist's check of the print."""
    return AnswerBlock(
        NOTICE_TITLE,
        BlockKind.NOTICE,
        flagged[0].section_key,
        flagged[0].drug_id,
        [(notice_text(flagged), [c.index for c in flagged])],
    )


def quarantine_notice(retrieved: Retrieved) -> TurnResult:
    """VERIFY_PDF evidence is never generated over: the notice and the citations only."""
    citations = citations_for(retrieved.evidence)
    flagged = [c for c in citations if c.quarantined]
    notice = notice_text(flagged)
    block = notice_block(flagged)
    return TurnResult(
        Outcome.VERIFY_PDF,
        "visual_verification_required",
        retrieved.frame,
        notice,
        [block],
        citations,
    )


def kind_of(section_key: str) -> BlockKind:
    if section_key in DOSAGE_SECTIONS:
        return BlockKind.DOSAGE
    if section_key in WARNING_SECTIONS:
        return BlockKind.WARNING
    return BlockKind.FACT_LIST
