"""A drug's effect on a lab test asked: the book's lines saying a test reads falsely with it
are in view, whichever section the question reads as (held-out set 16: captopril's
"phản ứng dương tính giả khi xét nghiệm aceton" in Thận trọng, asked as a lab's result).

Other monographs and wordings than the held-out set's."""

import pytest

from answering.turn import answer_turn
from retrieval.interference import asks_interference

pytestmark = pytest.mark.django_db


def _in_view(question: str) -> str:
    shown = []
    for block in answer_turn(question).blocks:
        if block.collapsed:
            break
        shown += [text for text, _ in block.claims]
    return " ".join(shown)


@pytest.mark.parametrize(
    ("question", "printed"),
    [
        (
            "BN đang truyền mesna, que thử nước tiểu báo ceton dương tính, có phải thuốc làm sai không?",
            "dương tính giả",
        ),
        (
            "Đang uống ampicilin thì thử đường niệu bằng Benedict có bị ảnh hưởng kết quả không?",
            "sai lệch kết quả test glucose niệu",
        ),
        (
            "bn dùng vitamin C liều cao, xét nghiệm glucose nước tiểu có bị sai lệch không",
            "sai lệch đến các kết quả xét nghiệm glucose",
        ),
        (
            "Metronidazol có ảnh hưởng đến kết quả xét nghiệm men gan không?",
            "kết quả xét nghiệm men gan",
        ),
    ],
)
def test_the_lines_saying_a_test_reads_falsely_are_in_view(question: str, printed: str) -> None:
    assert printed in _in_view(question)


def test_only_a_result_said_to_be_falsified_asks_it() -> None:
    assert asks_interference("que thử báo dương tính giả")
    assert not asks_interference("kết quả xét nghiệm men gan tăng, dùng tiếp được không")
