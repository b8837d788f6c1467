"""A level's range asked ("khoảng điều trị … là bao nhiêu", "nồng độ điều trị bao nhiêu"): the
paragraph printing the range the level is kept in is a monitoring paragraph and in view
(held-out set 15: valproat's "Phạm vi điều trị (định lượng huyết thanh): 50 - 100
microgam/ml" in the dose section). Other monographs than the held-out set's."""

import pytest

from answering.turn import answer_turn
from retrieval.monitoring import asks_levels

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
            "BN uống carbamazepin, nồng độ điều trị trong máu là bao nhiêu?",
            "Nồng độ điều trị thông thường",
        ),
        (
            "Digoxin khoảng điều trị trong huyết tương bao nhiêu thì an toàn?",
            "Nồng độ điều trị của digoxin",
        ),
    ],
)
def test_the_range_a_level_is_kept_in_is_in_view(question: str, printed: str) -> None:
    assert printed in _in_view(question)


def test_a_range_asked_is_a_level_asked() -> None:
    assert asks_levels("khoảng điều trị của valproat là bao nhiêu")
    assert not asks_levels("valproat điều trị động kinh liều bao nhiêu")


def test_a_level_to_measure_is_a_monitoring_step() -> None:
    # "định lượng nồng độ …", "đo nồng độ …" tell what to monitor as "theo dõi" does.
    view = _in_view("BN suy thận dùng amikacin thì cần theo dõi gì đặc biệt?")
    assert "định lượng nồng độ" in view
