"""Ingest as a verified transaction (issue 12.1), each case on a small copy of the book: the
manifest's hashes, a cut-off file, reviewed chunks, duplicate headings, oversized input, a
byte-order mark and paths outside the corpus folder."""

from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from corpus.markdown import CorpusFormatError
from corpus.models import Alias, Chunk, ChunkReview, Drug, Section
from corpus.sources import MAX_CHUNK_CHARS, MAX_FILE_BYTES
from corpus.tests.editions import ingest_edition, new_edition

pytestmark = pytest.mark.django_db

CETIRIZIN = "cetirizin-hydroclorid.md"


def _state() -> tuple[object, ...]:
    return (
        Drug.objects.count(),
        Section.objects.count(),
        Chunk.objects.count(),
        Alias.objects.count(),
        ChunkReview.objects.count(),
        tuple(Chunk.objects.order_by("id").values_list("id", "content_hash")),
    )


def _cut_before(text: str, heading: str) -> str:
    return text[: text.index(heading)]


def test_a_file_changed_behind_the_manifest_is_refused_naming_it(
    small_corpus: Callable[[], Path],
) -> None:
    copy = small_corpus()
    file = copy / "monographs" / "omeprazol.md"
    file.write_text(
        file.read_text().replace("1 giờ", "2 giờ")
    )  # the manifest still has the old hash
    before = _state()
    with pytest.raises(
        CorpusFormatError, match=r"manifest.csv:\d+: monographs/omeprazol.md: sha256"
    ):
        ingest_edition(copy)
    assert _state() == before


def test_a_cut_off_file_is_refused_and_its_sections_kept(small_corpus: Callable[[], Path]) -> None:
    copy = small_corpus()
    text = (copy / "monographs" / CETIRIZIN).read_text()
    new_edition(copy, CETIRIZIN, _cut_before(text, "## **Tương tác thuốc**"))
    before = _state()
    with pytest.raises(CorpusFormatError) as error:
        ingest_edition(copy)
    message = str(error.value)
    assert message.startswith(f"{copy / 'monographs' / CETIRIZIN}:1:")
    assert "tuong_tac_thuoc" in message and "--force" in message
    assert _state() == before


def test_a_forced_cut_never_deletes_a_reviewed_chunk(
    small_corpus: Callable[[], Path], reviewer: User
) -> None:
    interaction = Chunk.objects.filter(
        section__drug__drug_id="cetirizin_hydroclorid", section__section_key="tuong_tac_thuoc"
    ).first()
    assert interaction is not None
    corrected = interaction.text + " (đã đối chiếu bản in)"
    interaction.approve(by=reviewer, note="đối chiếu", text=corrected)
    book_text = interaction.source_text
    copy = small_corpus()
    good = (copy / "monographs" / CETIRIZIN).read_text()
    new_edition(copy, CETIRIZIN, _cut_before(good, "## **Tương tác thuốc**"))

    summary = ingest_edition(copy, force=True)

    interaction.refresh_from_db()
    assert interaction.text == corrected  # the pharmacist's correction is still there
    assert interaction.review_state == Chunk.Review.SOURCE_CHANGED
    assert interaction.requires_visual_check and interaction.previous_source_text == book_text
    gone = ChunkReview.objects.filter(chunk=interaction).first()
    assert gone is not None and gone.decision == ChunkReview.Decision.SOURCE_CHANGED
    assert gone.before == book_text and gone.after == ""
    assert Section.objects.filter(pk=interaction.section_id).exists()  # its section too
    # Unreviewed chunks of the removed sections follow the book.
    assert not Chunk.objects.filter(
        section__drug__drug_id="cetirizin_hydroclorid",
        section__section_key="do_on_dinh_va_bao_quan",
    ).exists()
    assert summary.deleted["chunks"] > 0

    # The good file again: the book text comes back beside the correction, still in the queue.
    new_edition(copy, CETIRIZIN, good)
    ingest_edition(copy)
    interaction.refresh_from_db()
    assert interaction.text == corrected and interaction.source_text == book_text
    assert interaction.review_state == Chunk.Review.SOURCE_CHANGED


def test_a_section_heading_printed_twice_is_refused_with_its_line(
    small_corpus: Callable[[], Path],
) -> None:
    copy = small_corpus()
    text = (copy / "monographs" / "omeprazol.md").read_text()
    doubled = text + "\n## **Chống chỉ định**\n\nMột đoạn thêm vào cuối tệp.\n"
    new_edition(copy, "omeprazol.md", doubled)
    line = doubled.count("\n", 0, doubled.rindex("## **Chống chỉ định**")) + 1
    before = _state()
    with pytest.raises(CorpusFormatError, match=rf"omeprazol.md:{line}: section heading"):
        ingest_edition(copy)
    assert _state() == before


def test_oversized_input_is_refused_not_loaded_as_a_giant_chunk(
    small_corpus: Callable[[], Path],
) -> None:
    copy = small_corpus()
    text = (copy / "monographs" / "omeprazol.md").read_text()
    huge = text + "\n" + ("Đoạn rất dài không có dòng trống. " * (MAX_CHUNK_CHARS // 30)) + "\n"
    new_edition(copy, "omeprazol.md", huge)
    with pytest.raises(
        CorpusFormatError, match=r"omeprazol.md:\d+: a paragraph of [\d,]+ characters"
    ):
        ingest_edition(copy)
    new_edition(copy, "omeprazol.md", text + "\n" + "x" * (MAX_FILE_BYTES + 1))
    with pytest.raises(CorpusFormatError, match=r"omeprazol.md:0: file is [\d,]+ bytes"):
        ingest_edition(copy)


def test_a_byte_order_mark_is_accepted(small_corpus: Callable[[], Path]) -> None:
    copy = small_corpus()
    ingest_edition(copy)  # the small copy as it is, then the same with a byte-order mark
    text = (copy / "monographs" / "omeprazol.md").read_text()
    new_edition(copy, "omeprazol.md", "\ufeff" + text)
    before = _state()
    summary = ingest_edition(copy)
    assert not summary.changed and _state() == before  # the same book, the mark is no text


def test_a_manifest_path_outside_the_corpus_is_refused_without_echoing_it(
    small_corpus: Callable[[], Path], tmp_path: Path
) -> None:
    copy = small_corpus()
    secret = tmp_path / "secret.md"
    secret.write_text("# **BÍ MẬT** mật khẩu quản trị\n")
    manifest = copy / "manifest.csv"
    lines = manifest.read_text().splitlines()
    lines[1] = lines[1].replace("monographs/abacavir.md", "../secret.md", 1)
    manifest.write_text("\n".join(lines) + "\n")
    with pytest.raises(CorpusFormatError) as error:
        ingest_edition(copy)
    assert "outside the corpus folder" in str(error.value)
    assert "BÍ MẬT" not in str(error.value) and "mật khẩu" not in str(error.value)
