"""The review queue and the audit trail cannot be bypassed from the admin (issue 12.4), and a
name edited there is seen by every worker at once (12.7)."""

import pytest
from django.contrib.auth.models import User

from chat.conversation import ask_in_conversation
from chat.models import Conversation, Turn
from corpus.models import Alias, Chunk, Drug
from corpus.tests.accounts import logged_in
from retrieval.catalog import get_resolver

pytestmark = pytest.mark.django_db


def test_nobody_deletes_a_queued_chunk_from_the_admin(staff: User, admin_user: User) -> None:
    queued = Chunk.objects.filter(requires_visual_check=True).first()
    assert queued is not None
    for user in (staff, admin_user):
        response = logged_in(user).post(f"/admin/corpus/chunk/{queued.pk}/delete/", {"post": "yes"})
        assert response.status_code == 403
    assert Chunk.objects.filter(pk=queued.pk).exists()


def test_the_audit_trail_is_append_only_even_for_a_superuser(admin_user: User) -> None:
    conversation = Conversation.objects.create(user=admin_user)
    turn = ask_in_conversation(conversation, "Liều paracetamol cho người lớn?")
    client = logged_in(admin_user)
    assert client.post(f"/admin/chat/turn/{turn.pk}/delete/", {"post": "yes"}).status_code == 403
    assert (
        client.post(
            f"/admin/chat/conversation/{conversation.pk}/delete/", {"post": "yes"}
        ).status_code
        == 403
    )
    assert Turn.objects.filter(pk=turn.pk).exists()


def test_only_reviewers_edit_names_and_a_name_of_another_drug_is_refused(
    staff: User, reviewer: User
) -> None:
    warfarin = Drug.objects.get(drug_id="warfarin")
    form = {"drug": warfarin.pk, "name": "Panadol", "kind": "curated", "source_page": ""}
    assert logged_in(staff).post("/admin/corpus/alias/add/", form).status_code == 403
    refused = logged_in(reviewer).post("/admin/corpus/alias/add/", form)
    assert (
        refused.status_code == 200 and "đã là tên gọi của PARACETAMOL" in refused.content.decode()
    )
    assert not Alias.objects.filter(drug=warfarin, name="Panadol").exists()
    assert get_resolver().resolve("Panadol") == ("paracetamol",)
    # A name of no other drug is taken, with its folded form.
    fresh = {**form, "name": "Coumadine Xyz"}
    assert logged_in(reviewer).post("/admin/corpus/alias/add/", fresh).status_code == 302
    assert Alias.objects.get(drug=warfarin, name="Coumadine Xyz").folded == "coumadine xyz"


def test_an_alias_renamed_in_place_is_seen_without_this_workers_cache_being_told() -> None:
    import retrieval.catalog as catalog

    alias = Alias.objects.filter(
        drug__drug_id="warfarin", kind=Alias.Kind.CURATED
    ).first() or Alias.objects.create(
        drug=Drug.objects.get(drug_id="warfarin"),
        name="Wafa Cũ",
        folded="wafa cu",
        kind=Alias.Kind.CURATED,
    )
    assert "warfarin" in get_resolver().resolve(alias.name)
    cached = dict(catalog._cached)
    # Another worker renames it (same row count): nothing tells this worker's cache.
    alias.name, alias.folded = "Zyxowarf", "zyxowarf"
    alias.save()
    assert dict(catalog._cached) == cached  # nothing in this process was told
    assert get_resolver().resolve("Zyxowarf") == ("warfarin",)
