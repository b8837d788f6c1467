"""No prompt shows an example a model could copy into a reply that passes (issue 25): each
prompt's own example, sent back as the reply — as written, and with its placeholders quoted
the way constrained decoding would fill them — is refused."""

import re

import pytest

from answering.model_frame import understand_turn
from answering.prompts import ANSWER_SYSTEM, ENTAILMENT_SYSTEM, GAP_RULE, UNDERSTANDING_SYSTEM
from answering.providers import ProviderError
from answering.refusals import grounded_gap
from answering.schemas import AnswerOut, FrameOut, VerdictOut, parse_output
from answering.turn import answer_turn

pytestmark = pytest.mark.django_db


def example_of(prompt: str) -> str:
    """The JSON-like example a prompt shows: from its first `{"` to the brace that closes it."""
    start = prompt.index('{"')
    depth = 0
    for end, char in enumerate(prompt[start:], start):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0:
            return prompt[start : end + 1]
    raise AssertionError("the example never closes")


def quoted(example: str) -> str:
    """The example as valid JSON, each bare placeholder (`<số hoặc null>`) as a string."""
    return re.sub(r'(?<!")(<[^<>"]*>)(?!")', r'"\1"', example)


@pytest.mark.parametrize(
    "prompt, schema",
    [(UNDERSTANDING_SYSTEM, FrameOut), (ANSWER_SYSTEM, AnswerOut), (ENTAILMENT_SYSTEM, VerdictOut)],
    ids=["frame", "answer", "judge"],
)
def test_each_prompts_own_example_is_refused_as_a_reply(prompt: str, schema: type) -> None:
    example = example_of(prompt)
    assert "<" in example  # placeholders, not values
    for reply in (example, quoted(example)):
        with pytest.raises(ProviderError) as refused:
            parse_output(reply, schema)
        assert refused.value.reason == "malformed_output", reply


def test_no_prompt_example_holds_a_number_a_model_could_copy() -> None:
    for prompt in (UNDERSTANDING_SYSTEM, ANSWER_SYSTEM, ENTAILMENT_SYSTEM):
        assert not re.search(r"\d", example_of(prompt)), prompt[:40]


def test_the_gap_rules_example_sentence_is_no_gap_the_card_keeps() -> None:
    sentence = re.search(r'"(Dược thư không nêu[^"]*)"', GAP_RULE)
    assert sentence is not None
    assert grounded_gap(sentence.group(1), ["Liều dùng: người lớn uống 500 mg."]) is None


def test_the_understanding_example_sent_back_leaves_the_floor(scripted) -> None:  # type: ignore[no-untyped-def]
    question = "Cho mình xin liều paracetamol cho trẻ em với"
    for reply in (example_of(UNDERSTANDING_SYSTEM), quoted(example_of(UNDERSTANDING_SYSTEM))):
        frame = understand_turn(question, provider=scripted(reply))
        assert frame.understood_by == "deterministic"
        assert frame.understanding_note == "model_malformed_output"
        assert frame.drugs == ("paracetamol",) and frame.weight_kg is None


def test_the_answer_example_sent_back_shows_the_book(scripted, settings) -> None:  # type: ignore[no-untyped-def]
    settings.UNDERSTANDING = "deterministic"
    for reply in (example_of(ANSWER_SYSTEM), quoted(example_of(ANSWER_SYSTEM))):
        result = answer_turn("Liều paracetamol cho người lớn?", provider=scripted(reply))
        assert result.mode == "book_after_model_failed", result.reason
        placeholders = re.findall(r"<[^<>]*>", reply)
        shown = " ".join(text for block in result.blocks for text, _ in block.claims)
        assert shown and not any(p in shown for p in placeholders)
