"""The printed pages a chunk cites, as images of the book's PDF, for the review queue (issue 22):
a pharmacist checks a garbled table against the page itself.

Pages are rendered on first request with pdfium and kept under PAGE_IMAGES_DIR, keyed by the
PDF's path, size and modification time (a replaced PDF is rendered afresh). A missing or
unreadable PDF, or a page it does not have, is a Vietnamese message, never an error page.
"""

import hashlib
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

from corpus.models import Chunk

# At most this many pages per chunk: a table spans one or two; the estimated pages of a chunk
# read from markdown are widened by one each side (corpus/sources.py), so three is common.
MAX_PAGES = 6
# 2× of the PDF's 72 dpi: an A4 page 1190 px wide, the book's 8-point table text legible.
SCALE = 2.0
# pdfium is not thread-safe; one render at a time per process.
_PDFIUM = threading.Lock()


class PageImageError(Exception):
    """Why a page cannot be shown, in words for the reviewer."""


@dataclass
class PrintedPages:
    """What the review page shows of a chunk's printed pages: the pages, or why none."""

    pages: list[int] = field(default_factory=list)
    message: str = ""
    source: str = ""
    more: int = 0


def book_pdf(chunk: Chunk) -> Path | None:
    """The PDF to show a chunk's pages from: the configured one, else the PDF its drug was
    ingested from; None when neither is a PDF."""
    if settings.FORMULARY_PDF:
        return Path(settings.FORMULARY_PDF)
    source = chunk.section.drug.source_file
    if source.lower().endswith(".pdf"):
        path = Path(source)
        return path if path.is_absolute() else Path(settings.BASE_DIR) / path
    return None


def _open(pdf: Path):  # type: ignore[no-untyped-def]
    import pypdfium2 as pdfium

    if not pdf.is_file():
        raise PageImageError(
            f"Không tìm thấy tệp PDF của sách ({pdf}): quản trị hệ thống cần kiểm tra"
            " biến môi trường FORMULARY_PDF."
        )
    try:
        return pdfium.PdfDocument(str(pdf))
    except (pdfium.PdfiumError, OSError) as exc:
        raise PageImageError(
            f"Không đọc được tệp PDF của sách ({pdf.name}): tệp hỏng hoặc không phải PDF ({exc})."
        ) from exc


def _index(printed: int, count: int) -> int:
    index = printed + settings.FORMULARY_PDF_PAGE_OFFSET - 1
    if not 0 <= index < count:
        raise PageImageError(
            f"Tệp PDF có {count} trang, không có trang in {printed}"
            f" (độ lệch trang FORMULARY_PDF_PAGE_OFFSET = {settings.FORMULARY_PDF_PAGE_OFFSET})."
        )
    return index


def printed_pages(chunk: Chunk) -> PrintedPages:
    """The pages a chunk cites that its PDF has, or a message saying why none is shown."""
    pdf = book_pdf(chunk)
    if pdf is None:
        return PrintedPages(
            message=(
                f"Nguồn của đoạn này là tệp văn bản ({chunk.section.drug.source_file or 'không rõ'}),"
                " không phải PDF của sách: không có ảnh trang in. Để xem trang in tại đây, quản trị"
                " hệ thống đặt FORMULARY_PDF là đường dẫn tới PDF của sách."
            )
        )
    if chunk.page_start is None or chunk.page_end is None:
        return PrintedPages(message="Đoạn này không có số trang in: không có ảnh để đối chiếu.")
    pages = list(range(chunk.page_start, chunk.page_end + 1))
    try:
        with _PDFIUM:
            document = _open(pdf)
            try:
                count = len(document)
            finally:
                document.close()
        for page in pages:
            _index(page, count)
    except PageImageError as exc:
        return PrintedPages(message=str(exc), source=pdf.name)
    return PrintedPages(pages=pages[:MAX_PAGES], source=pdf.name, more=len(pages) - MAX_PAGES)


def _cached(pdf: Path, printed: int) -> Path:
    stat = pdf.stat()
    key = f"{pdf.resolve()}|{stat.st_size}|{stat.st_mtime_ns}|{settings.FORMULARY_PDF_PAGE_OFFSET}"
    folder = Path(settings.PAGE_IMAGES_DIR) / hashlib.sha256(key.encode()).hexdigest()[:20]
    return folder / f"trang-{printed}-x{SCALE:g}.png"


def page_image(chunk: Chunk, printed: int) -> Path:
    """The PNG of one printed page the chunk cites, rendered now if not yet kept."""
    pdf = book_pdf(chunk)
    if pdf is None:
        raise PageImageError("Nguồn của đoạn này không phải PDF: không có ảnh trang in.")
    if chunk.page_start is None or chunk.page_end is None:
        raise PageImageError("Đoạn này không có số trang in.")
    if not chunk.page_start <= printed <= chunk.page_end:
        raise PageImageError(
            f"Trang in {printed} không thuộc các trang đoạn này trích ("
            f"{chunk.page_start}–{chunk.page_end})."
        )
    try:
        target = _cached(pdf, printed)
    except OSError as exc:
        raise PageImageError(f"Không tìm thấy tệp PDF của sách ({pdf}).") from exc
    if target.exists():
        return target
    import pypdfium2 as pdfium

    with _PDFIUM:
        document = _open(pdf)
        try:
            page = document[_index(printed, len(document))]
            image = page.render(scale=SCALE).to_pil()
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(f"{target.name}.{os.getpid()}.tmp")
            image.save(partial, format="PNG")
            os.replace(partial, target)  # another process never reads half a file
        except pdfium.PdfiumError as exc:
            raise PageImageError(
                f"Không vẽ được trang in {printed} từ tệp PDF ({pdf.name}): {exc}."
            ) from exc
        finally:
            document.close()
    return target
