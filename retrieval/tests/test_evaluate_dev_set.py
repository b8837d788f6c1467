"""The evaluate command on the shared development set meets the issue's goals."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_evaluate_meets_the_goals_and_writes_result_lines(corpus_dir: Path, tmp_path: Path) -> None:
    dev = corpus_dir.parent.parent / "eval" / "dev.jsonl"
    out = StringIO()
    results = tmp_path / "results.jsonl"
    call_command("evaluate", str(dev), "--json", "--results", str(results), stdout=out)
    report = json.loads(out.getvalue())
    assert report["accuracy"]["attribute"] >= 0.97
    assert report["accuracy"]["drugs"] >= 0.95
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    ids = [json.loads(line)["id"] for line in dev.read_text().splitlines() if line.strip()]
    assert [line["id"] for line in lines] == ids
    first = lines[0]
    assert set(first) >= {"id", "frame", "decision", "reason", "citations", "disclaimer"}
    assert set(first["frame"]) >= {"turn_type", "drugs", "unknown_drugs", "attribute", "population"}
    assert all(
        {"drug_id", "section_key", "page_start", "page_end", "chunk_id"} <= set(c)
        for line in lines
        for c in line["citations"]
    )
