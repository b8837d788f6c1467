"""A refusal is recognised with or without a lead-in; the model's grounded book-gap sentence is
kept; one rule about gaps in every answer prompt (issue 20). Through the real adapter and a
fake OpenAI-compatible server on 127.0.0.1 where a model is involved."""

import pytest

from answering.prompts import GAP_RULE, answer_request
from answering.refusals import grounded_gap, is_refusal
from answering.turn import answer_turn

from .conftest import answer, block_index, judge, understood

ADULT = "Liều paracetamol cho người lớn?"

REFUSALS = (
    "Xin lỗi, Dược thư không nêu thông tin này.",
    "Rất tiếc, tôi không thể trả lời câu hỏi này.",
    "Theo các trích đoạn được cung cấp, không có thông tin về liều cho trẻ sơ sinh.",
    "Dựa trên bằng chứng, Dược thư không đề cập đến đường nhỏ mắt.",
    "Căn cứ vào các đoạn sách đã tra: sách không nêu liều này.",
    "Sau khi xem các trích đoạn, tôi không tìm thấy thông tin này.",
    "Các trích đoạn được cung cấp không đề cập đến việc dùng thuốc khi lái xe.",
    "Không tìm thấy thông tin về tương tác này trong Dược thư.",
    "Dược thư không nêu liều dùng đường nhỏ mắt của thuốc này.",
    "theo cac trich doan duoc cung cap, khong co thong tin ve lieu nay",  # typed without marks
)
ANSWERS = (
    "Người lớn: 0,5 - 1 g/lần, 4 - 6 giờ một lần; tối đa là 4 g/ngày.",
    "Không dùng cho người bệnh suy gan nặng.",
    "Theo Dược thư, người lớn uống 0,5 - 1 g/lần.",
    "Thận trọng với người bệnh có thiếu máu từ trước.",
    "",
)


@pytest.mark.parametrize("text", REFUSALS)
def test_a_refusal_is_recognised_with_or_without_a_lead_in(text: str) -> None:
    assert is_refusal(text)


@pytest.mark.parametrize("text", ANSWERS)
def test_an_answer_is_not_a_refusal(text: str) -> None:
    assert not is_refusal(text)


def test_a_gap_sentence_is_kept_only_when_no_passage_says_what_it_calls_missing() -> None:
    book = ["Người lớn: 0,5 - 1 g/lần. Trẻ em dưới 12 tuổi: 10 - 15 mg/kg."]
    eye = "Dược thư không nêu liều dùng đường nhỏ mắt của thuốc này."
    assert grounded_gap(eye, book) == eye
    assert grounded_gap("Dược thư không nêu liều cho trẻ em dưới 12 tuổi.", book) is None  # digits
    assert grounded_gap("Dược thư không nêu liều cho trẻ em.", book) is None  # the book says it
    assert grounded_gap("Người lớn uống 1 g.", book) is None  # not a gap sentence


@pytest.mark.django_db
def test_a_grounded_gap_sentence_is_shown_next_to_the_written_answer(scripted) -> None:  # type: ignore[no-untyped-def]
    n = block_index(ADULT, "tối đa là 4 g/ngày")
    payload = answer("Người lớn tối đa là 4 g/ngày", [n])
    gap = "Dược thư không nêu liều dùng đường nhỏ mắt của thuốc này."
    payload["claims"].append({"text": gap, "citations": [], "drug_id": None})
    result = answer_turn(ADULT, provider=scripted(understood(ADULT), payload, judge(True)))
    assert result.mode == "model" and result.reason == "grounded_answer"
    assert any(b.title == "Sách không nêu" and b.claims[0][0] == gap for b in result.blocks)


@pytest.mark.django_db
def test_a_refusal_with_a_lead_in_keeps_the_models_gap_sentence_above_the_book(scripted) -> None:  # type: ignore[no-untyped-def]
    said = "Theo các trích đoạn được cung cấp, không có thông tin về liều dùng đường nhỏ mắt."
    refusal = {"claims": [], "evidence_sufficient": False, "clarifying_question": said}
    result = answer_turn(ADULT, provider=scripted(understood(ADULT), refusal))
    assert result.reason == "model_refused" and result.mode == "book_after_model_failed"
    assert said in result.blocks[0].claims[0][0]  # the model's own words, not generic text
    assert "tối đa là 4 g/ngày" in result.answer_text


def test_every_answer_prompt_carries_the_one_gap_rule_and_nothing_against_it() -> None:
    blocks = [("(nhãn)", "Người lớn: 0,5 - 1 g/lần.")]
    for allowed, suppressed, missing in (
        ((), False, ()),
        (("metformin",), False, ()),
        ((), True, ()),
        ((), False, ("đặt trực tràng",)),
    ):
        system, _ = answer_request(
            "câu hỏi", blocks, {}, numeric_suppressed=suppressed, allowed_drugs=allowed,
            missing=missing,
        )  # fmt: skip
        assert system.count(GAP_RULE) == 1
        assert 'Không dùng "clarifying_question" để nói rằng sách không nêu' not in system
        assert system.count("QUY TẮC VỀ ĐIỀU SÁCH KHÔNG NÊU:") == 1
