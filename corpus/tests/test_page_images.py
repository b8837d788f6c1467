"""The review page shows the printed pages a chunk cites, rendered from the book's PDF (issue 22).

The PDF is made here: four A4 pages, page N with a black square at a height of its own, so an
image shows which page was rendered.
"""

import io
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from PIL import Image

from corpus.models import Chunk, Drug
from corpus.page_images import SCALE
from corpus.tests.accounts import logged_in

pytestmark = pytest.mark.django_db

PAGES = 4
SQUARE_MM = 20.0
A4 = (595.28, 841.89)  # points


def _square_top(page: int) -> float:
    return 20.0 + 40.0 * page  # mm from the top: page 1 at 60 mm … page 4 at 180 mm


def book_pdf(
    path: Path, pages: int = PAGES, first_printed: int = 1, texts: dict[int, str] | None = None
) -> Path:
    """A PDF of `pages` A4 pages, each naming its printed page, page N with its square; with
    `texts`, a printed page's text set below its name (the browser test's pages)."""
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(False)
    fonts = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if texts and fonts.exists():
        pdf.add_font("dv", "", str(fonts))
    for page in range(1, pages + 1):
        printed = first_printed + page - 1
        pdf.add_page()
        pdf.set_font("helvetica", size=14)
        pdf.cell(text=f"Trang in {printed} (PDF tao trong kiem thu)")
        pdf.rect(20, _square_top(page % PAGES or PAGES), SQUARE_MM, SQUARE_MM, style="F")
        if texts and fonts.exists() and texts.get(printed):
            pdf.set_font("dv", size=8)
            pdf.set_xy(50, 30)
            for line in texts[printed].split("\n"):
                if pdf.get_y() > 280:
                    break  # one page each: what does not fit is left out
                pdf.set_x(50)
                pdf.multi_cell(150, 4, line.replace("<br>", " "), new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


def _dark_at(png: bytes, page: int) -> bool:
    """Whether the image is black where page `page` has its square."""
    image = Image.open(io.BytesIO(png)).convert("L")
    px = SCALE * 72 / 25.4
    centre = (int((20 + SQUARE_MM / 2) * px), int((_square_top(page) + SQUARE_MM / 2) * px))
    return image.getpixel(centre) < 50


@pytest.fixture
def table(settings, tmp_path: Path) -> Chunk:  # type: ignore[no-untyped-def]
    """A quarantined table citing printed pages 2–3, its book's PDF configured."""
    settings.FORMULARY_PDF = str(book_pdf(tmp_path / "duoc-thu-2018.pdf"))
    settings.FORMULARY_PDF_PAGE_OFFSET = 0
    settings.PAGE_IMAGES_DIR = tmp_path / "page-images"
    chunk = Chunk.objects.awaiting_review().select_related("section__drug").first()
    Chunk.objects.filter(pk=chunk.pk).update(page_start=2, page_end=3)
    chunk.refresh_from_db()
    return chunk


def _image(client, chunk: Chunk, page: int):  # type: ignore[no-untyped-def]
    return client.get(reverse("admin:corpus_chunk_page_image", args=[chunk.pk, page]))


def test_the_review_page_shows_the_cited_printed_pages_rendered_from_the_pdf(
    table: Chunk,
    reviewer: User,
    settings,  # type: ignore[no-untyped-def]
) -> None:
    client = logged_in(reviewer)
    page = client.get(reverse("admin:corpus_chunk_review", args=[table.pk])).content.decode()
    for printed in (2, 3):
        assert reverse("admin:corpus_chunk_page_image", args=[table.pk, printed]) in page
        assert f"Trang in {printed}" in page
    assert reverse("admin:corpus_chunk_page_image", args=[table.pk, 1]) not in page
    assert "duoc-thu-2018.pdf" in page

    second = _image(client, table, 2)
    assert second.status_code == 200 and second["Content-Type"] == "image/png"
    png = b"".join(second.streaming_content)
    assert _dark_at(png, 2) and not _dark_at(png, 3)
    assert Image.open(io.BytesIO(png)).size == (round(A4[0] * SCALE), round(A4[1] * SCALE))
    third = b"".join(_image(client, table, 3).streaming_content)
    assert _dark_at(third, 3) and not _dark_at(third, 2)
    # Kept for the next reviewer: one file per page rendered.
    assert len(list(Path(settings.PAGE_IMAGES_DIR).glob("*/trang-*.png"))) == 2
    # A page the chunk does not cite is not served.
    outside = _image(client, table, 4)
    assert outside.status_code == 404 and "không thuộc" in outside.content.decode()


def test_a_pdf_whose_pages_are_not_the_printed_ones_is_read_with_the_offset(
    table: Chunk,
    reviewer: User,
    settings,  # type: ignore[no-untyped-def]
) -> None:
    settings.FORMULARY_PDF_PAGE_OFFSET = 1  # one page of front matter before printed page 1
    png = b"".join(_image(logged_in(reviewer), table, 2).streaming_content)
    assert _dark_at(png, 3) and not _dark_at(png, 2)
    settings.FORMULARY_PDF_PAGE_OFFSET = 2  # printed page 3 would be PDF page 5 of 4
    page = logged_in(reviewer).get(reverse("admin:corpus_chunk_review", args=[table.pk]))
    assert page.status_code == 200
    assert "Tệp PDF có 4 trang, không có trang in 3" in page.content.decode()


@pytest.mark.parametrize(
    "content, says",
    [
        (None, "Không tìm thấy tệp PDF của sách"),
        (b"%PDF-1.4 not really a pdf", "Không đọc được tệp PDF của sách"),
    ],
)
def test_a_missing_or_corrupt_pdf_is_a_vietnamese_message_not_an_error(
    table: Chunk,
    reviewer: User,
    settings,  # type: ignore[no-untyped-def]
    tmp_path: Path,
    content: bytes | None,
    says: str,
) -> None:
    broken = tmp_path / "hong.pdf"
    if content is not None:
        broken.write_bytes(content)
    settings.FORMULARY_PDF = str(broken)
    client = logged_in(reviewer)
    page = client.get(reverse("admin:corpus_chunk_review", args=[table.pk]))
    assert page.status_code == 200 and says in page.content.decode()
    assert 'id="print-pages"' not in page.content.decode()
    image = _image(client, table, 2)
    assert image.status_code == 404 and says in image.content.decode()


def test_a_chunk_read_from_markdown_says_it_has_no_printed_page_image(
    table: Chunk,
    reviewer: User,
    settings,  # type: ignore[no-untyped-def]
) -> None:
    settings.FORMULARY_PDF = ""
    source = table.section.drug.source_file
    assert source.endswith(".md")
    client = logged_in(reviewer)
    page = client.get(reverse("admin:corpus_chunk_review", args=[table.pk])).content.decode()
    assert f"Nguồn của đoạn này là tệp văn bản ({source}), không phải PDF" in page
    assert _image(client, table, 2).status_code == 404


def test_a_chunk_ingested_from_a_pdf_is_shown_from_that_pdf(
    table: Chunk,
    reviewer: User,
    settings,  # type: ignore[no-untyped-def]
) -> None:
    Drug.objects.filter(pk=table.section.drug.pk).update(source_file=settings.FORMULARY_PDF)
    settings.FORMULARY_PDF = ""
    png = b"".join(_image(logged_in(reviewer), table, 3).streaming_content)
    assert _dark_at(png, 3)


def test_only_staff_see_page_images(table: Chunk) -> None:
    nurse = User.objects.create_user("dd_khong_quyen")
    response = _image(logged_in(nurse), table, 2)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
