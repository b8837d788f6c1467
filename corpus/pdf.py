"""Read the book from a PDF: text lines with their font cues become the markdown the parser reads.

The printed book sets a monograph's name in large bold capitals, section headings in bold,
sub-headings and labels in italics, and dose tables as ruled tables. Those cues are turned
into `# **NAME**`, `## **Section**`, `*label*` and pipe tables, so that one parser (and its
OCR-tolerant heading map) serves both inputs. Each page's start offset is kept, so chunks
cite the PDF's own page numbers (the book's PDF page numbers are its printed page numbers).
"""

import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from corpus.markdown import CorpusFormatError
from corpus.sections import section_key_for_heading
from corpus.text import nfc

# A monograph heading is set clearly larger than body text (the book: ~1.5×); 1.25× leaves
# room for PDFs whose sizes were rounded, and stays above bold section headings (~1.1×).
HEADING_SIZE_RATIO = 1.25
# A vertical gap this many line heights wide ends a paragraph.
PARAGRAPH_GAP = 1.5


@dataclass
class _Line:
    top: float
    bottom: float
    text: str
    size: float
    words: list[dict[str, Any]]


def _is_bold(word: dict[str, Any]) -> bool:
    return "bold" in str(word.get("fontname", "")).lower()


def _is_italic(word: dict[str, Any]) -> bool:
    name = str(word.get("fontname", "")).lower()
    return "italic" in name or "oblique" in name


def _lines(words: list[dict[str, Any]]) -> list[_Line]:
    lines: list[_Line] = []
    for word in sorted(words, key=lambda w: (round(w["top"]), w["x0"])):
        if lines and abs(word["top"] - lines[-1].top) <= 2:
            lines[-1].words.append(word)
            lines[-1].bottom = max(lines[-1].bottom, word["bottom"])
            lines[-1].size = max(lines[-1].size, word["size"])
        else:
            lines.append(_Line(word["top"], word["bottom"], "", word["size"], [word]))
    for line in lines:
        line.words.sort(key=lambda w: w["x0"])
        line.text = " ".join(w["text"] for w in line.words)
    return lines


def _styled(line: _Line) -> str:
    """Leading bold words as **…**, leading italic words as *…*, the rest as they are."""
    for is_styled, marker in ((_is_bold, "**"), (_is_italic, "*")):
        n = 0
        while n < len(line.words) and is_styled(line.words[n]):
            n += 1
        if n:
            head = " ".join(w["text"] for w in line.words[:n])
            rest = " ".join(w["text"] for w in line.words[n:])
            return f"{marker}{head}{marker}" + (f" {rest}" if rest else "")
    return line.text


def _is_monograph_heading(line: _Line, body: float) -> bool:
    if line.size < body * HEADING_SIZE_RATIO or not all(_is_bold(w) for w in line.words):
        return False
    name = line.text.split("(")[0]
    return any(ch.isalpha() for ch in name) and name == name.upper()


def _table_markdown(rows: list[list[str | None]]) -> str:
    cells = [[(c or "").replace("\n", "<br>").strip() for c in row] for row in rows if row]
    if not cells:
        return ""
    lines = ["| " + " | ".join(cells[0]) + " |", "|" + "|".join("---" for _ in cells[0]) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in cells[1:]]
    return "\n".join(lines)


def pdf_to_markdown(path: Path) -> tuple[str, list[tuple[int, int]]]:
    """The markdown of a whole PDF and the (character offset, page number) where each page starts."""
    import pdfplumber
    from pdfminer.pdfparser import PDFSyntaxError
    from pdfplumber.utils.exceptions import PdfminerException

    try:
        pdf = pdfplumber.open(path)
    except (PdfminerException, PDFSyntaxError, OSError, ValueError) as exc:
        raise CorpusFormatError(str(path), 0, f"not a readable PDF ({exc})") from exc
    with pdf:
        pages = []
        for page in pdf.pages:
            found = page.find_tables()
            boxes = [t.bbox for t in found]
            words = [
                w
                for w in page.extract_words(
                    extra_attrs=["fontname", "size"], keep_blank_chars=False
                )
                if not any(
                    x0 <= w["x0"] <= x1 and top <= w["top"] <= bottom
                    for x0, top, x1, bottom in boxes
                )
            ]
            pages.append(
                (page.page_number, _lines(words), [(t.bbox[1], t.extract()) for t in found])
            )
    sizes = [line.size for _, lines, _ in pages for line in lines]
    if not sizes:
        raise CorpusFormatError(str(path), 0, "the PDF has no text layer (a scan needs OCR first)")
    body = statistics.median(sizes)
    out: list[str] = []
    marks: list[tuple[int, int]] = []
    for number, lines, tables in pages:
        marks.append((sum(len(part) for part in out), number))
        items: list[tuple[float, str]] = []
        previous: _Line | None = None
        for line in lines:
            gap = (line.top - previous.bottom) if previous else 0.0
            height = max(line.bottom - line.top, 1.0)
            if _is_monograph_heading(line, body):
                text = f"\n# **{line.text}**\n"
            elif all(_is_bold(w) for w in line.words) and section_key_for_heading(line.text)[0]:
                text = f"\n## **{line.text}**\n"
            elif all(_is_italic(w) for w in line.words) and len(line.text) <= 120:
                text = f"\n*{line.text}*\n"
            else:
                styled = _styled(line)
                starts_paragraph = (
                    previous is None
                    or gap > PARAGRAPH_GAP * height
                    or styled.startswith("*")
                    or items[-1][1].endswith("\n")
                )
                if not starts_paragraph:
                    # A wrapped line continues its paragraph: the wrap is layout, not text.
                    items[-1] = (items[-1][0], items[-1][1] + " " + styled)
                    previous = line
                    continue
                text = "\n" + styled
            items.append((line.top, text))
            previous = line
        items += [(top, "\n" + _table_markdown(rows) + "\n") for top, rows in tables]
        items.sort(key=lambda item: item[0])
        page_text = "\n".join(text for _, text in items)
        out.append(nfc(page_text) + "\n")
    return "".join(out), marks


def page_at(marks: list[tuple[int, int]], offset: int) -> int:
    """The page on which a character offset of the converted text lies."""
    page = marks[0][1]
    for start, number in marks:
        if start > offset:
            break
        page = number
    return page
