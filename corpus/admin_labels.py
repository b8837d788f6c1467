"""Vietnamese column headers and filter titles for the admin's lists (issue 22): a field
Django would head with its English name («Page start») is shown under the pharmacists' word."""

from collections.abc import Callable
from typing import Any

from django.contrib import admin


def column(field: str, header: str, *, boolean: bool = False) -> Callable[[Any], Any]:
    """A list column of one model field under a Vietnamese header, sortable by the field."""

    @admin.display(description=header, ordering=field, boolean=boolean)
    def show(obj: Any) -> Any:
        value = obj
        for part in field.split("__"):
            value = getattr(value, part, None)
        display = getattr(obj, f"get_{field}_display", None)
        return display() if callable(display) else value

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

# The pharmacists' words for fields several models share.
PAGE_START = column("page_start", "từ trang in")
PAGE_END = column("page_end", "đến trang in")
CREATED_AT = column("created_at", "lúc tạo")
UPDATED_AT = column("updated_at", "sửa lúc")
USER = column("user", "người dùng")
