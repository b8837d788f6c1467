import json
from collections.abc import Callable
from unittest import mock

import pytest

from answering.providers import OpenAICompatibleProvider
from answering.understanding import understand
from retrieval.retrieve import retrieve_for_frame


@pytest.fixture
def scripted() -> Callable[..., mock.NonCallableMagicMock]:
    """A provider whose network call returns the given replies in order (or raises them)."""

    def make(*replies: object) -> mock.NonCallableMagicMock:
        provider = mock.create_autospec(OpenAICompatibleProvider, instance=True)
        provider.name = "openai"
        provider.complete.side_effect = [
            r
            if isinstance(r, BaseException)
            else (r if isinstance(r, str) else json.dumps(r, ensure_ascii=False))
            for r in replies
        ]
        return provider

    return make


def block_index(question: str, needle: str) -> int:
    """The 1-based evidence number of the block containing `needle` for this question."""
    retrieved = retrieve_for_frame(understand(question), question)
    for n, item in enumerate(retrieved.evidence, 1):
        if needle in item.text:
            return n
    raise AssertionError(f"{needle!r} is not in the evidence of {question!r}")


def answer(text: str, cites: list[int], **extra: object) -> dict[str, object]:
    claim = {"text": text, "citations": cites, "drug_id": extra.pop("drug_id", None)}
    return {
        "claims": [claim],
        "evidence_sufficient": True,
        "clarifying_question": None,
        "quick_replies": [],
        **extra,
    }


def judge(
    *supported: bool, complete: bool = True, missing: list[dict[str, str]] | None = None
) -> dict[str, object]:
    return {
        "claims": [{"index": n, "supported": s, "reason": ""} for n, s in enumerate(supported, 1)],
        "complete": complete,
        "missing": missing or [],
    }


def understood(question: str) -> dict[str, object]:
    """What a well-behaved model returns for understanding: the deterministic frame."""
    return {
        **understand(question).summary(),
        "context_action": "none",
        "needs_clarify": False,
        "quick_replies": [],
    }
