"""The chat page through the Django test client, on the real database."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from answering.results import DISCLAIMER, MAX_QUESTION_CHARS
from chat.models import Conversation, Feedback, Turn

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def client(doctor: User) -> Client:
    c = Client()
    c.force_login(doctor)
    return c


@pytest.fixture
def conversation(doctor: User) -> Conversation:
    return Conversation.objects.create(user=doctor)


def _ask(client: Client, conversation: Conversation, question: str, **headers: str):  # type: ignore[no-untyped-def]
    return client.post(
        reverse("chat:ask", args=[conversation.pk]), {"question": question}, **headers
    )


def test_every_chat_url_requires_login(conversation: Conversation) -> None:
    anonymous = Client()
    for url in (reverse("chat:index"), reverse("chat:conversation", args=[conversation.pk])):
        response = anonymous.get(url)
        assert response.status_code == 302 and response["Location"].startswith(
            reverse("chat:login")
        )
    assert (
        anonymous.post(reverse("chat:ask", args=[conversation.pk]), {"question": "x"}).status_code
        == 302
    )
    assert not Turn.objects.exists()


def test_the_local_admin_account_can_log_in_through_the_page(doctor: User) -> None:
    c = Client()
    response = c.post(reverse("chat:login"), {"username": "bs_an", "password": "mật-khẩu-dài"})
    assert response.status_code == 302
    assert c.get(reverse("chat:index")).status_code == 200


def test_an_htmx_request_gets_the_fragment_and_a_plain_one_the_full_page(
    client: Client, conversation: Conversation
) -> None:
    fragment = _ask(client, conversation, "Liều paracetamol cho người lớn?", **HTMX)
    html = fragment.content.decode()
    assert fragment.status_code == 200
    assert "<html" not in html and 'class="turn"' in html and "card-answer" in html
    assert "PARACETAMOL" in html and "lieu_luong_va_cach_dung" in html and DISCLAIMER in html
    plain = _ask(client, conversation, "Paracetamol chống chỉ định gì?")
    assert plain.status_code == 302
    page = client.get(plain["Location"]).content.decode()
    assert "<html" in page and 'hx-headers=\'{"X-CSRFToken"' in page
    assert page.count('class="turn"') == 2
    assert "/static/vendor/htmx-2.0.11.min.js" in page


def test_the_first_question_without_a_conversation_creates_one_and_repoints_the_form(
    client: Client,
) -> None:
    response = client.post(reverse("chat:ask_new"), {"question": "omeprazol"}, **HTMX)
    conversation = Conversation.objects.get()
    assert response["HX-Push-Url"] == reverse("chat:conversation", args=[conversation.pk])
    assert f'hx-post="{reverse("chat:ask", args=[conversation.pk])}"' in response.content.decode()
    assert 'hx-swap-oob="true"' in response.content.decode()


def test_turns_are_persisted_with_the_audit_fields(
    client: Client, conversation: Conversation
) -> None:
    _ask(client, conversation, "Liều paracetamol cho người lớn?", **HTMX)
    turn = Turn.objects.get(conversation=conversation)
    assert turn.decision == "answer" and turn.reason
    assert turn.frame["drugs"] == ["paracetamol"] and turn.drug_ids == ["paracetamol"]
    assert turn.disclaimer == DISCLAIMER
    from corpus.models import Chunk

    for cited in turn.citations:
        chunk = Chunk.objects.get(pk=cited["chunk_id"])
        assert cited["content_hash"] == chunk.content_hash and cited["text"] == chunk.text
    conversation.refresh_from_db()
    assert conversation.title.startswith("Liều paracetamol")


def test_a_clarify_card_offers_quick_replies_that_continue_the_case(
    client: Client, conversation: Conversation
) -> None:
    html = _ask(
        client, conversation, "Cho mình xin liều paracetamol cho trẻ em với", **HTMX
    ).content.decode()
    assert "card-clarify" in html and 'class="quick-reply"' in html
    turn = Turn.objects.get(conversation=conversation)
    reply = next(r for r in turn.quick_replies if "tuổi" in r)
    html = _ask(client, conversation, reply, **HTMX).content.decode()
    assert "card-answer" in html and f"{reply}:" in html


def test_a_veterinary_question_gets_the_amber_abstain_card(
    client: Client, conversation: Conversation
) -> None:
    html = _ask(
        client, conversation, "Chó nhà tôi bị sốt, cho uống ibuprofen liều bao nhiêu?", **HTMX
    ).content.decode()
    assert "card-abstain" in html and "chỉ dành cho người" in html and DISCLAIMER in html


def test_user_text_is_always_escaped(client: Client, conversation: Conversation) -> None:
    html = _ask(
        client, conversation, "<script>alert('x')</script> paracetamol liều?", **HTMX
    ).content.decode()
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html


def test_an_overlong_or_empty_question_gets_a_clear_message_not_a_500(
    client: Client, conversation: Conversation
) -> None:
    long = _ask(client, conversation, "liều paracetamol " * 2000, **HTMX)
    assert (
        long.status_code == 200 and f"dài quá {MAX_QUESTION_CHARS} ký tự" in long.content.decode()
    )
    empty = _ask(client, conversation, "", **HTMX)
    assert empty.status_code == 200 and "chưa nhập câu hỏi" in empty.content.decode()
    assert Turn.objects.filter(conversation=conversation).count() == 2  # nothing typed is lost
    stored = Turn.objects.filter(conversation=conversation).order_by("order").first()
    assert len(stored.question) == MAX_QUESTION_CHARS + 1 and stored.question.endswith("…")


def test_feedback_is_stored_and_shown_to_pharmacists_in_the_admin(
    client: Client, conversation: Conversation
) -> None:
    _ask(client, conversation, "Liều paracetamol cho người lớn?", **HTMX)
    turn = Turn.objects.get()
    response = client.post(
        reverse("chat:feedback", args=[turn.pk]),
        {"useful": "0", "comment": "thiếu liều truyền"},
        **HTMX,
    )
    assert "Đã ghi nhận: không hữu ích" in response.content.decode()
    feedback = Feedback.objects.get()
    assert not feedback.useful and feedback.comment == "thiếu liều truyền"
    staff = User.objects.create_superuser("ds_tra", password="x")
    admin_client = Client()
    admin_client.force_login(staff)
    listing = admin_client.get(reverse("admin:chat_feedback_changelist")).content.decode()
    assert "thiếu liều truyền" in listing and "Liều paracetamol cho người lớn?" in listing
    assert "PARACETAMOL" in listing  # the citations next to it


def test_another_users_conversation_is_not_reachable(client: Client) -> None:
    other = Conversation.objects.create(user=User.objects.create_user("bs_khac"))
    assert client.get(reverse("chat:conversation", args=[other.pk])).status_code == 404
    assert client.post(reverse("chat:ask", args=[other.pk]), {"question": "x"}).status_code == 404


def test_phone_and_id_numbers_are_masked_before_storage(
    client: Client, conversation: Conversation
) -> None:
    _ask(
        client,
        conversation,
        "BN SĐT 0912 345 678, CCCD 001203004567 dùng paracetamol 500 mg được không?",
        **HTMX,
    )
    turn = Turn.objects.get()
    assert "0912" not in turn.question and "001203004567" not in turn.question
    assert "[số điện thoại]" in turn.question and "[số CCCD/CMND]" in turn.question
    assert "500 mg" in turn.question


def test_the_admin_lists_turns_filterable_by_outcome_reason_drug_and_date(
    client: Client, conversation: Conversation
) -> None:
    _ask(client, conversation, "Liều paracetamol cho người lớn?", **HTMX)
    _ask(client, conversation, "Chó bị sốt uống ibuprofen được không?", **HTMX)
    staff = User.objects.create_superuser("ds_kiem", password="x")
    admin_client = Client()
    admin_client.force_login(staff)
    url = reverse("admin:chat_turn_changelist")
    assert admin_client.get(url, {"decision": "abstain"}).context["cl"].result_count == 1
    assert admin_client.get(url, {"reason": "non_human_subject"}).context["cl"].result_count == 1
    assert admin_client.get(url, {"drug": "paracetamol"}).context["cl"].result_count == 1
    turn = Turn.objects.get(decision="answer")
    day = turn.created_at
    filtered = admin_client.get(url, {"created_at__year": day.year, "created_at__month": day.month})
    assert filtered.status_code == 200 and filtered.context["cl"].result_count >= 2


def test_a_model_server_that_is_down_gives_the_books_card_with_the_reason_not_a_500(
    client: Client,
    conversation: Conversation,
    settings,  # type: ignore[no-untyped-def]
) -> None:
    settings.ANSWER_PROVIDER = "openai"
    settings.ANSWER_BASE_URL = "http://127.0.0.1:9/v1"  # nothing listens on the discard port
    settings.ANSWER_MODEL = "qwen2.5-7b-instruct"
    response = _ask(client, conversation, "Liều paracetamol cho người lớn?", **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and "card-answer" in html  # the book is the floor
    assert "Dịch vụ mô hình ngôn ngữ không phản hồi" in html and DISCLAIMER in html
    assert "tối đa là 4 g/ngày" in html
    turn = Turn.objects.get(conversation=conversation)
    # The question was understood without the model; the answer call found it down.
    assert turn.reason == "provider_unavailable" and turn.decision == "answer"
    assert turn.mode == "book_after_model_failed"
    assert turn.frame["understanding_note"] == "model_provider_unavailable"


def test_nul_and_control_characters_are_dropped_not_a_500(
    client: Client, conversation: Conversation
) -> None:
    response = _ask(client, conversation, "Liều para\x00cetamol\x07 cho người lớn?", **HTMX)
    assert response.status_code == 200 and "card-answer" in response.content.decode()
    turn = Turn.objects.get(conversation=conversation)
    assert turn.question == "Liều paracetamol cho người lớn?"
    feedback = client.post(
        reverse("chat:feedback", args=[turn.pk]), {"useful": "1", "comment": "tốt\x00 lắm"}, **HTMX
    )
    assert feedback.status_code in (200, 204)
    assert Feedback.objects.get(turn=turn).comment == "tốt lắm"
