"""One turn, from question to what is shown: answer, abstain, clarify or verify_pdf.

Retrieval decides what is true; generation only decides how it reads. A generated answer
replaces the book's text only if it clears the deterministic grounding check and one
entailment pass; if anything fails (a check, the provider, the output format, the time
budget) the turn abstains with the specific reason and never falls back to dumping book
text as if it were an answer. The deliberate exception is the no-model mode
(ANSWER_PROVIDER=disabled), where verbatim quotes with citations *are* the product.
"""

import logging
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from django.conf import settings

from answering.grounding import numeric_tokens, split_claims, verify
from answering.prompts import answer_request, entailment_request, evidence_label
from answering.providers import (
    CLARIFY,
    EXTRACTIVE,
    TURNS,
    Budget,
    Provider,
    ProviderError,
    get_provider,
    parse_json_object,
)
from answering.understanding import QueryFrame, understand_turn
from corpus.text import fold, nfc, words
from retrieval.evidence import Retrieved, retrieve_for_frame
from retrieval.service import Evidence

logger = logging.getLogger("duocthu.answer")

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
    "no_indication_match": "Không có chuyên luận nào đã nạp ghi tình trạng này trong mục Chỉ định.",
    "no_condition_match": "Không có chuyên luận nào đã nạp nêu tình trạng này trong mục được hỏi "
    "(điều đó không có nghĩa là không có thuốc nào liên quan).",
    "parent_hydration_failed": "Không tìm thấy đoạn sách phù hợp để trả lời.",
    "missing_provenance": "Đoạn sách tìm được thiếu số trang in nên không thể trích dẫn.",
    "provider_unavailable": "Dịch vụ mô hình ngôn ngữ không phản hồi; chưa thể soạn câu trả lời.",
    "request_budget_exhausted": "Hết thời gian xử lý cho câu hỏi này trước khi kiểm tra xong câu trả lời.",
    "malformed_output": "Mô hình trả về kết quả sai định dạng nên câu trả lời bị loại.",
    "ungrounded_number": "Câu trả lời soạn ra có con số không khớp nguyên văn với đoạn sách được trích, nên bị loại.",
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
_WARNING_SECTIONS = frozenset(
    {
        "chong_chi_dinh",
        "than_trong",
        "tuong_tac_thuoc",
        "tuong_ky",
        "qua_lieu_va_xu_tri",
        "thoi_ky_mang_thai",
        "thoi_ky_cho_con_bu",
        "tac_dung_khong_mong_muon",
    }
)
_DOSAGE_SECTIONS = frozenset({"lieu_luong_va_cach_dung"})
_NUMERIC_CUES = ("lieu", "bao nhieu", "tan suat", "ty le", "%", "nguong", "clcr", "mg", "kg")
_BREADTH_CUES = ("day du", "tat ca", "toan bo", "liet ke")
_REFUSAL_RE = re.compile(
    r"^(xin lỗi|rất tiếc|tôi không thể|không thể trả lời|dược thư không (nêu|có|đề cập)|"
    r"không có thông tin|không tìm thấy)",
    re.IGNORECASE,
)
_POPULATION_LABELS: dict[str, tuple[str, ...]] = {
    "tre_em": ("trẻ em", "trẻ", "sơ sinh", "nhi"),
    "nguoi_lon": ("người lớn",),
    "nguoi_cao_tuoi": ("người cao tuổi", "người già", "cao tuổi"),
    "suy_than": ("suy thận", "clcr", "thanh thải creatinin"),
    "suy_gan": ("suy gan",),
    "phu_nu_mang_thai": ("mang thai", "có thai"),
    "cho_con_bu": ("cho con bú",),
}
_ROUTE_LABELS: dict[str, tuple[str, ...]] = {
    "uong": ("uống",),
    "tiem_tinh_mach": ("tĩnh mạch", "truyền"),
    "tiem_bap": ("tiêm bắp",),
    "dat_truc_trang": ("trực tràng",),
    "xit_hit": ("xịt", "hít", "khí dung"),
}


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


@dataclass
class AnswerBlock:
    title: str
    kind: str  # fact_list | warning | dosage | notice
    section_key: str
    drug_id: str
    claims: list[tuple[str, list[int]]]
    collapsed: bool = False


@dataclass
class TurnResult:
    decision: str  # answer | abstain | clarify | verify_pdf
    reason: str
    frame: QueryFrame
    answer_text: str = ""
    blocks: list[AnswerBlock] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)
    quick_replies: list[str] = field(default_factory=list)
    near_misses: list[str] = field(default_factory=list)
    extractive: bool = False
    disclaimer: str = DISCLAIMER

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
        }


def _citations(evidence: Sequence[Evidence]) -> list[Citation]:
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


def _pages(c: Citation) -> str:
    return (
        f"tr. {c.page_start}" if c.page_start == c.page_end else f"tr. {c.page_start}–{c.page_end}"
    )


def _finish(result: TurnResult) -> TurnResult:
    TURNS.labels(result.decision, result.reason).inc()
    if result.decision == "clarify":
        CLARIFY.labels(result.reason).inc()
    return result


def _abstain(frame: QueryFrame, reason: str, near_misses: Sequence[str] = ()) -> TurnResult:
    names = ", ".join(f"«{n}»" for n in (frame.unknown_drugs or frame.not_loaded)) or "được nêu"
    message = ABSTAIN_MESSAGES.get(reason, "Không trả lời được câu hỏi này từ Dược thư.")
    message = message.format(names=names, limit=MAX_QUESTION_CHARS)
    return _finish(TurnResult("abstain", reason, frame, message, near_misses=list(near_misses)))


class _Configured:
    """The provider the settings name (the default); tests and tools pass one explicitly."""


CONFIGURED = _Configured()


def answer_turn(
    question: str,
    history: Sequence[str] = (),
    prior: QueryFrame | None = None,
    *,
    provider: Provider | None | _Configured = CONFIGURED,
    claimed_scope: str = "human",
) -> TurnResult:
    """Answer one turn. `history` is the earlier questions, `prior` the last turn's frame."""
    chosen = get_provider() if isinstance(provider, _Configured) else provider
    question = nfc(question or "").strip()
    if not question:
        return _abstain(QueryFrame(turn_type="out_of_scope"), "empty_question")
    if len(question) > MAX_QUESTION_CHARS:
        return _abstain(QueryFrame(turn_type="out_of_scope"), "question_too_long")
    budget = Budget(settings.ANSWER_BUDGET_SECONDS)
    frame = understand_turn(
        question, history, prior, provider=chosen, budget=budget, claimed_scope=claimed_scope
    )
    if frame.system_error:
        return _abstain(frame, frame.system_error)
    if frame.turn_type == "smalltalk":
        return _finish(TurnResult("answer", "smalltalk", frame, SMALLTALK_TEXT))
    retrieved = retrieve_for_frame(frame, frame.standalone_query or question)
    if retrieved.decision == "abstain":
        return _abstain(frame, retrieved.reason, retrieved.near_misses)
    if retrieved.decision == "clarify":
        return _finish(
            TurnResult(
                "clarify",
                retrieved.reason,
                frame,
                retrieved.clarifying_question or "",
                quick_replies=retrieved.quick_replies,
            )
        )
    if chosen is None:
        return _finish(extractive_answer(retrieved))
    if retrieved.decision == "verify_pdf":
        return _finish(quarantine_notice(retrieved))
    return _finish(generated_answer(question, retrieved, chosen, budget))


# The no-model mode ----------------------------------------------------------------------


def _label_score(item: Evidence, frame: QueryFrame) -> int:
    """How well a dosage chunk matches the question's population, route and age band."""
    haystack = (item.label + " " + item.text[:160]).lower()
    score = 0
    if frame.population:
        score += 2 * any(
            p in item.label.lower() for p in _POPULATION_LABELS.get(frame.population, ())
        )
        score += any(p in haystack for p in _POPULATION_LABELS.get(frame.population, ()))
    if frame.route:
        score += any(r in haystack for r in _ROUTE_LABELS.get(frame.route, ()))
    if frame.age_text and " ".join(fold(frame.age_text).split()) in " ".join(
        fold(item.text).split()
    ):
        score += 3
    if frame.weight_kg is not None and _weight_in_bands(frame.weight_kg, item.text):
        score += 3
    return score


_KG_RANGE = re.compile(r"(\d+(?:,\d+)?)\s*-\s*(\d+(?:,\d+)?)\s*kg(?!\s*/)")
_KG_BOUND = re.compile(r"([<>≤≥]|dưới|trên)\s*(\d+(?:,\d+)?)\s*kg(?!\s*/)")


def _weight_in_bands(weight: float, text: str) -> bool:
    """Whether a weight band printed in the text ("10 - 50 kg", "< 10 kg") holds this weight."""
    number = lambda s: float(s.replace(",", "."))  # noqa: E731 - reading a band, not checking a dose
    for low, high in _KG_RANGE.findall(text):
        if number(low) <= weight <= number(high):
            return True
    for sign, value in _KG_BOUND.findall(text):
        bound = number(value)
        if (sign in ("<", "≤", "dưới") and weight < bound) or (
            sign in (">", "≥", "trên") and weight > bound
        ):
            return True
    return False


def as_typed(question: str, folded: str) -> str:
    """The words of `question` whose folded form is `folded`, as the user typed them."""
    tokens = list(re.finditer(r"\w+", question))
    target = folded.split()
    for i in range(len(tokens) - len(target) + 1):
        if [fold(t.group(0)) for t in tokens[i : i + len(target)]] == target:
            return question[tokens[i].start() : tokens[i + len(target) - 1].end()]
    return folded


def _content_words(frame: QueryFrame) -> list[str]:
    """The question's own words that are not the drug, the section phrase or filler."""
    from answering.understanding import condition_words

    names = tuple(d.replace("_", " ") for d in frame.drugs)
    return [w for w in condition_words(frame.standalone_query or "", names).split() if len(w) > 1]


def _content_score(item: Evidence, content: Sequence[str]) -> int:
    """Adjacent word pairs of the question found in the chunk count most, then single words."""
    if not content:
        return 0
    text = f" {' '.join(words(item.text))} "
    pairs = sum(f" {a} {b} " in text for a, b in zip(content, content[1:], strict=False))
    singles = sum(f" {w} " in text for w in set(content))
    return 3 * pairs + (singles if singles * 2 >= len(set(content)) else 0)


def extractive_answer(retrieved: Retrieved) -> TurnResult:
    """Verbatim quotes with citations, the most relevant paragraphs first."""
    frame = retrieved.frame
    evidence = list(retrieved.evidence)
    focused: list[Evidence] = []
    if len(evidence) > 2 and frame.turn_type not in ("drug_overview", "condition_to_drug"):
        content = _content_words(frame)
        scores = {
            e.chunk_id: 10 * _label_score(e, frame) + _content_score(e, content) for e in evidence
        }
        best = max(scores.values(), default=0)
        if best > 0:
            focused = [e for e in evidence if scores[e.chunk_id] == best]
    rest = [e for e in evidence if e not in focused]
    ordered = focused + rest
    citations = _citations(ordered)
    shown = [c for c in citations if not c.quarantined]
    flagged = [c for c in citations if c.quarantined]
    blocks: list[AnswerBlock] = []
    lines: list[str] = []
    for c in shown:
        collapsed = bool(focused) and c.chunk_id not in {e.chunk_id for e in focused}
        title = f"{c.drug_name} · {c.section_title}" + (f" · {c.label}" if c.label else "")
        blocks.append(
            AnswerBlock(
                title,
                _kind(c.section_key),
                c.section_key,
                c.drug_id,
                [(c.text, [c.index])],
                collapsed=collapsed,
            )
        )
        lines.append(f"{c.text} [{c.index}]")
    if flagged:
        notice = _notice_text(flagged)
        blocks.append(
            AnswerBlock(
                "Cần kiểm tra bản in",
                "notice",
                flagged[0].section_key,
                flagged[0].drug_id,
                [(notice, [c.index for c in flagged])],
            )
        )
        lines.append(notice)
    for block in _safety_blocks(retrieved, citations):
        blocks.append(block)
        lines += [text + "".join(f" [{i}]" for i in cited) for text, cited in block.claims]
    if retrieved.reason == "interaction_not_named_in_book":
        from retrieval.catalog import get_resolver

        display = get_resolver().display
        names = " và ".join(display.get(d, d) for d in frame.drugs)
        absent = (
            f"Dược thư không nêu đích danh tương tác giữa {names} trong mục Tương tác thuốc; điều đó "
            "không có nghĩa là không có tương tác. Các đoạn mục Tương tác thuốc được trích bên dưới."
        )
        blocks.insert(
            0,
            AnswerBlock(
                "Không tìm thấy tương tác được nêu đích danh",
                "notice",
                "tuong_tac_thuoc",
                frame.drugs[0],
                [(absent, [])],
            ),
        )
        lines.insert(0, absent)
    if retrieved.reason == "condition_not_named_in_book" and frame.condition:
        # Not found is never "none" or "safe" (answer rule 10): say what was and was not found.
        absent = (
            f"Dược thư không nêu «{as_typed(frame.standalone_query or '', frame.condition)}» trong mục Chống chỉ định hay Thận trọng của thuốc "
            "này; điều đó không có nghĩa là dùng được an toàn. Toàn văn mục được trích bên dưới."
        )
        first = citations[0] if citations else None
        blocks.insert(
            0,
            AnswerBlock(
                "Không tìm thấy tình trạng được hỏi",
                "notice",
                first.section_key if first else "",
                first.drug_id if first else "",
                [(absent, [])],
            ),
        )
        lines.insert(0, absent)
    EXTRACTIVE.inc()
    decision = "verify_pdf" if flagged else "answer"
    reason = "visual_verification_required" if flagged else retrieved.reason
    return TurnResult(
        decision,
        reason,
        frame,
        "\n\n".join(lines),
        blocks,
        citations,
        near_misses=retrieved.near_misses,
        extractive=True,
    )


_FACETS = {
    "interaction": "tương tác với {query}",
    "warning": "chống chỉ định/thận trọng khi {query}",
    "pregnancy": "dùng khi mang thai",
    "breastfeeding": "dùng khi cho con bú",
}


def _safety_blocks(retrieved: Retrieved, citations: Sequence[Citation]) -> list[AnswerBlock]:
    """One line per indicated drug and facet: the cited passages, or that the book names none."""
    from retrieval.catalog import get_resolver

    display = get_resolver().display
    index = {c.chunk_id: c.index for c in citations}
    blocks = []
    for finding in retrieved.safety:
        facet = _FACETS[finding.facet].format(query=display.get(finding.query, finding.query))
        name = display.get(finding.drug_id, finding.drug_id)
        cited = [index[e.chunk_id] for e in finding.evidence if e.chunk_id in index]
        if cited:
            text = f"{name}: Dược thư có nêu về {facet} — xem đoạn trích."
        else:
            text = (
                f"{name}: Dược thư không nêu về {facet}; chưa đủ bằng chứng, "
                "không có nghĩa là an toàn."
            )
        blocks.append(
            AnswerBlock(
                f"Theo bối cảnh người bệnh · {name}",
                "warning",
                "tuong_tac_thuoc" if finding.facet == "interaction" else "chong_chi_dinh",
                finding.drug_id,
                [(text, cited)],
            )
        )
    return blocks


def _notice_text(flagged: Sequence[Citation]) -> str:
    where = "; ".join(f"{c.drug_name} · {c.section_title}, {_pages(c)}" for c in flagged)
    return (
        f"Có {len(flagged)} đoạn (bảng hoặc công thức) đang chờ dược sĩ đối chiếu bản in, "
        f"nên không được hiển thị như câu trả lời. Kiểm tra bản in: {where}."
    )


def quarantine_notice(retrieved: Retrieved) -> TurnResult:
    """VERIFY_PDF evidence is never generated over: the notice and the citations only."""
    citations = _citations(retrieved.evidence)
    flagged = [c for c in citations if c.quarantined]
    notice = _notice_text(flagged)
    block = AnswerBlock(
        "Cần kiểm tra bản in",
        "notice",
        flagged[0].section_key,
        flagged[0].drug_id,
        [(notice, [c.index for c in flagged])],
    )
    return TurnResult(
        "verify_pdf", "visual_verification_required", retrieved.frame, notice, [block], citations
    )


def _kind(section_key: str) -> str:
    if section_key in _DOSAGE_SECTIONS:
        return "dosage"
    if section_key in _WARNING_SECTIONS:
        return "warning"
    return "fact_list"


# Generation and its checks ---------------------------------------------------------------


@dataclass
class _Draft:
    claims: list[tuple[str, list[int], str | None]]
    evidence_sufficient: bool
    clarifying_question: str | None
    quick_replies: list[str]

    def rendered(self) -> str:
        return "\n".join(
            f"{text} " + "".join(f"[{i}]" for i in cites) for text, cites, _ in self.claims
        )


def _parse_draft(raw: str, list_mode: bool) -> _Draft:
    """The model's JSON; any malformed entry rejects the whole payload."""
    data = parse_json_object(raw)
    claims_raw = data.get("claims", [])
    if not isinstance(claims_raw, list):
        raise ProviderError("malformed_output", "claims is not a list")
    claims = []
    for item in claims_raw:
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            raise ProviderError("malformed_output", "a claim is not an object with text")
        cites = item.get("citations", [])
        if not isinstance(cites, list) or not all(
            isinstance(i, int) and not isinstance(i, bool) for i in cites
        ):
            raise ProviderError("malformed_output", "citations are not integers")
        drug_id = item.get("drug_id")
        if list_mode and not isinstance(drug_id, str):
            raise ProviderError("malformed_output", "a list-mode claim has no drug_id")
        claims.append((item["text"].strip(), cites, drug_id if isinstance(drug_id, str) else None))
    sufficient = data.get("evidence_sufficient", True)
    question = data.get("clarifying_question")
    replies = data.get("quick_replies") or []
    if not isinstance(sufficient, bool) or (question is not None and not isinstance(question, str)):
        raise ProviderError("malformed_output", "evidence_sufficient/clarifying_question types")
    if not isinstance(replies, list) or not all(isinstance(r, str) for r in replies):
        raise ProviderError("malformed_output", "quick_replies is not a list of text")
    return _Draft(claims, sufficient, question or None, _clean_replies(replies))


def _clean_replies(replies: Sequence[str]) -> list[str]:
    seen: list[str] = []
    for reply in replies:
        reply = reply.strip()
        if reply and len(reply) <= 40 and reply not in seen:
            seen.append(reply)
    return seen[:4]


def _plan(question: str, evidence: Sequence[Evidence], list_mode: bool) -> dict[str, object]:
    sections = {e.section_key for e in evidence}
    folded = fold(question)
    layout = (
        "dosage"
        if sections & _DOSAGE_SECTIONS
        else ("bullet_list" if list_mode or len(evidence) > 2 else "prose")
    )
    return {
        "layout": layout,
        "verbosity": "full" if any(c in folded for c in _BREADTH_CUES) else "focused",
        "sections": sorted(sections),
        "drugs": sorted({e.drug_id for e in evidence}),
        "list_mode": list_mode,
        "needs_warning": bool(sections & _WARNING_SECTIONS),
    }


def _blocks_for(evidence: Sequence[Evidence]) -> list[tuple[str, str]]:
    return [(evidence_label(e.drug_id, e.drug_name, e.section_title), e.text) for e in evidence]


def _generate(
    question: str,
    evidence: Sequence[Evidence],
    provider: Provider,
    budget: Budget,
    allowed: Sequence[str],
    missing: Sequence[str] = (),
) -> _Draft:
    plan = _plan(question, evidence, bool(allowed))
    suppressed = plan["layout"] != "dosage" and not any(c in fold(question) for c in _NUMERIC_CUES)
    system, user = answer_request(
        question,
        _blocks_for(evidence),
        plan,
        numeric_suppressed=suppressed,
        allowed_drugs=allowed,
        missing=missing,
    )
    return _parse_draft(provider.complete(system, user, budget), bool(allowed))


def _is_refusal(draft: _Draft) -> bool:
    cited = any(cites for _, cites, _ in draft.claims)
    text = " ".join(t for t, _, _ in draft.claims) or (draft.clarifying_question or "")
    return not cited and bool(_REFUSAL_RE.search(text.strip()[:80]))


def _check(
    question: str,
    draft: _Draft,
    evidence: Sequence[Evidence],
    provider: Provider,
    budget: Budget,
    allowed: Sequence[str],
) -> tuple[str | None, list[str]]:
    """(reject reason or None, grounded 'missing' descriptions for a repair)."""
    texts = [e.text for e in evidence]
    grounding = verify(draft.rendered(), texts)
    if not grounding.ok:
        return grounding.reason, []
    if allowed:
        for _text, cites, drug_id in draft.claims:
            if drug_id not in allowed or any(evidence[i - 1].drug_id != drug_id for i in cites):
                return "unsupported_drug", []
    pairs = [
        (c.text, _blocks_for([evidence[i - 1] for i in c.citations])) for c in grounding.claims
    ]
    system, user = entailment_request(question, pairs)
    verdict = parse_json_object(provider.complete(system, user, budget))
    try:
        judged = verdict["claims"]
        if not isinstance(judged, list) or len(judged) < len(pairs):
            raise ProviderError("malformed_output", "the judge skipped claims")
        if any(item.get("supported") is not True for item in judged):
            return "unsupported_claim", []
        missing = verdict.get("missing") or []
        complete = verdict.get("complete", True)
    except (AttributeError, KeyError, TypeError) as exc:
        raise ProviderError("malformed_output", repr(exc)) from exc
    if complete is True or not isinstance(missing, list):
        return None, []
    grounded = [
        m["description"]
        for m in missing
        if isinstance(m, dict)
        and quote_supports_missing(m.get("description", ""), m.get("evidence_quote", ""), texts)
    ]
    return None, grounded


_META = frozenset("thieu khong neu chua de cap thong tin ve cua cac va la cho trong".split())


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


def generated_answer(
    question: str, retrieved: Retrieved, provider: Provider, budget: Budget
) -> TurnResult:
    frame = retrieved.frame
    evidence = list(retrieved.evidence)
    allowed = (
        sorted({e.drug_id for e in evidence}) if frame.turn_type == "condition_to_drug" else []
    )
    citations = _citations(evidence)
    near = [f"{c.drug_name} · {c.section_title} ({_pages(c)})" for c in citations]
    try:
        draft = _generate(question, evidence, provider, budget, allowed)
        if not draft.evidence_sufficient and not draft.clarifying_question:
            draft = _generate(question, evidence, provider, budget, allowed)  # one identical retry
        if _is_refusal(draft):
            return TurnResult(
                "abstain",
                "model_refused",
                frame,
                ABSTAIN_MESSAGES["model_refused"],
                near_misses=near,
            )
        if draft.clarifying_question:
            frame.needs_clarify = True
            frame.quick_replies = tuple(draft.quick_replies)
            return TurnResult(
                "clarify",
                "model_asked_back",
                frame,
                draft.clarifying_question,
                quick_replies=draft.quick_replies,
            )
        if not draft.evidence_sufficient:
            return TurnResult(
                "abstain",
                "insufficient_evidence",
                frame,
                ABSTAIN_MESSAGES["insufficient_evidence"],
                near_misses=near,
            )
        reason, missing = _check(question, draft, evidence, provider, budget, allowed)
        if reason is None and missing:
            draft = _generate(question, evidence, provider, budget, allowed, missing)
            reason, still_missing = _check(question, draft, evidence, provider, budget, allowed)
            if reason is None and still_missing:
                reason = "incomplete_answer"
    except ProviderError as exc:
        logger.warning("generation abstained: %s", exc)
        return TurnResult(
            "abstain", exc.reason, frame, ABSTAIN_MESSAGES.get(exc.reason, ""), near_misses=near
        )
    if reason is not None:
        return TurnResult(
            "abstain", reason, frame, ABSTAIN_MESSAGES.get(reason, ""), near_misses=near
        )
    claims, _ = split_claims(draft.rendered())
    blocks: dict[tuple[str, str], AnswerBlock] = {}
    for claim in claims:
        first = citations[claim.citations[0] - 1]
        key = (first.drug_id, first.section_key)
        if key not in blocks:
            blocks[key] = AnswerBlock(
                f"{first.drug_name} · {first.section_title}",
                _kind(first.section_key),
                first.section_key,
                first.drug_id,
                [],
            )
        blocks[key].claims.append((claim.text, list(claim.citations)))
    return TurnResult(
        "answer", "grounded_answer", frame, draft.rendered(), list(blocks.values()), citations
    )
