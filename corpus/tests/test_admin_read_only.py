"""The audit trail is read-only in the admin for everyone, superusers included, and drug and
book-index rows are edited by «Dược sĩ duyệt» only, each change a history row (issue 19.2):
the red team's staff edits, reproduced and refused."""

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import User

from chat.conversation import ask_in_conversation
from chat.models import Conversation, Feedback
from corpus.models import BookIndexEntry, Drug, IngestRun
from corpus.tests.accounts import logged_in

pytestmark = pytest.mark.django_db


def test_nobody_reassigns_a_conversation_or_rewrites_feedback_superusers_included(
    staff: User, admin_user: User, doctor: User
) -> None:
    conversation = Conversation.objects.create(user=doctor, title="BN giường 12")
    turn = ask_in_conversation(conversation, "Liều paracetamol cho người lớn?")
    feedback = Feedback.objects.create(turn=turn, user=doctor, useful=False, comment="thiếu")
    run = IngestRun.objects.create(source="/sach", summary={"drugs": 94})
    for user in (staff, admin_user):
        client = logged_in(user)
        # Readable, with no field to change.
        page = client.get(f"/admin/chat/conversation/{conversation.pk}/change/")
        assert page.status_code == 200 and 'name="user"' not in page.content.decode()
        posts = {
            f"/admin/chat/conversation/{conversation.pk}/change/": {
                "user": user.pk,
                "title": "của tôi",
            },
            f"/admin/chat/feedback/{feedback.pk}/change/": {"useful": "on", "comment": "tốt"},
            f"/admin/chat/turn/{turn.pk}/change/": {"question": "khác"},
            f"/admin/corpus/ingestrun/{run.pk}/change/": {"source": "/khac", "seconds": "0"},
            "/admin/chat/conversation/add/": {"user": user.pk, "title": "giả"},
        }
        for url, data in posts.items():
            assert client.post(url, data).status_code == 403, url
    conversation.refresh_from_db()
    feedback.refresh_from_db()
    run.refresh_from_db()
    assert conversation.user == doctor and conversation.title == "BN giường 12"
    assert not feedback.useful and feedback.comment == "thiếu"
    assert run.source == "/sach"
    assert Conversation.objects.filter(user=doctor).count() == 1


def _drug_post(drug: Drug, **changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "inn": drug.inn,
        "atc_codes": '["' + '", "'.join(drug.atc_codes) + '"]',
        "drug_class": drug.drug_class,
        "page_start": drug.page_start,
        "page_end": drug.page_end,
        # The inlines unchanged: no form of either.
        "sections-TOTAL_FORMS": "0",
        "sections-INITIAL_FORMS": "0",
        "aliases-TOTAL_FORMS": "0",
        "aliases-INITIAL_FORMS": "0",
    }
    return {**data, **changes}


def test_drug_and_book_index_rows_are_edited_by_reviewers_only_with_a_history_row(
    staff: User, admin_user: User, reviewer: User
) -> None:
    warfarin = Drug.objects.get(drug_id="warfarin")
    entry = BookIndexEntry.objects.order_by("id").first()
    assert entry is not None
    url = f"/admin/corpus/drug/{warfarin.pk}/change/"
    for outsider in (staff, admin_user):
        client = logged_in(outsider)
        assert client.post(url, _drug_post(warfarin, page_start=1)).status_code == 403
        index_url = f"/admin/corpus/bookindexentry/{entry.pk}/change/"
        assert client.post(index_url, {"name": "X", "page": "1"}).status_code == 403
    assert Drug.objects.get(pk=warfarin.pk).page_start == warfarin.page_start

    response = logged_in(reviewer).post(
        url, _drug_post(warfarin, page_start=warfarin.page_start + 1)
    )
    assert response.status_code == 302
    assert Drug.objects.get(pk=warfarin.pk).page_start == warfarin.page_start + 1
    row = LogEntry.objects.get(object_id=str(warfarin.pk), action_flag=CHANGE)
    assert row.user == reviewer
    assert f"{warfarin.page_start!r} → {warfarin.page_start + 1!r}" in row.get_change_message()
