from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join

from chat.models import Conversation, Feedback, Turn
from corpus.admin_labels import (
    BOOLEAN,
    CHOICES,
    CREATED_AT,
    DATE,
    UPDATED_AT,
    USER,
    VALUES,
    column,
    labelled,
    titled,
)

DECISION = column("decision", "kết quả")
USEFUL = column("useful", "hữu ích", boolean=True)


class DrugFilter(admin.SimpleListFilter):
    title = "thuốc"
    parameter_name = "drug"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        from corpus.models import Drug

        return list(Drug.objects.values_list("drug_id", "heading"))

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value():
            field = "drug_ids" if queryset.model is Turn else "turn__drug_ids"
            return queryset.filter(**{f"{field}__contains": [self.value()]})
        return queryset


def _citations_html(turn: Turn) -> str:
    return format_html_join(
        "",
        "<li>[{}] {} · {} · tr. {}–{} · chunk {} · <code>{}</code></li>",
        (
            (
                c["index"],
                c["drug_name"],
                c["section_title"],
                c["page_start"],
                c["page_end"],
                c["chunk_id"],
                str(c["content_hash"])[:12],
            )
            for c in turn.citations
        ),
    )


class FeedbackInline(admin.TabularInline):
    model = Feedback
    # Read-only columns are headed by the model's field names unless they are the admin's own.
    fields = ("found_useful", "said", "by", "at")
    found_useful, said, by, at = map(staticmethod, (USEFUL, column("comment"), USER, CREATED_AT))
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class _ReadOnly:
    """The audit trail is read-only in the admin for everyone, superusers included: nobody
    adds, changes or deletes a turn, its feedback or its conversation (a staff account
    reassigned a conversation to another user, who could then read it; issue 19)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Turn)
class TurnAdmin(_ReadOnly, admin.ModelAdmin):
    list_display = (
        CREATED_AT,
        "question_short",
        DECISION,
        column("reason"),
        column("mode"),
        "drugs",
        column("server_ms"),
    )
    list_filter = (
        ("decision", titled("kết quả", CHOICES)),
        ("reason", titled("lý do", VALUES)),
        ("mode", titled("cách trả lời", CHOICES)),
        DrugFilter,
        ("created_at", titled("lúc tạo", DATE)),
    )
    date_hierarchy = "created_at"
    search_fields = ("question", "answer_text")
    list_select_related = ("conversation__user",)
    inlines = [FeedbackInline]
    readonly_fields = (
        "conversation",
        "order",
        "question",
        "decision",
        "reason",
        "frame",
        "answer_text",
        "cited_sources",
        "quick_replies",
        "near_misses",
        "disclaimer",
        "provider",
        "mode",
        "drug_ids",
        "server_ms",
        "created_at",
    )
    exclude = ("blocks", "citations")
    form = labelled(Turn, decision="kết quả")

    @admin.display(description="câu hỏi")
    def question_short(self, obj: Turn) -> str:
        return obj.question[:100]

    @admin.display(description="thuốc")
    def drugs(self, obj: Turn) -> str:
        return ", ".join(obj.drug_ids)

    @admin.display(description="nguồn trích (chunk, hash lúc trả lời)")
    def cited_sources(self, obj: Turn) -> str:
        return format_html("<ol>{}</ol>", _citations_html(obj))


@admin.register(Feedback)
class FeedbackAdmin(_ReadOnly, admin.ModelAdmin):
    list_display = (
        CREATED_AT,
        USEFUL,
        column("comment"),
        "question",
        "answer",
        "sources",
        USER,
    )
    list_filter = (
        ("useful", titled("hữu ích", BOOLEAN)),
        DrugFilter,
        ("created_at", titled("lúc tạo", DATE)),
    )
    list_select_related = ("turn", "user")
    search_fields = ("comment", "turn__question")
    form = labelled(Feedback)

    @admin.display(description="câu hỏi")
    def question(self, obj: Feedback) -> str:
        return obj.turn.question[:200]

    @admin.display(description="câu trả lời")
    def answer(self, obj: Feedback) -> str:
        return f"[{obj.turn.get_decision_display()}] {obj.turn.answer_text[:300]}"

    @admin.display(description="nguồn")
    def sources(self, obj: Feedback) -> str:
        return format_html("<ol>{}</ol>", _citations_html(obj.turn))


@admin.register(Conversation)
class ConversationAdmin(_ReadOnly, admin.ModelAdmin):
    list_display = (column("title"), USER, CREATED_AT, UPDATED_AT)
    list_select_related = ("user",)
    search_fields = ("title",)
    form = labelled(Conversation)
