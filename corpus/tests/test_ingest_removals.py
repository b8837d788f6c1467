"""Ingest never removes a drug, a section or text silently (issue 19.1): the red team's cases
on a small copy of the book, each refused with file and line unless the run says so."""

import csv
import io
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from conftest import SMALL_BOOK
from corpus.ingest import ingest_formulary
from corpus.integrity import SHRINK_LIMIT
from corpus.markdown import CorpusFormatError
from corpus.models import Alias, Chunk, Drug, IngestRun
from corpus.tests.editions import ingest_edition, new_edition

pytestmark = pytest.mark.django_db

WARFARIN = "warfarin.md"


def _warfarin_chunks() -> list[tuple[int, str]]:
    return list(
        Chunk.objects.filter(section__drug__drug_id="warfarin")
        .order_by("id")
        .values_list("id", "text")
    )


def _without_warfarin(small_corpus: Callable[..., Path]) -> Path:
    return small_corpus(tuple(f for f in SMALL_BOOK if f != WARFARIN))


def _drop_warfarin(copy: Path) -> tuple[str, str]:
    """Remove warfarin's file and its manifest row, as the red team did; return both."""
    manifest = copy / "manifest.csv"
    lines = manifest.read_text(encoding="utf-8").splitlines(keepends=True)
    row = next(line for line in lines if line.startswith(f"monographs/{WARFARIN},"))
    manifest.write_text("".join(line for line in lines if line != row), encoding="utf-8")
    file = copy / "monographs" / WARFARIN
    text = file.read_text(encoding="utf-8")
    file.unlink()
    return text, row


def _restore_warfarin(copy: Path, text: str, row: str) -> None:
    (copy / "monographs" / WARFARIN).write_text(text, encoding="utf-8")
    with (copy / "manifest.csv").open("a", encoding="utf-8") as manifest:
        manifest.write(row)


def test_a_drug_missing_from_the_source_is_refused_by_name(
    small_corpus: Callable[..., Path],
) -> None:
    copy = _without_warfarin(small_corpus)  # its file and its manifest row both gone
    before = _warfarin_chunks()
    others = set(Drug.objects.values_list("drug_id", flat=True)) - {
        "abacavir",
        "cetirizin_hydroclorid",
        "omeprazol",
        "xanh_methylen",
        "warfarin",
    }
    with pytest.raises(CorpusFormatError) as error:
        ingest_formulary(copy, retire=others)  # every other absent drug is retired, not it
    message = str(error.value)
    assert message.startswith(f"{copy}:0:")
    assert "warfarin (" in message and "--retire warfarin" in message
    assert len(before) == 44 and _warfarin_chunks() == before
    assert Drug.objects.get(drug_id="warfarin").retired_at is None


def test_a_retired_drug_keeps_its_rows_and_corrections_and_comes_back(
    small_corpus: Callable[..., Path], reviewer: User
) -> None:
    chunk = Chunk.objects.filter(section__drug__drug_id="warfarin").order_by("id").first()
    assert chunk is not None
    chunk.approve(by=reviewer, note="đối chiếu", text=chunk.text + " (đã đối chiếu)")
    before = _warfarin_chunks()
    names = set(Alias.objects.filter(drug__drug_id="warfarin").values_list("name", "kind"))
    copy = small_corpus()
    removed = _drop_warfarin(copy)

    summary = ingest_edition(copy)

    assert "warfarin" in summary.retired and "warfarin" in summary.drugs_not_in_source
    assert Drug.objects.get(drug_id="warfarin").retired_at is not None
    assert _warfarin_chunks() == before  # nothing deleted, the correction included
    assert set(Alias.objects.filter(drug__drug_id="warfarin").values_list("name", "kind")) == names
    assert IngestRun.objects.first().summary["retired"] == summary.retired

    _restore_warfarin(copy, *removed)
    back = ingest_edition(copy)
    assert Drug.objects.get(drug_id="warfarin").retired_at is None
    assert "warfarin" in back.changed_drugs and _warfarin_chunks() == before


def test_retiring_a_drug_the_source_still_has_is_refused(
    small_corpus: Callable[..., Path],
) -> None:
    with pytest.raises(CorpusFormatError, match=r"--retire warfarin: not a drug"):
        ingest_edition(small_corpus(), retire=["warfarin"])


def _manifest_rows(copy: Path) -> tuple[list[str], list[dict[str, str]]]:
    reader = csv.DictReader(io.StringIO((copy / "manifest.csv").read_text(encoding="utf-8")))
    return list(reader.fieldnames or []), list(reader)


def _write_manifest(copy: Path, fields: list[str], rows: list[dict[str, str]]) -> None:
    out = io.StringIO()
    writer = csv.DictWriter(out, fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    (copy / "manifest.csv").write_text(out.getvalue(), encoding="utf-8")


def test_a_folder_without_its_manifest_or_with_an_empty_one_is_refused(
    small_corpus: Callable[..., Path],
) -> None:
    copy = small_corpus()
    fields, _ = _manifest_rows(copy)
    _write_manifest(copy, fields, [])
    with pytest.raises(CorpusFormatError, match=r"manifest.csv:1: the manifest lists no"):
        ingest_edition(copy, ids=set())
    (copy / "manifest.csv").unlink()
    pages = list(Drug.objects.order_by("id").values_list("page_start", flat=True))
    with pytest.raises(CorpusFormatError, match=r"manifest.csv:0: no manifest.csv.*--force"):
        ingest_edition(copy)
    assert list(Drug.objects.order_by("id").values_list("page_start", flat=True)) == pages
    # Forced, it loads, without printed pages (and so without provenance).
    ingest_edition(copy, force=True)
    assert Drug.objects.get(drug_id="omeprazol").page_start is None


def test_a_blank_sha256_is_refused_with_its_line(small_corpus: Callable[..., Path]) -> None:
    copy = small_corpus()
    fields, rows = _manifest_rows(copy)
    line = next(n for n, r in enumerate(rows, 2) if r["file"].endswith("omeprazol.md"))
    rows[line - 2]["sha256"] = ""
    _write_manifest(copy, fields, rows)
    with pytest.raises(
        CorpusFormatError, match=rf"manifest.csv:{line}: monographs/omeprazol.md: blank sha256"
    ):
        ingest_edition(copy)


def test_a_file_cut_inside_its_last_section_is_refused_with_its_line(
    small_corpus: Callable[..., Path],
) -> None:
    copy = small_corpus()
    text = (copy / "monographs" / WARFARIN).read_text(encoding="utf-8")
    last = text.rindex("\n## ")
    cut = text[: last + (len(text) - last) // 2]  # half of the last section, every heading kept
    new_edition(copy, WARFARIN, cut)
    before = _warfarin_chunks()
    with pytest.raises(CorpusFormatError) as error:
        ingest_edition(copy)
    line = text.count("\n", 0, last) + 2
    message = str(error.value)
    assert message.startswith(f"{copy / 'monographs' / WARFARIN}:{line}: WARFARIN:")
    assert f"more than {SHRINK_LIMIT:.0%} lost" in message and "--force" in message
    assert _warfarin_chunks() == before
    assert "warfarin" in ingest_edition(copy, force=True).changed_drugs


def test_the_summary_says_which_drugs_were_kept_changed_and_retired(
    small_corpus: Callable[..., Path],
) -> None:
    copy = small_corpus()
    ingest_edition(copy)
    omeprazol = (copy / "monographs" / "omeprazol.md").read_text(encoding="utf-8")
    new_edition(copy, "omeprazol.md", omeprazol.replace("1 giờ", "2 giờ", 1))
    out = io.StringIO()
    call_command("ingest_formulary", str(copy), stdout=out)
    printed = out.getvalue()
    assert "drugs kept as they were: 4" in printed and "drugs changed: 1: omeprazol" in printed
    assert "drugs retired by this run: 0" in printed
    _drop_warfarin(copy)
    with pytest.raises(CommandError, match=r"Nothing was changed.*--retire warfarin"):
        call_command("ingest_formulary", str(copy))
