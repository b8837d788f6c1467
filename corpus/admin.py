from functools import partial
from typing import Any

from django.contrib import admin
from django.contrib.postgres.search import SearchQuery
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest
from django.urls import URLPattern, path

from corpus.admin_labels import (
    CHOICES,
    CREATED_AT,
    PAGE_END,
    PAGE_START,
    RELATED,
    USER,
    VALUES,
    column,
    labelled,
    titled,
)
from corpus.admin_names import AliasInline, ReviewersEdit  # also registers the name tables
from corpus.admin_red_flags import RedFlagAdmin  # noqa: F401 - registers it
from corpus.admin_review import page_image_view, preview_view, review_queue_view, review_view
from corpus.models import (
    BookIndexEntry,
    Chunk,
    ChunkReview,
    Drug,
    IngestRun,
    Section,
)


class SectionInline(admin.TabularInline):
    model = Section
    # Read-only columns are headed by the model's field names unless they are the admin's own.
    fields = ("key", "heading", "first_page", "last_page", "chunk_count")
    key, first_page, last_page = map(staticmethod, (column("section_key"), PAGE_START, PAGE_END))
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
        column("drug_id"),
        "heading",
        "inn",
        PAGE_START,
        PAGE_END,
        "n_sections",
        "n_aliases",
        "n_quarantined",
    )
    search_fields = ("drug_id", "heading", "inn", "aliases__folded")
    form = labelled(Drug)
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
    list_display = (
        column("name"),
        column("ingredient"),
        column("ingredient_id"),
        column("page"),
        column("source"),
    )
    list_filter = (("source", titled("nguồn", CHOICES)),)
    search_fields = ("name", "folded", "ingredient")
    form = labelled(BookIndexEntry)


@admin.register(Section)
class SectionAdmin(_BookOnly, admin.ModelAdmin):
    list_display = (
        column("drug"),
        column("section_key"),
        "heading",
        PAGE_START,
        PAGE_END,
    )
    list_filter = (("section_key", titled("mục", CHOICES)),)
    list_select_related = ("drug",)
    search_fields = ("drug__drug_id", "heading")
    form = labelled(Section)
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


@admin.register(Chunk)
class ChunkAdmin(_BookOnly, admin.ModelAdmin):
    list_display = (
        "__str__",
        column("kind"),
        "label",
        "short_text",
        PAGE_START,
        PAGE_END,
        column("review_state"),
        column("requires_visual_check", "chờ đối chiếu bản in", boolean=True),
    )
    list_filter = (
        QuarantineFilter,
        ("kind", titled("loại", CHOICES)),
        ("review_state", titled("trạng thái duyệt", CHOICES)),
        ("section__section_key", titled("mục", CHOICES)),
        ("section__drug", titled("thuốc", RELATED)),
    )
    list_select_related = ("section__drug",)
    search_fields = ("text", "section__drug__drug_id")
    readonly_fields = [f.name for f in Chunk._meta.fields if f.name not in ("text",)]
    change_list_template = "admin/corpus/chunk/change_list.html"
    form = labelled(Chunk)

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
        # The review queue's views live in corpus/admin_review.py.
        own = [
            path(
                "review/",
                self.admin_site.admin_view(partial(review_queue_view, self)),
                name="corpus_chunk_review_queue",
            ),
            path(
                "review/preview/",
                self.admin_site.admin_view(partial(preview_view, self)),
                name="corpus_chunk_review_preview",
            ),
            path(
                "<int:pk>/review/",
                self.admin_site.admin_view(partial(review_view, self)),
                name="corpus_chunk_review",
            ),
            path(
                "<int:pk>/review/page/<int:page>.png",
                self.admin_site.admin_view(partial(page_image_view, self)),
                name="corpus_chunk_page_image",
            ),
        ]
        return own + super().get_urls()


@admin.register(ChunkReview)
class ChunkReviewAdmin(admin.ModelAdmin):
    list_display = (
        CREATED_AT,
        column("decision"),
        column("drug_id"),
        column("section_key"),
        column("part_index"),
        USER,
        column("note"),
    )
    list_filter = (
        ("decision", titled("quyết định", CHOICES)),
        ("section_key", titled("mục", VALUES)),
    )
    search_fields = ("drug_id", "note", "before", "after")
    form = labelled(ChunkReview)
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

    form = labelled(IngestRun)

    list_display = (
        column("started_at"),
        column("source"),
        column("seconds"),
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
