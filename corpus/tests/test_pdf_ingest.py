"""Loading the book from a PDF: font cues become structure, chunks cite the PDF's pages.

The PDF is made here from two monographs of the shared corpus, laid out like the printed book
(large bold name, bold section headings, italic labels, ruled dose tables, page breaks).
"""

import re
from pathlib import Path

import pytest

from corpus.ingest import ingest_formulary
from corpus.markdown import CorpusFormatError
from corpus.models import Chunk, Drug
from corpus.tests.editions import ingest_edition

pytestmark = pytest.mark.django_db

FONTS = Path("/usr/share/fonts/truetype/dejavu")


def _plain(text: str) -> str:
    return re.sub(r"\*+([^*]+)\*+", r"\1", text)


def _book_pdf(corpus_dir: Path, out: Path, files: list[str], first_page: int) -> None:
    from fpdf import FPDF

    if not (FONTS / "DejaVuSans.ttf").exists():
        pytest.skip("DejaVu fonts are missing (apt-get install fonts-dejavu-core)")
    pdf = FPDF(format="A4")
    pdf.add_font("dv", "", str(FONTS / "DejaVuSans.ttf"))
    pdf.add_font("dv", "B", str(FONTS / "DejaVuSans-Bold.ttf"))
    pdf.add_font("dv", "I", str(FONTS / "DejaVuSans-Oblique.ttf"))
    pdf.set_auto_page_break(True, margin=15)
    for _ in range(first_page - 1):  # the book's front matter: blank pages
        pdf.add_page()
    for name in files:
        pdf.add_page()
        lines = (corpus_dir / "monographs" / name).read_text().split("\n")
        table: list[list[str]] = []
        for raw in lines + [""]:
            line = raw.strip()
            if line.startswith("|"):
                if not re.match(r"^\|[\s:|-]+\|$", line):
                    table.append(
                        [c.strip().replace("<br>", " ") for c in line.strip("|").split("|")]
                    )
                continue
            if table:
                pdf.set_font("dv", "", 9)
                with pdf.table() as grid:
                    for row in table:
                        cells = grid.row()
                        for cell in row:
                            cells.cell(cell)
                table = []
                pdf.ln(4)
            if not line:
                continue
            if line.startswith("# "):
                pdf.set_font("dv", "B", 16)
                pdf.multi_cell(0, 9, line[2:].strip("*"), new_x="LMARGIN", new_y="NEXT")
            elif line.startswith("#"):
                title = line.lstrip("#").strip().strip("*")
                if "Liều lượng" in title:
                    pdf.add_page()  # so that the dosage section starts on its own page
                pdf.set_font("dv", "B", 11)
                pdf.ln(3)
                pdf.multi_cell(0, 6, title, new_x="LMARGIN", new_y="NEXT")
            elif re.match(r"^\*[^*].*\*:?$", line) and len(line) < 100:
                pdf.set_font("dv", "I", 10)
                pdf.multi_cell(
                    0, 5, line.strip("*:").strip("*") + ":", new_x="LMARGIN", new_y="NEXT"
                )
            elif field := re.match(r"^\*\*([^*]+)\*\*\s*(.*)$", line):
                pdf.set_font("dv", "B", 10)
                pdf.write(5, field.group(1) + " ")
                pdf.set_font("dv", "", 10)
                pdf.multi_cell(0, 5, _plain(field.group(2)), new_x="LMARGIN", new_y="NEXT")
            else:
                pdf.set_font("dv", "", 10)
                pdf.multi_cell(0, 5, _plain(line), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
    pdf.output(str(out))


def test_a_pdf_of_the_book_loads_with_sections_tables_and_real_pages(
    corpus_dir: Path, tmp_path: Path
) -> None:
    book = tmp_path / "duoc-thu.pdf"
    _book_pdf(corpus_dir, book, ["cetirizin-hydroclorid.md", "omeprazol.md"], first_page=7)
    # Over the markdown copy already loaded: the PDF's table reads shorter than the markdown
    # one (1,015 characters against 1,368), which the shrink guard refuses unless forced.
    summary = ingest_edition(book, ids={"cetirizin_hydroclorid", "omeprazol"}, force=True)
    assert not summary.unmapped_headings
    cetirizin = Drug.objects.get(drug_id="cetirizin_hydroclorid")
    assert cetirizin.source_file == str(book) and cetirizin.page_start == 7
    keys = set(cetirizin.sections.values_list("section_key", flat=True))
    assert {"chi_dinh", "chong_chi_dinh", "lieu_luong_va_cach_dung", "tuong_tac_thuoc"} <= keys
    dose = Chunk.objects.filter(
        section__drug=cetirizin, section__section_key="lieu_luong_va_cach_dung"
    )
    table = dose.get(kind=Chunk.Kind.TABLE)
    assert (
        table.requires_visual_check
        and "Suy thận vừa" in table.text
        and "5 mg x 1 lần/ngày" in table.text
    )
    dosage_page = dose.order_by("part_index").first().page_start
    assert dosage_page > cetirizin.page_start  # the dosage section was laid on a new page
    assert all(c.page_start == c.page_end for c in dose)  # a page each, read from the PDF
    omeprazol = Drug.objects.get(drug_id="omeprazol")
    assert omeprazol.page_start > cetirizin.page_end - 1
    assert Chunk.objects.filter(
        section__drug=omeprazol, text__contains="trước khi ăn 1 giờ"
    ).exists()


def test_a_file_that_is_not_a_pdf_changes_nothing_and_says_so(tmp_path: Path) -> None:
    fake = tmp_path / "book.pdf"
    fake.write_text("không phải PDF")
    before = Chunk.objects.count()
    with pytest.raises(CorpusFormatError, match="not a readable PDF"):
        ingest_formulary(fake)
    assert Chunk.objects.count() == before
