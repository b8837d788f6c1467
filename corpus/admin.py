from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.postgres.search import SearchQuery
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse

from corpus.access import is_reviewer
from corpus.admin_names import AliasInline, ReviewersEdit  # also registers the name tables
from corpus.admin_red_flags import RedFlagAdmin  # noqa: F401 - registers it
from corpus.jobs import enqueue_stale_embeddings
from corpus.models import (
    REVIEWER_GROUP,
    BookIndexEntry,
    Chunk,
    ChunkReview,
    Drug,
    IngestRun,
    Section,
)
from corpus.tables import table_rows


class SectionInline(admin.TabularInline):
    model = Section
    fields = ("section_key", "heading", "page_start", "page_end", "chunk_count")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def get_queryset(self, request: HttpRequest) -> QuerySet[Section]:
        return super().get_queryset(request).annotate(n_chunks=Count("chunks"))

    @admin.display(description="số đoạn")
    def chunk_count(self, obj: Section) -> int:
        return obj.n_chunks  # type: ignore[attr-defined]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class _BookOnly:
    """Rows that only an ingest writes or removes: nobody adds or deletes them from the admin
    (a queued chunk deleted there left no history row)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Drug)
class DrugAdmin(_BookOnly, ReviewersEdit, admin.ModelAdmin):
    list_display = (
        "drug_id",
        "heading",
        "inn",
        "page_start",
        "page_end",
        "n_sections",
        "n_aliases",
        "n_quarantined",
    )
    search_fields = ("drug_id", "heading", "inn", "aliases__folded")
    readonly_fields = ("drug_id", "heading", "source_file", "source_sha256", "retired_at")
    inlines = [SectionInline, AliasInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Drug]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                n_sections=Count("sections", distinct=True),
                n_aliases=Count("aliases", distinct=True),
                n_quarantined=Count(
                    "sections__chunks",
                    filter=Q(sections__chunks__requires_visual_check=True),
                    distinct=True,
                ),
            )
        )

    @admin.display(description="mục", ordering="n_sections")
    def n_sections(self, obj: Drug) -> int:
        return obj.n_sections  # type: ignore[attr-defined]

    @admin.display(description="tên gọi", ordering="n_aliases")
    def n_aliases(self, obj: Drug) -> int:
        return obj.n_aliases  # type: ignore[attr-defined]

    @admin.display(description="chờ kiểm tra", ordering="n_quarantined")
    def n_quarantined(self, obj: Drug) -> int:
        return obj.n_quarantined  # type: ignore[attr-defined]

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        """Aliases typed by a pharmacist get their folded form for matching."""
        from corpus.text import folded_phrase

        for alias in formset.save(commit=False):
            alias.folded = folded_phrase(alias.name)
            alias.save()
        for removed in formset.deleted_objects:
            removed.delete()
        formset.save_m2m()  # each alias saved moved the catalog stamp: every worker re-reads

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[Drug], search_term: str):  # type: ignore[no-untyped-def]
        from corpus.text import folded_phrase

        return super().get_search_results(
            request, queryset, folded_phrase(search_term) or search_term
        )


@admin.register(BookIndexEntry)
class BookIndexEntryAdmin(_BookOnly, ReviewersEdit, admin.ModelAdmin):
    list_display = ("name", "ingredient", "ingredient_id", "page", "source")
    list_filter = ("source",)
    search_fields = ("name", "folded", "ingredient")


@admin.register(Section)
class SectionAdmin(_BookOnly, admin.ModelAdmin):
    list_display = ("drug", "section_key", "heading", "page_start", "page_end")
    list_filter = ("section_key",)
    list_select_related = ("drug",)
    search_fields = ("drug__drug_id", "heading")
    readonly_fields = ("drug", "section_key", "heading", "order", "page_start", "page_end")


class QuarantineFilter(admin.SimpleListFilter):
    title = "cách ly"
    parameter_name = "quarantine"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("waiting", "Chờ kiểm tra bản in"), ("clear", "Không cần / đã duyệt")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Chunk]) -> QuerySet[Chunk]:
        if self.value() == "waiting":
            return queryset.filter(requires_visual_check=True)
        if self.value() == "clear":
            return queryset.filter(requires_visual_check=False)
        return queryset


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
        widget=forms.Textarea(attrs={"rows": 12, "cols": 100}),
        required=False,
        label="Văn bản (khi sửa)",
    )
    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2, "cols": 100}), required=False, label="Ghi chú"
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


@admin.register(Chunk)
class ChunkAdmin(_BookOnly, admin.ModelAdmin):
    list_display = (
        "__str__",
        "kind",
        "label",
        "short_text",
        "page_start",
        "page_end",
        "review_state",
        "requires_visual_check",
    )
    list_filter = (
        QuarantineFilter,
        "kind",
        "review_state",
        "section__section_key",
        ("section__drug", admin.RelatedOnlyFieldListFilter),
    )
    list_select_related = ("section__drug",)
    search_fields = ("text", "section__drug__drug_id")
    readonly_fields = [f.name for f in Chunk._meta.fields if f.name not in ("text",)]
    change_list_template = "admin/corpus/chunk/change_list.html"

    def get_search_results(  # type: ignore[no-untyped-def]
        self, request: HttpRequest, queryset: QuerySet[Chunk], search_term: str
    ):
        """Phrase search through the folded full-text column: with or without diacritics."""
        if not search_term.strip():
            return queryset, False
        phrase = SearchQuery(search_term, search_type="phrase", config="vi_unaccent")
        return queryset.filter(Q(fts_folded=phrase) | Q(section__drug__drug_id=search_term)), False

    @admin.display(description="văn bản")
    def short_text(self, obj: Chunk) -> str:
        return obj.text[:120] + ("…" if len(obj.text) > 120 else "")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Every edit goes through the review queue so that it is recorded in the history.
        return False

    def get_urls(self) -> list[URLPattern]:
        own = [
            path(
                "review/",
                self.admin_site.admin_view(self.review_queue_view),
                name="corpus_chunk_review_queue",
            ),
            path(
                "<int:pk>/review/",
                self.admin_site.admin_view(self.review_view),
                name="corpus_chunk_review",
            ),
        ]
        return own + super().get_urls()

    def review_queue_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        chunks = (
            Chunk.objects.awaiting_review()
            .select_related("section__drug")
            .order_by("created_at", "id")
        )
        context = {
            **self.admin_site.each_context(request),
            "title": "Hàng chờ kiểm tra bản in",
            "chunks": chunks,
            "count": chunks.count(),
            "is_reviewer": is_reviewer(request.user),
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/corpus/chunk/review_queue.html", context)

    def review_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        chunk = get_object_or_404(Chunk.objects.select_related("section__drug"), pk=pk)
        reviewer = is_reviewer(request.user)
        if request.method == "POST":
            user = request.user
            if not reviewer or not user.is_authenticated:
                raise PermissionDenied(f"Chỉ thành viên nhóm «{REVIEWER_GROUP}» được quyết định.")
            form = ReviewForm(request.POST)
            if form.is_valid():
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
                self.message_user(request, f"Đã ghi quyết định cho {chunk}.", messages.SUCCESS)
                return HttpResponseRedirect(reverse("admin:corpus_chunk_review_queue"))
        else:
            form = ReviewForm(initial={"text": chunk.text})
        neighbours = chunk.section.chunks.filter(
            part_index__in=[chunk.part_index - 1, chunk.part_index + 1]
        ).order_by("part_index")
        context = {
            **self.admin_site.each_context(request),
            "title": f"Kiểm tra: {chunk.section.drug.heading} · {chunk.section.heading}",
            "chunk": chunk,
            "rows": table_rows(chunk.text) if chunk.kind == Chunk.Kind.TABLE else None,
            "source_rows": table_rows(chunk.source_text)
            if chunk.kind == Chunk.Kind.TABLE
            else None,
            "neighbours": neighbours,
            "history": chunk.reviews.select_related("user"),
            "form": form,
            "is_reviewer": reviewer,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/corpus/chunk/review.html", context)


@admin.register(ChunkReview)
class ChunkReviewAdmin(admin.ModelAdmin):
    list_display = (
        "created_at",
        "decision",
        "drug_id",
        "section_key",
        "part_index",
        "user",
        "note",
    )
    list_filter = ("decision", "section_key")
    search_fields = ("drug_id", "note", "before", "after")
    list_select_related = ("user",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(IngestRun)
class IngestRunAdmin(admin.ModelAdmin):
    """The record of each ingest: read-only for everyone, superusers included."""

    list_display = ("started_at", "source", "seconds")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
