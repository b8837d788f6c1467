"""Parse the markdown conversion of the book into monographs, sections and chunks.

The parser is strict about what it cannot read (a file that does not start with a
monograph heading is an error naming the file and line) and lenient about what the
conversion is known to damage (see the corpus README): OCR-damaged headings are mapped
through `corpus.sections`, section headings printed as top-level headings stay inside
their monograph, and anything it cannot map is reported, never guessed.
"""

import re
from dataclasses import dataclass, field

from django.db.models.enums import TextChoices

from corpus.sections import section_key_for_heading
from corpus.text import drug_id_for, nfc

# A prose chunk is cut at paragraph boundaries once it passes this many characters;
# ~1,200 characters is ~300 tokens of Vietnamese, small enough that a dose band is not
# buried under unrelated paragraphs and large enough to keep a sub-heading's text whole.
MAX_PROSE_CHARS = 1200

_HEADING_RE = re.compile(r"^(#{1,6})\s+(.*\S)\s*$")
_MONOGRAPH_RE = re.compile(r"^#\s+\*\*(.+?)\*\*\s*$")
_FIELD_RE = re.compile(r"^\*\*([^*]+?)\*\*\s*:?\s*(.*)$")
_ITALIC_LINE_RE = re.compile(r"^\*([^*].*?)\*\s*:?\s*$")
_LEADING_LABEL_RE = re.compile(r"^\*([^*]{1,80}?)(:\*|\*\s*:)\s*")
_FORMULA_RE = re.compile(r"\$[^$\n]+\$|<su[bp]>", re.IGNORECASE)
_PRIVATE_USE_RE = re.compile("[\ue000-\uf8ff]")
HEADER_FIELDS = ("ten_chung_quoc_te", "ma_atc", "loai_thuoc", "dang_thuoc_va_ham_luong")


class CorpusFormatError(Exception):
    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path = path
        self.line = line


class ChunkKind(TextChoices):
    """What a chunk is; tables and formulas wait for a pharmacist's check of the print."""

    PROSE = "prose", "Văn bản"
    TABLE = "table", "Bảng"
    FORMULA = "formula", "Công thức"


@dataclass
class ParsedChunk:
    kind: ChunkKind
    label: str
    text: str
    line: int
    start: int  # character offset inside the monograph, for page estimates
    end: int
    requires_visual_check: bool = False


@dataclass
class ParsedSection:
    key: str
    heading: str
    line: int
    chunks: list[ParsedChunk] = field(default_factory=list)


@dataclass
class ParsedMonograph:
    heading: str
    drug_id: str
    path: str
    line: int
    text_length: int
    sections: list[ParsedSection] = field(default_factory=list)
    other_names: list[str] = field(default_factory=list)
    unmapped_headings: list[tuple[int, str]] = field(default_factory=list)

    def section(self, key: str) -> ParsedSection | None:
        return next((s for s in self.sections if s.key == key), None)

    def field_text(self, key: str) -> str:
        section = self.section(key)
        return " ".join(c.text for c in section.chunks) if section else ""


@dataclass
class _Block:
    kind: ChunkKind
    label: str
    text: str
    line: int
    start: int
    end: int


def _strip_markup(text: str) -> str:
    return text.replace("*", "").strip()


def split_monographs(text: str, path: str) -> list[tuple[int, str]]:
    """Split a whole-book markdown file at monograph headings: (first line number, text).

    A top-level heading that maps to a section key (`# **Quá liều và cách xử trí**`) is
    a misprinted section heading, not a new monograph.
    """
    lines = text.split("\n")
    starts: list[int] = []
    for index, line in enumerate(lines):
        match = _MONOGRAPH_RE.match(line)
        if match and section_key_for_heading(match.group(1))[0] is None:
            starts.append(index)
    if not starts:
        raise CorpusFormatError(path, 1, "no monograph heading (`# **NAME**`) found")
    pieces = []
    for n, begin in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        pieces.append((begin + 1, "\n".join(lines[begin:end])))
    return pieces


def parse_monograph(text: str, path: str, first_line: int = 1) -> ParsedMonograph:
    text = nfc(text)
    lines = text.split("\n")
    match = _MONOGRAPH_RE.match(lines[0]) if lines else None
    if not match:
        raise CorpusFormatError(
            path, first_line, f"expected a monograph heading `# **NAME**`, found {lines[0][:60]!r}"
        )
    heading = match.group(1).strip()
    monograph = ParsedMonograph(
        heading=heading,
        drug_id=drug_id_for(heading),
        path=path,
        line=first_line,
        text_length=len(text),
    )
    if not monograph.drug_id:
        raise CorpusFormatError(path, first_line, f"heading {heading!r} gives an empty drug id")

    current: ParsedSection | None = None
    blocks: dict[str, list[_Block]] = {}
    heading_label = ""  # from a ### sub-heading
    line_label = ""  # from a full-line italic label
    paragraph: list[str] = []
    paragraph_line = 0
    paragraph_start = 0
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    top_headings: dict[str, int] = {}  # section key -> line of the heading that titles it

    def open_section(key: str, printed: str, line_no: int) -> ParsedSection:
        nonlocal heading_label, line_label
        heading_label, line_label = "", ""
        existing = monograph.section(key)
        if existing is not None:
            return existing
        section = ParsedSection(key=key, heading=printed, line=line_no)
        monograph.sections.append(section)
        blocks[key] = []
        return section

    def label_path() -> str:
        return " › ".join(part for part in (heading_label, line_label) if part)

    def flush(end_index: int) -> None:
        nonlocal paragraph
        if not paragraph:
            return
        body = "\n".join(paragraph).strip()
        paragraph = []
        if not body:
            return
        if current is None:
            raise CorpusFormatError(
                path, first_line + paragraph_line, "text before the first section of the monograph"
            )
        kind = ChunkKind.TABLE if body.lstrip().startswith("|") else ChunkKind.PROSE
        if kind == ChunkKind.PROSE and (_FORMULA_RE.search(body) or _PRIVATE_USE_RE.search(body)):
            kind = ChunkKind.FORMULA
        label = label_path()
        leading = _LEADING_LABEL_RE.match(body)
        if leading and kind != ChunkKind.TABLE:
            label = " › ".join(p for p in (label, leading.group(1).strip()) if p)
        blocks[current.key].append(
            _Block(
                kind, label, body, first_line + paragraph_line, paragraph_start, offsets[end_index]
            )
        )

    index = 1
    while index < len(lines):
        raw = lines[index]
        stripped = raw.strip()
        is_table_line = stripped.startswith("|")
        in_table = bool(paragraph) and paragraph[-1].strip().startswith("|")
        if stripped == "" or (paragraph and is_table_line != in_table):
            flush(index)
            if stripped == "":
                index += 1
                continue
        heading_match = _HEADING_RE.match(stripped)
        field_match = _FIELD_RE.match(stripped) if not heading_match else None
        italic_match = (
            _ITALIC_LINE_RE.match(stripped) if not heading_match and not field_match else None
        )
        if heading_match:
            flush(index)
            title = heading_match.group(2)
            key, label = section_key_for_heading(title)
            bold = _FIELD_RE.match(title)
            if key in HEADER_FIELDS and bold and bold.group(2).strip():
                # `# **Dạng thuốc và hàm lượng** Viên nén không bao: 5 mg.`: text, not a label.
                current = open_section(key, _strip_markup(bold.group(1)), first_line + index)
                paragraph = [bold.group(2).strip()]
                paragraph_line = index
                paragraph_start = offsets[index]
            elif key is not None:
                if not label:
                    # A section heading printed twice would merge its text into the first.
                    first = top_headings.setdefault(key, first_line + index)
                    if first != first_line + index:
                        raise CorpusFormatError(
                            path,
                            first_line + index,
                            f"section heading {_strip_markup(title)!r} again (first at line "
                            f"{first}): fix the file, a duplicate would merge two sections",
                        )
                current = open_section(key, _strip_markup(title), first_line + index)
                heading_label = label
            elif current is None:
                monograph.unmapped_headings.append((first_line + index, title))
            else:
                if title.startswith("**") and len(heading_match.group(1)) <= 2:
                    # Looks like a section heading but maps to nothing: report it.
                    monograph.unmapped_headings.append((first_line + index, title))
                heading_label = _strip_markup(title).rstrip(":").strip()
                line_label = ""
            index += 1
            continue
        if field_match:
            name, rest = field_match.group(1), field_match.group(2)
            key, _ = section_key_for_heading(name.rstrip(":"))
            if key is not None and (key in HEADER_FIELDS or current is None or not rest.strip()):
                flush(index)
                current = open_section(key, _strip_markup(name).rstrip(":"), first_line + index)
                if rest.strip():
                    paragraph = [rest.strip()]
                    paragraph_line = index
                    paragraph_start = offsets[index]
                index += 1
                continue
            if current is None and name.strip().startswith("(") and not rest.strip():
                monograph.other_names.extend(
                    n.strip() for n in name.strip().strip("()").split(",") if n.strip()
                )
                index += 1
                continue
        if italic_match and not paragraph and _looks_like_label(italic_match.group(1)):
            title = italic_match.group(1)
            key, label = section_key_for_heading(title)
            if key is not None and (current is None or not label):
                # A misprinted section title as an italic line. With more words inside an
                # open section it is that section's label: "*Chống chỉ định phối hợp*" and
                # "*Thận trọng khi phối hợp:*" head lines of Tương tác thuốc.
                current = open_section(key, _strip_markup(title), first_line + index)
                heading_label = label
            else:
                line_label = _strip_markup(title).rstrip(":").strip()
            index += 1
            continue
        if not paragraph:
            paragraph_line = index
            paragraph_start = offsets[index]
        paragraph.append(raw.rstrip())
        index += 1
    flush(len(lines))

    for section in monograph.sections:
        section.chunks = _chunk(blocks[section.key])
    monograph.sections = [s for s in monograph.sections if s.chunks]
    return monograph


def _looks_like_label(text: str) -> bool:
    """A whole italic line is a label (`*Trẻ em:*`), not italic prose such as a trade-name list."""
    return len(text) <= 120 and ";" not in text and not text.rstrip().endswith(".")


def _is_heading(block: _Block) -> bool:
    """A short paragraph ending in a colon: the indication or route the next one is for."""
    text = block.text.strip()
    return (
        block.kind == ChunkKind.PROSE and len(text) <= 120 and bool(re.search(r":\*{0,2}$", text))
    )


def _chunk(blocks: list[_Block]) -> list[ParsedChunk]:
    """Group paragraphs into chunks: tables and formulas alone, prose up to the bound."""
    chunks: list[ParsedChunk] = []
    pending: list[_Block] = []

    def emit_pending() -> None:
        if pending:
            chunks.append(
                ParsedChunk(
                    kind=ChunkKind.PROSE,
                    label=pending[0].label,
                    text="\n\n".join(b.text for b in pending),
                    line=pending[0].line,
                    start=pending[0].start,
                    end=pending[-1].end,
                )
            )
            pending.clear()

    for block in blocks:
        if block.kind != ChunkKind.PROSE:
            emit_pending()
            chunks.append(
                ParsedChunk(
                    block.kind,
                    block.label,
                    block.text,
                    block.line,
                    block.start,
                    block.end,
                    requires_visual_check=True,
                )
            )
            continue
        size = sum(len(b.text) + 2 for b in pending)
        if pending and block.label != pending[0].label:
            emit_pending()
        elif pending and size + len(block.text) > MAX_PROSE_CHARS:
            # A heading ("Loạn năng thất trái không triệu chứng:") heads the paragraph after
            # it: cut before the heading, never between it and the dose it names.
            heading = [pending.pop()] if len(pending) > 1 and _is_heading(pending[-1]) else []
            emit_pending()
            pending.extend(heading)
        pending.append(block)
    emit_pending()
    return chunks
