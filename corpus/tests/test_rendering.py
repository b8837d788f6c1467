"""The book's markdown as HTML (corpus.rendering): tables as tables, nothing rewritten,
nothing outside the allow-list."""

from corpus.rendering import render_book_text


def test_a_pipe_table_becomes_a_scrollable_table_with_its_line_breaks() -> None:
    html = render_book_text(
        "| Clcr<br>(ml/phút) | Liều |\n|---|---|\n| 40 | 620 mg<br>mỗi 24 giờ |"
    )
    assert html.startswith('<div class="table-wrap" tabindex="0"><table>')
    assert "<th>Clcr<br>(ml/phút)</th>" in html and "<td>620 mg<br>mỗi 24 giờ</td>" in html
    assert "|" not in html


def test_no_markdown_rule_changes_what_a_line_says() -> None:
    text = "> 60 kg: 1 g\n1. Người lớn\n3. Trẻ em\n    # 4 lần/ngày\n---"
    html = render_book_text(text)
    assert "&gt; 60 kg: 1 g" in html  # not a quotation without its sign
    assert "1. Người lớn" in html and "3. Trẻ em" in html  # not renumbered
    assert "# 4 lần/ngày" in html and "---" in html  # not a heading, not a rule
    assert "<blockquote" not in html and "<ol" not in html and "<h1" not in html


def test_emphasis_and_the_books_inline_tags_stay_everything_else_goes() -> None:
    html = render_book_text(
        "*Trẻ em*: H<sub>2</sub>O<sup>+</sup> <script>alert(1)</script>"
        ' <img src=x onerror=alert(1)> <a href="javascript:x">x</a> [1](http://x) <tr class="evil">'
    )
    assert "<em>Trẻ em</em>" in html and "<sub>2</sub>" in html and "<sup>+</sup>" in html
    for dropped in ("<script", "alert(1)</", "<img", "onerror", "<a ", "href", "evil"):
        assert dropped not in html


def test_odd_input_renders_without_error() -> None:
    for text in ("", "|", "| a |\n|", "<br" * 50, "*" * 1000, "\x00 | x |\n|---|\n| \ud7ff |"):
        assert isinstance(render_book_text(text), str)
