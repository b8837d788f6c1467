"""Every admin list of the project speaks Vietnamese (issue 22): no column header or filter
title is the English name Django makes from a field's name («Page start», «Review state»)."""

import re

import pytest
from django.contrib import admin
from django.contrib.admin.utils import label_for_field
from django.contrib.auth.models import User
from django.test import RequestFactory
from django.urls import reverse

from corpus.models import Chunk
from corpus.tests.accounts import logged_in

pytestmark = pytest.mark.django_db


def _ours() -> list[type]:
    """The project's own lists (Django's, axes' and rq's come translated or are not ours)."""
    return [m for m in admin.site._registry if m._meta.app_label in ("corpus", "chat")]


def _english_defaults() -> set[str]:
    """The labels Django derives from field names when nobody wrote one ("page start")."""
    return {
        field.name.replace("_", " ").lower() for model in _ours() for field in model._meta.fields
    } | {model._meta.model_name for model in _ours()}


def test_every_admin_list_has_vietnamese_column_headers_and_filter_titles() -> None:
    request = RequestFactory().get("/admin/")
    request.user = User.objects.create_superuser("qt_he_thong", password="x")
    english = _english_defaults()
    seen: list[str] = []
    for model in _ours():
        model_admin = admin.site._registry[model]
        headers = [
            str(label_for_field(name, model, model_admin))
            for name in model_admin.get_list_display(request)
            if name != "action_checkbox"
        ]
        changelist = model_admin.get_changelist_instance(request)
        titles = [str(spec.title) for spec in changelist.filter_specs]
        seen += [f"{model._meta.label}: «{t}»" for t in headers + titles]
    in_english = [label for label in seen if label.split("«")[1][:-1].lower() in english]
    assert in_english == [], "\n".join(in_english)
    assert len(seen) > 60
    # The plain chunk list, as the pharmacists read it.
    chunk_admin = admin.site._registry[Chunk]
    titles = [str(s.title) for s in chunk_admin.get_changelist_instance(request).filter_specs]
    assert titles == ["cách ly", "loại", "trạng thái duyệt", "mục", "thuốc"]

    # Each list still opens, its Vietnamese filters applied.
    client = logged_in(request.user)
    for model in _ours():
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        assert client.get(url).status_code == 200, url
    filtered = client.get(
        reverse("admin:corpus_chunk_changelist"), {"kind__exact": "table", "o": "5"}
    )
    assert filtered.status_code == 200 and "Loại" in filtered.content.decode()


def _labels(html: str) -> list[str]:
    """Form labels, read-only field labels and inline column headers of a change page."""
    found = re.findall(r"<label[^>]*>(.*?)</label>|<th[^>]*>(.*?)</th>", html, re.S)
    texts = [" ".join(re.sub(r"<[^>]+>", " ", a or b).split()).rstrip(":") for a, b in found]
    return [t for t in texts if t]


def test_every_change_page_labels_its_fields_in_vietnamese() -> None:
    from chat.conversation import ask_in_conversation
    from chat.models import Conversation, Feedback

    superuser = User.objects.create_superuser("qt_trang_sua", password="x")
    turn = ask_in_conversation(
        Conversation.objects.create(user=superuser), "Liều paracetamol cho người lớn?"
    )
    Feedback.objects.create(turn=turn, user=superuser, useful=True, comment="rõ")
    chunk = Chunk.objects.awaiting_review().first()
    chunk.keep_quarantined(by=superuser, note="chưa có bản in")
    client = logged_in(superuser)
    english = _english_defaults() | {"id"}
    in_english: list[str] = []
    opened = 0
    for model in _ours():
        row = model.objects.first()
        if row is None:
            continue
        meta = model._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[row.pk])
        response = client.get(url)
        assert response.status_code == 200, url
        opened += 1
        in_english += [
            f"{meta.label}: «{text}»"
            for text in _labels(response.content.decode())
            if text.lower() in english
        ]
    assert opened >= 10
    assert in_english == [], "\n".join(in_english)
