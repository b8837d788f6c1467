"""Long conversations and the conversation list through the test client (issues 19.6, 22)."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from chat.models import Conversation, Turn
from chat.views import CONVERSATIONS_PER_PAGE, TURNS_PER_PAGE

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def client(doctor: User) -> Client:
    c = Client()
    c.force_login(doctor)
    return c


def _turns(
    conversation: Conversation, n: int, question: str = "Paracetamol chống chỉ định gì?"
) -> None:
    Turn.objects.bulk_create(
        Turn(
            conversation=conversation,
            order=i,
            question=f"{question} ({i})",
            decision="abstain",
            reason="test",
            disclaimer="…",
        )
        for i in range(1, n + 1)
    )


def test_a_long_conversation_opens_on_its_latest_turns_and_loads_older_ones_on_request(
    client: Client, doctor: User
) -> None:
    conversation = Conversation.objects.create(user=doctor, title="Dài")
    _turns(conversation, TURNS_PER_PAGE + 5)
    url = reverse("chat:conversation", args=[conversation.pk])
    page = client.get(url).content.decode()
    assert page.count('<article class="turn"') == TURNS_PER_PAGE
    assert f"({TURNS_PER_PAGE + 5})" in page and "Xem các lượt hỏi trước (5)" in page
    older = client.get(url, {"before": 6}, **HTMX).content.decode()
    assert "<html" not in older and older.count('<article class="turn"') == 5
    assert "(1)" in older and "Xem các lượt hỏi trước" not in older
    for odd in ("abc", "-1", "99999999999999999999"):
        assert client.get(url, {"before": odd}).status_code == 200


def test_the_list_is_paged_dated_and_searched_by_question_words_without_diacritics(
    client: Client, doctor: User
) -> None:
    for i in range(CONVERSATIONS_PER_PAGE + 3):
        conversation = Conversation.objects.create(user=doctor, title=f"Hội thoại {i}")
        _turns(conversation, 1, "Omeprazol tương tác với clopidogrel?" if i == 0 else "Liều?")
    page = client.get(reverse("chat:index")).content.decode()
    assert page.count("<time datetime=") == CONVERSATIONS_PER_PAGE and "Trang 1/2" in page
    second = client.get(
        reverse("chat:index"), {"page": 2}, HTTP_HX_TARGET="history", **HTMX
    ).content.decode()
    assert "<html" not in second and second.count("<time datetime=") == 3
    found = client.get(
        reverse("chat:index"), {"q": "omeprazol tuong tac"}, HTTP_HX_TARGET="history", **HTMX
    ).content.decode()
    assert found.count("<time datetime=") == 1 and "Hội thoại 0" in found
    none = client.get(reverse("chat:index"), {"q": "không có"}, HTTP_HX_TARGET="history", **HTMX)
    assert "Không có câu hỏi nào chứa «không có»" in none.content.decode()
    assert client.get(reverse("chat:index"), {"page": "x", "q": "\x00" * 500}).status_code == 200


def test_new_conversation_reuses_the_empty_one(client: Client, doctor: User) -> None:
    for _ in range(3):
        assert client.post(reverse("chat:new")).status_code == 302
    assert Conversation.objects.filter(user=doctor).count() == 1


def test_the_first_answer_retitles_the_list_out_of_band(client: Client, doctor: User) -> None:
    conversation = Conversation.objects.create(user=doctor)
    html = client.post(
        reverse("chat:ask", args=[conversation.pk]), {"question": "Omeprazol liều?"}, **HTMX
    ).content.decode()
    assert '<div id="history" class="history-box" hx-swap-oob="true">' in html
    assert '<span class="title">Omeprazol liều?</span>' in html
    second = client.post(
        reverse("chat:ask", args=[conversation.pk]), {"question": "Chống chỉ định?"}, **HTMX
    ).content.decode()
    assert "hx-swap-oob" not in second


def test_the_browser_gives_up_a_little_after_the_answer_budget(client: Client, settings) -> None:  # type: ignore[no-untyped-def]
    settings.ANSWER_BUDGET_SECONDS = 30
    page = client.get(reverse("chat:index")).content.decode()
    assert '"timeout": 35000' in page
    assert 'href="#question"' in page and page.count("<h1") == 1
