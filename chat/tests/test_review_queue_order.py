"""The review queue as a pharmacist clears it: the chunks that blocked ward answers first,
filters, the next item after a decision, the text rendered beside its editor (issue 22)."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from chat.models import Conversation, Turn
from corpus.models import Chunk
from corpus.tests.accounts import logged_in

pytestmark = pytest.mark.django_db


def _blocked_turn(doctor: User, chunk: Chunk, order: int) -> None:
    conversation = Conversation.objects.create(user=doctor)
    Turn.objects.create(
        conversation=conversation,
        order=order,
        question="Liều vancomycin cho người suy thận?",
        decision="verify_pdf",
        reason="quarantined_evidence",
        citations=[{"index": 1, "chunk_id": chunk.pk, "quarantined": True}],
        disclaimer="…",
    )


def _vancomycin_table() -> Chunk:
    return Chunk.objects.get(
        section__drug__drug_id="vancomycin",
        section__section_key="lieu_luong_va_cach_dung",
        kind=Chunk.Kind.TABLE,
    )


def test_the_chunk_that_blocked_answers_leads_the_queue_with_its_count(
    reviewer: User, doctor: User
) -> None:
    table = _vancomycin_table()
    for order in (1, 2, 3):
        _blocked_turn(doctor, table, order)
    page = logged_in(reviewer).get(reverse("admin:corpus_chunk_review_queue")).content.decode()
    rows = page.split("<tbody>")[1].split("</tr>")
    assert f"/admin/corpus/chunk/{table.pk}/review/" in rows[0]
    assert '<td class="blocked">3</td>' in rows[0]
    assert "Lượt hỏi bị chặn" in page and "1 đoạn đã chặn câu trả lời" in page


def test_the_queue_filters_by_drug_section_and_kind(reviewer: User) -> None:
    client = logged_in(reviewer)
    url = reverse("admin:corpus_chunk_review_queue")
    waiting = Chunk.objects.awaiting_review()
    tables = waiting.filter(kind=Chunk.Kind.TABLE).count()
    assert f"{tables} đoạn chờ kiểm tra" in client.get(url, {"kind": "table"}).content.decode()
    vanco = waiting.filter(section__drug__drug_id="vancomycin", kind="table").count()
    page = client.get(url, {"drug": "vancomycin", "kind": "table"}).content.decode()
    assert f"{vanco} đoạn chờ kiểm tra" in page and "?drug=vancomycin&amp;kind=table" in page
    doses = waiting.filter(section__section_key="lieu_luong_va_cach_dung").count()
    page = client.get(url, {"section": "lieu_luong_va_cach_dung"}).content.decode()
    assert f"{doses} đoạn chờ kiểm tra" in page
    assert "Không có đoạn nào" in client.get(url, {"drug": "khong-co"}).content.decode()


def test_a_decision_leads_to_the_next_item_of_the_filtered_queue(reviewer: User) -> None:
    client = logged_in(reviewer)
    first, second = [
        c.pk
        for c in Chunk.objects.awaiting_review()
        .filter(kind=Chunk.Kind.TABLE)
        .order_by("created_at", "id")[:2]
    ]
    response = client.post(
        reverse("admin:corpus_chunk_review", args=[first]) + "?kind=table",
        {"decision": "approved", "note": "khớp bản in"},
    )
    assert response.status_code == 302
    assert (
        response["Location"] == reverse("admin:corpus_chunk_review", args=[second]) + "?kind=table"
    )
    page = client.get(response["Location"]).content.decode()
    assert (
        "Đã ghi «" in page and "(trang in" in page and "#" not in page.split("messagelist")[1][:300]
    )


def test_the_review_page_renders_the_text_and_previews_an_edit(reviewer: User) -> None:
    client = logged_in(reviewer)
    table = _vancomycin_table()
    page = client.get(reverse("admin:corpus_chunk_review", args=[table.pk])).content.decode()
    assert 'id="rendered-table"' in page
    assert "<th>Độ thanh thải creatinin Clcr<br>(ml/phút)</th>" in page
    assert 'id="preview"' in page and 'hx-post="/admin/corpus/chunk/review/preview/"' in page
    preview = client.post(
        reverse("admin:corpus_chunk_review_preview"),
        {"text": "| Clcr | Liều |\n|---|---|\n| 40 | 620<br>mg |\n\n<script>alert(1)</script>"},
    ).content.decode()
    assert "<td>620<br>mg</td>" in preview and "<script" not in preview
