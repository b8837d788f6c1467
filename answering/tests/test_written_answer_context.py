"""The answer call sees the conversation (bounded, marked as history, never evidence), and
the completeness check counts a point covered when the answer already states it (issue 20).
Through the real adapter and a fake OpenAI-compatible server on 127.0.0.1."""

import pytest

from answering.prompts import HISTORY_CHARS, HISTORY_HEADER, answer_request, bounded_history
from answering.turn import answer_turn

from .conftest import answer, block_index, judge, understood

pytestmark = pytest.mark.django_db
ADULT = "Liều paracetamol cho người lớn?"


def test_the_answer_call_sees_the_earlier_questions_marked_as_history(scripted) -> None:  # type: ignore[no-untyped-def]
    n = block_index(ADULT, "tối đa là 4 g/ngày")
    model = scripted(understood(ADULT), answer("Người lớn tối đa là 4 g/ngày", [n]), judge(True))
    earlier = ["Paracetamol là thuốc gì?", "Chống chỉ định của paracetamol?"]
    result = answer_turn(ADULT, earlier, provider=model)
    assert result.mode == "model"
    _, user = model.prompts[1]
    history = user.index(HISTORY_HEADER)
    assert history < user.index("BẰNG CHỨNG:") < user.index("CÂU HỎI:")
    section = user[history : user.index("BẰNG CHỨNG:")]
    assert all(
        f"<<<CAU_HOI_NGUOI_DUNG>>>\n{q}\n<<</CAU_HOI_NGUOI_DUNG>>>" in section for q in earlier
    )
    assert "<<<BANG_CHUNG>>>" not in section


def test_history_is_bounded_latest_kept() -> None:
    long = ["câu hỏi rất dài " * 40] * 10 + ["Còn trẻ em thì sao?"]
    kept = bounded_history(long)
    assert kept[-1] == "Còn trẻ em thì sao?"
    assert sum(len(q) for q in kept) <= HISTORY_CHARS and len(kept) <= 6
    _, user = answer_request("q", [("l", "t")], {}, numeric_suppressed=False, history=long)
    assert len(user) < 2 * HISTORY_CHARS + 400


def test_a_point_the_answer_already_states_is_not_repaired(scripted) -> None:  # type: ignore[no-untyped-def]
    n = block_index(ADULT, "tối đa là 4 g/ngày")
    stated = answer("Người lớn uống 0,5 - 1 g/lần, 4 - 6 giờ một lần; tối đa là 4 g/ngày", [n])
    objection = {
        "description": "liều tối đa 4 g/ngày",
        "evidence_quote": "tối đa là 4 g/ngày",
    }
    model = scripted(understood(ADULT), stated, judge(True, complete=False, missing=[objection]))
    result = answer_turn(ADULT, provider=model)
    assert result.mode == "model" and result.reason == "grounded_answer"
    assert len(model.prompts) == 3  # understanding, answer, judge: no repair
