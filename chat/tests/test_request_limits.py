"""A form body that is not UTF-8 is answered 400 and stores nothing; feedback is one per user
and turn, and sending it again edits it (issue 19.6)."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from chat.conversation import ask_in_conversation
from chat.models import Conversation, Feedback, Turn

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
FORM = "application/x-www-form-urlencoded"


@pytest.fixture
def logged_in(doctor: User) -> Client:
    client = Client()
    client.force_login(doctor)
    return client


@pytest.mark.parametrize(
    "body",
    [
        b"question=Li\xe1\xbb\x81u paracetamol \xff\xfe",  # raw bytes that are not UTF-8
        b"question=Li%E1%BB%81u+paracetamol+%C3%28",  # percent-encoded, not UTF-8
    ],
)
def test_a_body_that_is_not_utf8_is_refused_and_nothing_stored(
    logged_in: Client, doctor: User, body: bytes
) -> None:
    conversation = Conversation.objects.create(user=doctor)
    url = reverse("chat:ask", args=[conversation.pk])
    response = logged_in.post(url, body, content_type=FORM, **HTMX)
    assert response.status_code == 400
    assert "không phải văn bản UTF-8" in response.content.decode()
    assert not Turn.objects.filter(conversation=conversation).exists()
    turn = ask_in_conversation(conversation, "Liều paracetamol?")
    feedback = reverse("chat:feedback", args=[turn.pk])
    assert logged_in.post(feedback, b"useful=1&comment=%FF", content_type=FORM).status_code == 400
    assert not Feedback.objects.filter(turn=turn).exists()


def test_a_utf8_body_is_answered(logged_in: Client, doctor: User) -> None:
    conversation = Conversation.objects.create(user=doctor)
    url = reverse("chat:ask", args=[conversation.pk])
    body = "question=Liều paracetamol cho người lớn?".encode()
    assert logged_in.post(url, body, content_type=FORM, **HTMX).status_code == 200
    assert Turn.objects.get(conversation=conversation).question.startswith("Liều paracetamol")


def test_feedback_is_one_per_user_and_turn_and_editable(logged_in: Client, doctor: User) -> None:
    turn = ask_in_conversation(Conversation.objects.create(user=doctor), "Liều paracetamol?")
    url = reverse("chat:feedback", args=[turn.pk])
    for _ in range(5):  # the red team's flood: five posts, one row
        logged_in.post(url, {"useful": "1", "comment": "tốt"}, **HTMX)
    edited = logged_in.post(url, {"useful": "0", "comment": "thiếu liều trẻ em"}, **HTMX)
    assert "Đã ghi nhận: không hữu ích" in edited.content.decode()
    assert 'value="thiếu liều trẻ em"' in edited.content.decode()  # the form to edit it again
    given = Feedback.objects.get(turn=turn)
    assert not given.useful and given.comment == "thiếu liều trẻ em"
    page = logged_in.get(reverse("chat:conversation", args=[turn.conversation_id]))
    assert "Sửa phản hồi" in page.content.decode()
