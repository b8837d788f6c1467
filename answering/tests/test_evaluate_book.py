"""`manage.py evaluate_book`: questions generated from the monographs' own text, scored."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from answering.management.commands.evaluate_book import generate, score

pytestmark = pytest.mark.django_db


def test_every_template_draws_its_questions_from_the_monographs_text() -> None:
    items = list(generate(["paracetamol", "warfarin", "captopril"]))
    templates = {i["template"] for i in items}
    assert templates >= {"situation", "dose", "combination"}
    assert any(i["question"].isascii() for i in items)  # folded phrasings too
    assert all(i["expect"]["drugs"] and i["expect"]["sections"] for i in items)
    combination = next(i for i in items if i["template"] == "combination")
    assert len(combination["expect"]["drugs"]) == 2


def test_the_command_reports_accuracy_per_template_and_writes_the_set(tmp_path: Path) -> None:
    out = StringIO()
    written = tmp_path / "book.jsonl"
    call_command("evaluate_book", "--drugs", "paracetamol", "warfarin", "--write", str(written), stdout=out)
    report = out.getvalue()
    assert "from 2 monographs" in report and "overall: drug" in report
    lines = [json.loads(line) for line in written.read_text(encoding="utf-8").splitlines()]
    scored = [score(item) for item in lines]
    # The drug is named in every generated question; what is measured is the section.
    assert all(drug_ok for drug_ok, _ in scored)
    assert sum(section_ok for _, section_ok in scored) / len(scored) >= 0.9
