"""Which mode produced a turn (issue 20): `book`, `model` or `book_after_model_failed`, on the
audit row and discreetly on the card — a no-model clarify turn in model mode is `book`, with
provider `disabled`. The model is a fake OpenAI-compatible server on 127.0.0.1."""

from http.server import ThreadingHTTPServer

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from chat.models import Conversation, Turn

from .conftest import answer, block_index, judge, understood

pytestmark = pytest.mark.django_db
ADULT = "Liều paracetamol cho người lớn?"
CHILD = "Liều paracetamol cho trẻ em?"


def _ask(doctor: User, question: str) -> tuple[Turn, str]:
    client = Client()
    client.force_login(doctor)
    conversation = Conversation.objects.create(user=doctor)
    response = client.post(
        reverse("chat:ask", args=[conversation.pk]), {"question": question}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    return Turn.objects.get(conversation=conversation), response.content.decode()


@pytest.fixture
def model_mode(model_server: ThreadingHTTPServer, settings) -> ThreadingHTTPServer:  # type: ignore[no-untyped-def]
    settings.ANSWER_PROVIDER = "openai"
    settings.ANSWER_BASE_URL = f"http://127.0.0.1:{model_server.server_port}/v1"
    settings.ANSWER_MODEL = "qwen2.5-7b-instruct"
    return model_server


def test_each_mode_is_on_the_audit_row_and_the_card(model_mode, doctor: User) -> None:  # type: ignore[no-untyped-def]
    n = block_index(ADULT, "tối đa là 4 g/ngày")
    model_mode.replies += [
        understood(ADULT),
        answer("Người lớn tối đa là 4 g/ngày", [n]),
        judge(True),
    ]
    written, html = _ask(doctor, ADULT)
    assert (written.mode, written.provider, written.reason) == ("model", "model", "grounded_answer")
    assert 'data-mode="model"' in html and "Bản tóm tắt của mô hình" in html
    model_mode.replies += [understood(ADULT), answer("Người lớn tối đa là 6 g/ngày", [n])]
    failed, html = _ask(doctor, ADULT)
    assert (failed.mode, failed.reason) == ("book_after_model_failed", "ungrounded_quantity")
    assert "6 g/ngày" not in html and "tối đa là 4 g/ngày" in html
    assert 'data-mode="book_after_model_failed"' in html


def test_a_clarify_turn_no_model_wrote_is_book_in_model_mode(model_mode, doctor: User) -> None:  # type: ignore[no-untyped-def]
    model_mode.replies += [understood(CHILD)]
    turn, html = _ask(doctor, CHILD)
    assert turn.decision == "clarify" and len(model_mode.requests) == 1  # no answer call
    assert (turn.mode, turn.provider) == ("book", "disabled")
    assert 'data-mode="book"' in html


def test_the_no_model_mode_is_book(doctor: User) -> None:
    turn, html = _ask(doctor, ADULT)
    assert (turn.mode, turn.provider, turn.decision) == ("book", "disabled", "answer")
    assert "Nguyên văn Dược thư" in html
