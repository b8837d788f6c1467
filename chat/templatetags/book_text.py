import re

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

_ITALIC_RE = re.compile(r"\*([^*\n]+)\*")


@register.filter
def book_text(text: str) -> SafeString:
    """The book's markdown emphasis as <em>, everything else escaped; line breaks kept."""
    escaped = escape(text)
    with_emphasis = _ITALIC_RE.sub(r"<em>\1</em>", escaped)
    return mark_safe(with_emphasis.replace("\n\n", "<br><br>").replace("\n", "<br>"))  # noqa: S308
