"""Where prose is cut into chunks: never between a heading ("Loạn năng thất trái không triệu
chứng:") and the paragraph it heads, which is the dose for what the heading names."""

import re

import pytest

from corpus.markdown import MAX_PROSE_CHARS, ChunkKind, parse_monograph
from duocthu.testdb import corpus_path

HEADING = re.compile(r"(?:^|\n\n)[^\n]{1,120}:\*{0,2}$")


def _dose_section(*paragraphs: str) -> str:
    body = "\n\n".join(paragraphs)
    return f"# **THUỐC THỬ**\n\n## **Chỉ định**\n\nTăng huyết áp.\n\n## **Liều lượng và cách dùng**\n\n{body}\n"


def _dose_chunks(text: str) -> list[str]:
    section = parse_monograph(text, "thu.md").section("lieu_luong_va_cach_dung")
    assert section is not None
    return [c.text for c in section.chunks]


def test_a_heading_at_the_bound_goes_with_the_paragraph_it_heads() -> None:
    filler = "Liều dùng phải điều chỉnh theo đáp ứng của người bệnh. " * 20  # 1 100 characters
    heading = "Loạn năng thất trái không triệu chứng:"
    dose = (
        "Người lớn: Liều ban đầu 2,5 mg 2 lần mỗi ngày. Sau đó, điều chỉnh nếu dung nạp được"
        " cho tới liều đích hàng ngày: 20 mg chia làm 2 lần."
    )
    # The heading fits under the bound, the dose after it does not.
    assert len(filler) + len(heading) < MAX_PROSE_CHARS < len(filler) + len(heading) + len(dose)
    chunks = _dose_chunks(
        _dose_section(
            filler.strip(),
            heading,
            dose,
        )
    )
    assert chunks[0] == filler.strip()
    assert chunks[1] == f"{heading}\n\n{dose}"


def test_a_section_of_headings_alone_is_still_cut_and_loses_no_text() -> None:
    headings = [f"Chỉ định số {n} của thuốc thử nghiệm dùng cho người bệnh:" for n in range(40)]
    chunks = _dose_chunks(_dose_section(*headings))
    assert len(chunks) > 1
    assert "\n\n".join(chunks) == "\n\n".join(headings)


@pytest.mark.parametrize(
    "path", sorted((corpus_path() / "monographs").glob("*.md")), ids=lambda p: p.stem
)
def test_no_chunk_of_the_book_ends_on_the_heading_of_the_next(path) -> None:  # type: ignore[no-untyped-def]
    monograph = parse_monograph(path.read_text(encoding="utf-8"), str(path))
    for section in monograph.sections:
        for chunk, following in zip(section.chunks, section.chunks[1:], strict=False):
            same_run = ChunkKind.PROSE == chunk.kind == following.kind
            if same_run and chunk.label == following.label:
                assert not HEADING.search(chunk.text), (section.key, chunk.text[-120:])
