"""The chat page under a model that misbehaves: the book's answer under a line naming why the
written one was withheld, every time, the turn stored with the reason and the mode — never a
500. The model is a fake OpenAI-compatible server on 127.0.0.1."""

from http.server import ThreadingHTTPServer

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from answering.results import ABSTAIN_MESSAGES, DISCLAIMER
from chat.models import Conversation, Turn

from .conftest import understood

pytestmark = pytest.mark.django_db

QUESTION = "Liều paracetamol cho người lớn?"
REFUSAL = "Tôi đã đọc kỹ các đoạn sách. Xin lỗi, tôi không thể trả lời câu hỏi này."


@pytest.mark.parametrize(
    ("mode", "replies", "reason"),
    [
        # An HTML error page for every call: the frame falls back to the deterministic one,
        # the answer call fails the same way (issue 13: transport, not model output).
        ("garbage", [], "provider_unavailable"),
        # A wrong-typed frame falls back; the answer of the wrong shape is malformed.
        (
            "ok",
            [
                '{"turn_type": "drug_attribute", "drugs": 5}',
                '{"claims": "4 g", "evidence_sufficient": true}',
            ],
            "malformed_output",
        ),
        ("ok", [None, REFUSAL], "malformed_output"),
        ("ok", [None, ""], "malformed_output"),
        (
            "ok",
            [
                None,
                '{"claims": [{"text": "4 g", "citations": [true]}], "evidence_sufficient": true}',
            ],
            "malformed_output",
        ),
    ],
    ids=[
        "garbage",
        "wrong-typed-frame",
        "refusal-after-a-lead-in",
        "nothing",
        "wrong-typed-answer",
    ],
)
def test_a_misbehaving_model_gets_the_books_card_with_the_reason_and_the_turn_is_stored(
    model_server: ThreadingHTTPServer,
    doctor: User,
    settings,  # type: ignore[no-untyped-def]
    mode: str,
    replies: list[object],
    reason: str,
) -> None:
    settings.ANSWER_PROVIDER = "openai"
    settings.ANSWER_BASE_URL = f"http://127.0.0.1:{model_server.server_port}/v1"
    settings.ANSWER_MODEL = "qwen2.5-7b-instruct"
    model_server.mode = mode  # type: ignore[attr-defined]
    model_server.replies += [understood(QUESTION) if r is None else r for r in replies]  # type: ignore[attr-defined]
    client = Client()
    client.force_login(doctor)
    conversation = Conversation.objects.create(user=doctor)
    response = client.post(
        reverse("chat:ask", args=[conversation.pk]), {"question": QUESTION}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200 and "card-answer" in html and DISCLAIMER in html
    assert ABSTAIN_MESSAGES[reason] in html and "tối đa là 4 g/ngày" in html
    assert 'data-mode="book_after_model_failed"' in html  # said discreetly on the card
    turn = Turn.objects.get(conversation=conversation)
    assert turn.decision == "answer" and turn.reason == reason
    assert turn.mode == "book_after_model_failed" and turn.provider == "model"
    assert turn.question == QUESTION
