"""Vietnamese words for the admin (issue 22): a field Django would label with its English name
(«Page start», «Review state») is shown under the pharmacists' word, in lists (column headers,
filter titles) and on change pages (form labels, read-only fields)."""

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin
from django.db import models

# One word per field name, whichever model has it; a model's own sense is passed to labelled().
LABELS = {
    "id": "mã số",
    "drug": "thuốc",
    "drug_id": "mã thuốc",
    "drug_ids": "mã thuốc",
    "name": "tên",
    "folded": "dạng so khớp (bỏ dấu)",
    "kind": "loại",
    "source_page": "trang in",
    "page": "trang in",
    "page_start": "từ trang in",
    "page_end": "đến trang in",
    "source": "nguồn",
    "source_file": "tệp nguồn",
    "source_sha256": "SHA-256 của nguồn",
    "ingredient": "hoạt chất",
    "ingredient_id": "mã hoạt chất",
    "section": "mục",
    "section_key": "mục (mã)",
    "order": "thứ tự",
    "part_index": "đoạn số",
    "text": "văn bản",
    "source_text": "văn bản sách (khi nạp)",
    "previous_source_text": "văn bản sách lần nạp trước",
    "requires_visual_check": "chờ đối chiếu bản in",
    "has_quarantined_content": "có phần chờ đối chiếu",
    "review_state": "trạng thái duyệt",
    "content_hash": "mã băm văn bản",
    "source_hash": "mã băm văn bản sách",
    "fts_folded": "chỉ mục tìm kiếm (bỏ dấu)",
    "fts_exact": "chỉ mục tìm kiếm (có dấu)",
    "embedding": "vectơ nhúng",
    "embedding_model": "mô hình nhúng",
    "embedded_hash": "mã băm lúc nhúng",
    "created_at": "lúc tạo",
    "updated_at": "sửa lúc",
    "started_at": "bắt đầu lúc",
    "seconds": "thời gian (giây)",
    "summary": "tóm tắt",
    "chunk": "đoạn",
    "user": "người dùng",
    "decision": "quyết định",
    "before": "trước",
    "after": "sau",
    "note": "ghi chú",
    "conversation": "cuộc hội thoại",
    "question": "câu hỏi",
    "reason": "lý do",
    "frame": "cách hiểu câu hỏi",
    "answer_text": "văn bản trả lời",
    "quick_replies": "gợi ý trả lời",
    "near_misses": "đã tra gần đúng",
    "disclaimer": "lưu ý",
    "provider": "nguồn trả lời",
    "mode": "cách trả lời",
    "server_ms": "thời gian máy chủ (ms)",
    "turn": "lượt hỏi",
    "useful": "hữu ích",
    "comment": "góp ý",
    "title": "tiêu đề",
}


def labels_for(model: type[models.Model], **own: str) -> dict[str, str]:
    """The Vietnamese labels of a model's fields that carry no Vietnamese name of their own."""
    return {
        f.name: own.get(f.name, LABELS[f.name])
        for f in model._meta.fields
        if f.name in own
        or (f.name in LABELS and f.verbose_name.lower() == f.name.replace("_", " "))
    }


def labelled(model: type[models.Model], **own: str) -> type[forms.ModelForm]:
    """The admin's form for a model with Vietnamese labels, read-only fields included."""
    meta = type(
        "Meta", (), {"model": model, "fields": "__all__", "labels": labels_for(model, **own)}
    )
    return type(f"{model.__name__}Form", (forms.ModelForm,), {"Meta": meta})


def column(field: str, header: str = "", *, boolean: bool = False) -> Callable[[Any], Any]:
    """A list column of one model field under its Vietnamese header, sortable by the field."""

    @admin.display(description=header or LABELS[field], ordering=field, boolean=boolean)
    def show(obj: Any) -> Any:
        display = getattr(obj, f"get_{field}_display", None)
        return display() if callable(display) else getattr(obj, field, None)

    show.__name__ = field
    return show


def titled(title: str, base: type[admin.FieldListFilter]) -> type[admin.FieldListFilter]:
    """A field's list filter under a Vietnamese title."""

    class Titled(base):  # type: ignore[valid-type,misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.title = title

    return Titled


CHOICES = admin.ChoicesFieldListFilter
VALUES = admin.AllValuesFieldListFilter
BOOLEAN = admin.BooleanFieldListFilter
RELATED = admin.RelatedOnlyFieldListFilter
DATE = admin.DateFieldListFilter

PAGE_START = column("page_start")
PAGE_END = column("page_end")
CREATED_AT = column("created_at")
UPDATED_AT = column("updated_at")
USER = column("user")
