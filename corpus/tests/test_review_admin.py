"""The quarantine review queue in the admin: reviewers decide, other staff only read."""

import pytest
from django.contrib.auth.models import Permission, User
from django.urls import reverse

from corpus.models import Chunk, ChunkReview
from corpus.tests.accounts import logged_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_reader() -> User:
    user = User.objects.create_user("bs_doc", password="x", is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="corpus", codename__startswith="view_")
    )
    return user


def _oldest_waiting() -> Chunk:
    return Chunk.objects.awaiting_review().order_by("created_at", "id").first()


def test_the_queue_lists_waiting_chunks_oldest_first_with_its_count(reviewer: User) -> None:
    response = logged_in(reviewer).get(reverse("admin:corpus_chunk_review_queue"))
    assert response.status_code == 200
    waiting = Chunk.objects.awaiting_review().count()
    assert waiting > 100
    assert f"{waiting} đoạn chờ kiểm tra" in response.content.decode()
    index = logged_in(reviewer).get(reverse("admin:index")).content.decode()
    assert f'<td id="queue-count">{waiting}</td>' in index


def test_a_table_is_shown_rendered_with_drug_section_pages_and_neighbours(reviewer: User) -> None:
    table = Chunk.objects.get(section__drug__drug_id="cetirizin_hydroclorid", kind=Chunk.Kind.TABLE)
    page = (
        logged_in(reviewer)
        .get(reverse("admin:corpus_chunk_review", args=[table.pk]))
        .content.decode()
    )
    assert 'id="rendered-table"' in page
    assert "<td>Suy thận vừa</td>" in page
    assert "CETIRIZIN HYDROCLORID" in page and "Liều lượng và cách dùng" in page
    assert f"trang in {table.page_start}–{table.page_end}" in page
    assert "Đoạn trước" in page


def test_a_reviewer_approves_edits_or_keeps_with_a_recorded_note(reviewer: User) -> None:
    client = logged_in(reviewer)
    first, second, third = Chunk.objects.awaiting_review().order_by("id")[:3]
    url = lambda c: reverse("admin:corpus_chunk_review", args=[c.pk])  # noqa: E731
    assert (
        client.post(url(first), {"decision": "approved", "note": "khớp bản in"}).status_code == 302
    )
    assert (
        client.post(
            url(second), {"decision": "edited", "text": "văn bản đã sửa", "note": "sửa theo bản in"}
        ).status_code
        == 302
    )
    assert client.post(url(third), {"decision": "kept", "note": "bản in mờ"}).status_code == 302
    for chunk in (first, second, third):
        chunk.refresh_from_db()
    assert first.review_state == Chunk.Review.APPROVED and not first.requires_visual_check
    assert second.text == "văn bản đã sửa" and second.source_text != second.text
    assert third.review_state == Chunk.Review.KEPT and third.requires_visual_check
    decisions = list(
        ChunkReview.objects.filter(user=reviewer).order_by("id").values_list("decision", "note")
    )
    assert decisions == [
        ("approved", "khớp bản in"),
        ("edited", "sửa theo bản in"),
        ("kept", "bản in mờ"),
    ]


def test_keeping_quarantined_needs_a_note(reviewer: User) -> None:
    chunk = _oldest_waiting()
    response = logged_in(reviewer).post(
        reverse("admin:corpus_chunk_review", args=[chunk.pk]), {"decision": "kept", "note": ""}
    )
    assert response.status_code == 200
    assert "Giữ cách ly cần ghi chú" in response.content.decode()
    assert not ChunkReview.objects.filter(chunk=chunk).exists()


def test_other_staff_can_read_the_queue_but_not_decide(staff_reader: User) -> None:
    client = logged_in(staff_reader)
    chunk = _oldest_waiting()
    assert client.get(reverse("admin:corpus_chunk_review_queue")).status_code == 200
    page = client.get(reverse("admin:corpus_chunk_review", args=[chunk.pk]))
    assert page.status_code == 200 and "chỉ có quyền xem" in page.content.decode()
    response = client.post(
        reverse("admin:corpus_chunk_review", args=[chunk.pk]),
        {"decision": "approved", "note": "thử"},
    )
    assert response.status_code == 403
    chunk.refresh_from_db()
    assert chunk.requires_visual_check
    assert not ChunkReview.objects.filter(chunk=chunk).exists()


def test_a_superuser_outside_the_reviewer_group_cannot_decide() -> None:
    boss = User.objects.create_superuser("giam_doc", password="x")
    chunk = _oldest_waiting()
    response = logged_in(boss).post(
        reverse("admin:corpus_chunk_review", args=[chunk.pk]), {"decision": "approved", "note": ""}
    )
    assert response.status_code == 403


def test_chunks_are_searchable_and_filterable_in_the_admin(reviewer: User) -> None:
    client = logged_in(reviewer)
    url = reverse("admin:corpus_chunk_changelist")
    with_marks = client.get(url, {"q": "loét dạ dày"}).context["cl"].result_count
    without = client.get(url, {"q": "loet da day"}).context["cl"].result_count
    assert with_marks == without >= Chunk.objects.filter(text__icontains="loét dạ dày").count() > 0
    response = client.get(url, {"quarantine": "waiting", "kind": "table"})
    assert response.status_code == 200
    assert (
        response.context["cl"].result_count
        == Chunk.objects.filter(kind="table", requires_visual_check=True).count()
    )
