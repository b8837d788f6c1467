"""The book's markdown as HTML: tables as tables, `<br>` as line breaks, nothing else trusted.

markdown-it-py parses, nh3 keeps only an allow-list of tags. Markdown rules that would change
what a line says are off: a line starting with "> 60 kg" must not become a quotation without
its sign, "3. …" after "1. …" must not be renumbered, an indented line must not turn into code.
The chat's answer cards and the review queue's preview render through the same function.
"""

from collections.abc import Callable, Sequence
from functools import cache

import nh3
from markdown_it import MarkdownIt
from markdown_it.token import Token

# Rules that rewrite the text they match (a sign dropped, a number renumbered, a line lost
# into a heading or a rule); the book's text is shown as printed.
_REWRITING_RULES = [
    "blockquote",
    "code",
    "fence",
    "heading",
    "lheading",
    "hr",
    "list",
    "reference",
    "link",
    "image",
    "autolink",
]

_TAGS = {
    "p",
    "br",
    "em",
    "strong",
    "sub",
    "sup",
    "code",
    "div",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
}
_ATTRIBUTES = {
    "div": {"tabindex"},
    "th": {"scope"},
}
# Classes are allowed by name only (nh3 wants them here, not among the attributes).
_CLASSES = {"div": {"table-wrap"}, "tr": {"patient-row"}}

# A row predicate: (this row's cells, the header row's cells) → whether it holds the patient's
# value. The chat supplies it from the question's Clcr, weight and age.
RowMarker = Callable[[Sequence[str], Sequence[str]], bool]


@cache
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True, "breaks": True}).enable("table")
    md.disable(_REWRITING_RULES)
    return md


def _mark_rows(tokens: list[Token], mark: RowMarker) -> int:
    """Give the rows the marker accepts the class `patient-row`; how many it marked."""
    marked = 0
    header: list[str] = []
    row_open: Token | None = None
    cells: list[str] = []
    in_head = False
    for token in tokens:
        if token.type == "thead_open":
            in_head = True
        elif token.type == "thead_close":
            in_head = False
        elif token.type == "tr_open":
            row_open, cells = token, []
        elif token.type == "inline" and row_open is not None:
            cells.append(token.content)
        elif token.type == "tr_close" and row_open is not None:
            if in_head:
                header = cells
            elif mark(cells, header):
                row_open.attrSet("class", "patient-row")
                marked += 1
            row_open = None
    return marked


def render_book_text(text: str, mark: RowMarker | None = None) -> str:
    """Sanitized HTML of a chunk's text; rows `mark` accepts carry `class="patient-row"`."""
    md = _parser()
    tokens = md.parse(text or "")
    if mark is not None:
        _mark_rows(tokens, mark)
    html = md.renderer.render(tokens, md.options, {})
    # A wide table scrolls inside its card, and the scrolling box is reachable by keyboard.
    html = html.replace("<table>", '<div class="table-wrap" tabindex="0"><table>').replace(
        "</table>", "</table></div>"
    )
    return nh3.clean(
        html, tags=_TAGS, attributes=_ATTRIBUTES, allowed_classes=_CLASSES, link_rel=None
    )
