"""The review queue of quarantined tables and formulas, as a pharmacist clears it (issue 22):
filtered by drug, section and kind, the chunks that block the most ward answers first, the
next item after each decision, the text rendered beside its editor."""

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.apps import apps
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from corpus.access import is_reviewer
from corpus.jobs import enqueue_stale_embeddings
from corpus.models import REVIEWER_GROUP, Chunk, ChunkReview
from corpus.page_images import PageImageError, page_image, printed_pages
from corpus.rendering import render_book_text

FILTERS = ("drug", "section", "kind")
# Largest text the live preview renders (a table chunk is a few kB; the editor sends more only
# by mistake).
PREVIEW_MAX_CHARS = 100_000


class ReviewForm(forms.Form):
    # A pharmacist's three decisions, spelled as the history records them.
    DECISIONS = [
        (d.value, d.label)
        for d in (
            ChunkReview.Decision.APPROVED,
            ChunkReview.Decision.EDITED,
            ChunkReview.Decision.KEPT,
        )
    ]
    decision = forms.ChoiceField(choices=DECISIONS, widget=forms.RadioSelect, label="Quyết định")
    text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 14, "cols": 80}),
        required=False,
        label="Văn bản (khi sửa)",
    )
    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2, "cols": 80}), required=False, label="Ghi chú"
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if (
            data.get("decision") == ChunkReview.Decision.EDITED
            and not (data.get("text") or "").strip()
        ):
            raise forms.ValidationError("Sửa và duyệt cần văn bản đã sửa.")
        if (
            data.get("decision") == ChunkReview.Decision.KEPT
            and not (data.get("note") or "").strip()
        ):
            raise forms.ValidationError("Giữ cách ly cần ghi chú lý do.")
        return data


def blocked_answers() -> dict[int, int]:
    """Per chunk id, how many recorded turns cited it while it was quarantined (each such turn
    showed "check the print" instead of the chunk's text)."""
    # The audit of turns lives in the chat app above this one; read by name, not imported.
    table = apps.get_model("chat", "Turn")._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT (c->>'chunk_id')::bigint, count(DISTINCT t.id)
            FROM {connection.ops.quote_name(table)} t,
                 jsonb_array_elements(t.citations) c
            WHERE jsonb_typeof(t.citations) = 'array' AND (c->>'quarantined')::boolean
            GROUP BY 1
            """  # noqa: S608 - the table name is the model's own, quoted
        )
        return {int(chunk_id): int(n) for chunk_id, n in cursor.fetchall()}


def _filters(request: HttpRequest) -> dict[str, str]:
    return {key: request.GET[key] for key in FILTERS if request.GET.get(key)}


def queue(filters: dict[str, str]) -> list[Chunk]:
    """The waiting chunks, the most blocking first, then the oldest."""
    chunks = Chunk.objects.awaiting_review().select_related("section__drug")
    if "drug" in filters:
        chunks = chunks.filter(section__drug__drug_id=filters["drug"])
    if "section" in filters:
        chunks = chunks.filter(section__section_key=filters["section"])
    if "kind" in filters:
        chunks = chunks.filter(kind=filters["kind"])
    blocked = blocked_answers()
    ordered = list(chunks.order_by("created_at", "id"))
    for chunk in ordered:
        chunk.blocked = blocked.get(chunk.pk, 0)  # type: ignore[attr-defined]
    return sorted(ordered, key=lambda c: -c.blocked)  # type: ignore[attr-defined]


def _choices() -> dict[str, list[tuple[str, str]]]:
    waiting = Chunk.objects.awaiting_review()
    drugs = (
        waiting.values_list("section__drug__drug_id", "section__drug__heading")
        .distinct()
        .order_by("section__drug__heading")
    )
    sections = (
        waiting.values_list("section__section_key", flat=True)
        .distinct()
        .order_by("section__section_key")
    )
    return {
        "drug": list(drugs),
        "section": [(s, s) for s in sections],
        "kind": [(Chunk.Kind.TABLE.value, "Bảng"), (Chunk.Kind.FORMULA.value, "Công thức")],
    }


def review_queue_view(model_admin: admin.ModelAdmin, request: HttpRequest) -> HttpResponse:
    if not model_admin.has_view_permission(request):
        raise PermissionDenied
    filters = _filters(request)
    chunks = queue(filters)
    context = {
        **model_admin.admin_site.each_context(request),
        "title": "Hàng chờ kiểm tra bản in",
        "chunks": chunks,
        "count": len(chunks),
        "blocking": len([c for c in chunks if getattr(c, "blocked", 0)]),
        "filters": filters,
        "choices": _choices(),
        "query": urlencode(filters),
        "is_reviewer": is_reviewer(request.user),
        "opts": model_admin.model._meta,
    }
    return TemplateResponse(request, "admin/corpus/chunk/review_queue.html", context)


def _next_after(chunk: Chunk, order: list[int]) -> int | None:
    """The item after this one in the queue as it stood when the decision was made."""
    if chunk.pk not in order:
        return order[0] if order else None
    later = order[order.index(chunk.pk) + 1 :]
    return later[0] if later else None


def rendered(text: str) -> str:
    return mark_safe(render_book_text(text))  # noqa: S308 - nh3's allow-list output


def review_view(model_admin: admin.ModelAdmin, request: HttpRequest, pk: int) -> HttpResponse:
    if not model_admin.has_view_permission(request):
        raise PermissionDenied
    chunk = get_object_or_404(Chunk.objects.select_related("section__drug"), pk=pk)
    reviewer = is_reviewer(request.user)
    filters = _filters(request)
    query = urlencode(filters)
    if request.method == "POST":
        user = request.user
        if not reviewer or not user.is_authenticated:
            raise PermissionDenied(f"Chỉ thành viên nhóm «{REVIEWER_GROUP}» được quyết định.")
        form = ReviewForm(request.POST)
        if form.is_valid():
            order = [c.pk for c in queue(filters)]
            decision = form.cleaned_data["decision"]
            note = form.cleaned_data["note"]
            if decision == ChunkReview.Decision.APPROVED:
                chunk.approve(by=user, note=note)
            elif decision == ChunkReview.Decision.EDITED:
                chunk.approve(by=user, note=note, text=form.cleaned_data["text"])
            else:
                chunk.keep_quarantined(by=user, note=note)
            # This chunk's new text, and any embedding lost while Redis was down.
            enqueue_stale_embeddings()
            label = dict(ReviewForm.DECISIONS)[decision]
            model_admin.message_user(
                request,
                format_html(
                    "Đã ghi «{}» cho {} · {} (trang in {}–{}).",
                    label,
                    chunk.section.drug.heading,
                    chunk.section.heading,
                    chunk.page_start,
                    chunk.page_end,
                ),
                messages.SUCCESS,
            )
            following = _next_after(chunk, order)
            target = (
                reverse("admin:corpus_chunk_review", args=[following])
                if following is not None
                else reverse("admin:corpus_chunk_review_queue")
            )
            return HttpResponseRedirect(f"{target}?{query}" if query else target)
    else:
        form = ReviewForm(initial={"text": chunk.text})
    neighbours = chunk.section.chunks.filter(
        part_index__in=[chunk.part_index - 1, chunk.part_index + 1]
    ).order_by("part_index")
    context = {
        **model_admin.admin_site.each_context(request),
        "title": f"Kiểm tra: {chunk.section.drug.heading} · {chunk.section.heading}",
        "chunk": chunk,
        "rendered": rendered(chunk.text),
        "source_rendered": rendered(chunk.source_text),
        "blocked": blocked_answers().get(chunk.pk, 0),
        "printed": printed_pages(chunk),
        "neighbours": neighbours,
        "history": chunk.reviews.select_related("user"),
        "form": form,
        "query": query,
        "is_reviewer": reviewer,
        "opts": model_admin.model._meta,
    }
    return TemplateResponse(request, "admin/corpus/chunk/review.html", context)


def preview_view(model_admin: admin.ModelAdmin, request: HttpRequest) -> HttpResponse:
    """The editor's text as the chat will show it (htmx, beside the textarea)."""
    if not model_admin.has_view_permission(request) or request.method != "POST":
        raise PermissionDenied
    text = request.POST.get("text", "")[:PREVIEW_MAX_CHARS]
    return HttpResponse(render_book_text(text))


def page_image_view(
    model_admin: admin.ModelAdmin, request: HttpRequest, pk: int, page: int
) -> HttpResponse | FileResponse:
    """One printed page the chunk cites, as a PNG of the book's PDF (staff only: behind the
    admin's login); a page that cannot be shown answers 404 with the reason."""
    if not model_admin.has_view_permission(request):
        raise PermissionDenied
    chunk = get_object_or_404(Chunk.objects.select_related("section__drug"), pk=pk)
    try:
        image = page_image(chunk, page)
    except PageImageError as exc:
        return HttpResponse(str(exc), status=404, content_type="text/plain; charset=utf-8")
    response = FileResponse(image.open("rb"), content_type="image/png")
    response["Cache-Control"] = "private, max-age=3600"
    return response
