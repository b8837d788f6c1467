"""Re-ingesting: idempotent, transactional, and respectful of pharmacists' corrections."""

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from corpus.ingest import ingest_formulary
from corpus.markdown import CorpusFormatError
from corpus.models import Alias, Chunk, ChunkReview, Drug, Section
from corpus.tests.editions import ingest_edition, new_edition

pytestmark = pytest.mark.django_db

TABLE_FILE = "cetirizin-hydroclorid.md"
PRIVATE_USE = re.compile("[\ue000-\uf8ff]")


def _counts() -> tuple[int, int, int, int]:
    return (
        Drug.objects.count(),
        Section.objects.count(),
        Chunk.objects.count(),
        Alias.objects.count(),
    )


def _cetirizin_table() -> Chunk:
    return Chunk.objects.get(section__drug__drug_id="cetirizin_hydroclorid", kind=Chunk.Kind.TABLE)


def test_ingesting_the_same_source_twice_changes_nothing(corpus_dir: Path) -> None:
    before = list(Chunk.objects.order_by("id").values_list("id", "content_hash", "updated_at"))
    summary = ingest_formulary(corpus_dir)
    assert not summary.changed
    assert summary.created == summary.updated == summary.deleted == {} or not any(
        [*summary.created.values(), *summary.updated.values(), *summary.deleted.values()]
    )
    after = list(Chunk.objects.order_by("id").values_list("id", "content_hash", "updated_at"))
    assert before == after


def test_a_malformed_monograph_changes_nothing_and_names_file_and_line(
    small_corpus: Callable[[], Path],
) -> None:
    copy = small_corpus()
    # A good change earlier in the run, then a broken file: neither may land.
    first = copy / "monographs" / "abacavir.md"
    new_edition(copy, "abacavir.md", first.read_text().replace("Ziagen", "Ziagen-mới"))
    broken = copy / "monographs" / "warfarin.md"
    new_edition(copy, "warfarin.md", "Không phải tiêu đề chuyên luận\n\n" + broken.read_text())
    before = _counts()
    with pytest.raises(CorpusFormatError) as error:
        ingest_edition(copy)
    assert str(error.value).startswith(f"{broken}:1:")
    assert _counts() == before
    assert not Alias.objects.filter(name="Ziagen-mới").exists()


def test_a_malformed_manifest_row_names_its_line(small_corpus: Callable[[], Path]) -> None:
    copy = small_corpus()
    manifest = copy / "manifest.csv"
    lines = manifest.read_text().splitlines()
    assert lines[3].startswith("monographs/omeprazol.md,")
    fields = lines[3].split(",")
    fields[5] = "một trăm"  # page_start
    lines[3] = ",".join(fields)
    manifest.write_text("\n".join(lines) + "\n")
    with pytest.raises(CorpusFormatError, match=r"manifest.csv:4: page 'một trăm'"):
        ingest_edition(copy)


def test_a_broken_brand_index_row_changes_nothing(small_corpus: Callable[[], Path]) -> None:
    copy = small_corpus()
    index = copy / "book-index" / "brand_index.csv"
    index.write_text(index.read_text() + "Brandx,Paracetamol,12,thừa cột\n")
    before = _counts()
    with pytest.raises(CorpusFormatError, match=r"brand_index.csv:\d+: wrong number of columns"):
        ingest_edition(copy)
    assert _counts() == before


def test_a_pharmacists_correction_survives_reingesting_an_unchanged_source(
    small_corpus: Callable[[], Path], reviewer: User
) -> None:
    table = _cetirizin_table()
    corrected = PRIVATE_USE.sub("≥", table.text)
    table.approve(by=reviewer, note="Ký tự ≥ bị lỗi khi chuyển đổi", text=corrected)
    ingest_edition(small_corpus())
    table.refresh_from_db()
    assert table.text == corrected
    assert table.review_state == Chunk.Review.APPROVED
    assert not table.requires_visual_check
    assert table.source_text != corrected  # the book's text is never lost
    history = ChunkReview.objects.get(chunk=table)
    assert history.decision == ChunkReview.Decision.EDITED
    assert history.before == table.source_text and history.after == corrected


def test_a_changed_book_text_sends_a_corrected_chunk_back_with_both_versions(
    small_corpus: Callable[[], Path], reviewer: User
) -> None:
    table = _cetirizin_table()
    corrected = PRIVATE_USE.sub("≥", table.text)
    table.approve(by=reviewer, note="sửa ≥", text=corrected)
    old_source = table.source_text
    copy = small_corpus()
    file = copy / "monographs" / TABLE_FILE
    new_edition(
        copy,
        TABLE_FILE,
        file.read_text().replace("5 mg cách 2 ngày 1 lần", "5 mg cách 3 ngày 1 lần"),
    )

    summary = ingest_edition(copy)

    table.refresh_from_db()
    assert summary.sent_back_to_review == 1
    assert table.text == corrected  # not silently overwritten
    assert "5 mg cách 3 ngày 1 lần" in table.source_text
    assert table.previous_source_text == old_source
    assert table.review_state == Chunk.Review.SOURCE_CHANGED
    assert table.requires_visual_check and table.has_quarantined_content
    event = ChunkReview.objects.filter(chunk=table).first()
    assert event.decision == ChunkReview.Decision.SOURCE_CHANGED
    assert event.before == old_source and "cách 3 ngày" in event.after


def test_an_unreviewed_chunk_simply_follows_the_book(small_corpus: Callable[[], Path]) -> None:
    copy = small_corpus()
    file = copy / "monographs" / "omeprazol.md"
    text = file.read_text()
    assert "trước khi ăn 1 giờ" in text
    new_edition(copy, "omeprazol.md", text.replace("trước khi ăn 1 giờ", "trước khi ăn 2 giờ"))
    ingest_edition(copy)
    assert Chunk.objects.filter(
        section__drug__drug_id="omeprazol", text__contains="trước khi ăn 2 giờ"
    ).exists()
    assert not Chunk.objects.filter(
        section__drug__drug_id="omeprazol", text__contains="trước khi ăn 1 giờ"
    ).exists()


def test_one_big_markdown_file_loads_with_pages_from_the_book_index(
    small_corpus: Callable[..., Path],
) -> None:
    files = ("amilorid-hydroclorid.md", "amphotericin-b.md", "ampicilin.md")
    folder = small_corpus(files)
    book = folder / "book.md"
    book.write_text("".join((folder / "monographs" / name).read_text() for name in files))
    summary = ingest_edition(book)
    assert not summary.unmapped_headings
    ampicilin = Drug.objects.get(drug_id="ampicilin")
    assert ampicilin.source_file == str(book)
    assert ampicilin.page_start is not None
    assert Section.objects.filter(
        drug__drug_id="amphotericin_b", section_key="qua_lieu_va_xu_tri"
    ).exists()


def test_an_alias_a_pharmacist_added_survives_reingest_and_resolves(
    small_corpus: Callable[[], Path],
) -> None:
    from retrieval.catalog import get_resolver

    drug = Drug.objects.get(drug_id="xanh_methylen")
    Alias.objects.create(drug=drug, name="Methylene blue BV", folded="methylene blue bv")
    ingest_edition(small_corpus())
    assert Alias.objects.filter(
        drug=drug, name="Methylene blue BV", kind=Alias.Kind.CURATED
    ).exists()
    assert get_resolver().resolve("liều methylene blue bv cho người lớn") == ("xanh_methylen",)
