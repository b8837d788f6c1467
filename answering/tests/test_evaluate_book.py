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
    call_command(
        "evaluate_book", "--drugs", "paracetamol", "warfarin", "--write", str(written), stdout=out
    )
    report = out.getvalue()
    assert "from 2 monographs" in report and "overall: drug" in report
    lines = [json.loads(line) for line in written.read_text(encoding="utf-8").splitlines()]
    scored = [score(item) for item in lines]
    # The drug is named in every generated question; what is measured is the section, and
    # whether the book's key phrase is shown before anything collapsed (issue 11).
    assert all(drug_ok for drug_ok, _, _, _ in scored)
    assert sum(section_ok for _, section_ok, _, _ in scored) / len(scored) >= 0.9
    assert "key fact delivered" in report and "before any collapsed part" in report
    shown = [d for _, _, d, _ in scored]
    assert sum(d.before_collapsed for d in shown) / len(shown) >= 0.85
    assert all(d.delivered for d in shown if d.before_collapsed)


def test_the_key_fact_counts_only_ahead_of_the_first_collapsed_block() -> None:
    from answering.delivery import delivery
    from answering.turn import answer_turn

    result = answer_turn("aspirin dùng cho trẻ em được không?", provider=None)
    # The Reye's-syndrome caution (Thận trọng) is the answering line, in view.
    seen = delivery(result, "hội chứng Reye")
    assert seen.delivered and seen.before_collapsed and 0 < seen.visible_chars <= 1500
    for block in result.blocks:
        block.collapsed = True
    hidden = delivery(result, "hội chứng Reye")
    assert hidden.delivered and not hidden.before_collapsed and hidden.visible_chars == 0


def test_the_unsafe_proxy_flags_a_dose_paragraph_for_another_population() -> None:
    from dataclasses import replace

    from answering.management.commands.evaluate_book import _other_population_first
    from answering.turn import answer_turn

    adult = answer_turn("Liều paracetamol cho người lớn?", provider=None)
    assert not _other_population_first(adult)
    # The same card read as the answer to a child's question: its first paragraph is an adult's.
    as_child = replace(adult, frame=replace(adult.frame, population="tre_em"))
    assert _other_population_first(as_child)
