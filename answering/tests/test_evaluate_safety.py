"""`manage.py evaluate_safety`: safety questions generated from the book's own lines, checked."""

import json
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from answering.management.commands.evaluate_safety import TEMPLATES, generate

pytestmark = pytest.mark.django_db

_LINE = (
    r"^{name}: n (\d+), key fact in view [\d.]+ \((\d+)/(\d+)\), in view or held for the print "
    r"check with its page in view [\d.]+ \((\d+)/\d+; (\d+) held\), delivered [\d.]+, "
    r"absence claims where the book has the line (\d+), dropped drugs (\d+), failed (\d+) "
)


@pytest.mark.parametrize("template", TEMPLATES)
def test_each_template_prints_its_line_and_writes_its_questions(
    template: str, tmp_path: Path
) -> None:
    out = StringIO()
    written = tmp_path / "safety.jsonl"
    call_command(
        "evaluate_safety",
        "--template",
        template,
        "--limit",
        "3",
        "--write",
        str(written),
        stdout=out,
    )
    report = out.getvalue()
    line = re.search(_LINE.format(name=template), report, re.MULTILINE)
    assert line, report
    n, in_view, of, or_pointed, held, absent, dropped, failed = (int(g) for g in line.groups())
    assert n == of == 3 and 0 <= in_view <= n and absent <= n and dropped <= n and failed <= n
    # A held line counts only with its notice in view: never more than the held lines.
    assert in_view <= or_pointed <= in_view + held
    assert re.search(_LINE.format(name="overall"), report, re.MULTILINE)
    rows = [json.loads(r) for r in written.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 3 and {r["template"] for r in rows} == {template}
    # --limit spreads over monographs; each key fact is the opening of a line of the book.
    assert len({r["drug_id"] for r in rows}) == 3
    assert all(r["line"].startswith(r["key"]) and r["outcome"]["lead"] for r in rows)


def test_the_questions_ask_each_line_in_ward_shapes() -> None:
    probes = generate(drug_ids=["acarbose", "warfarin"])
    by_template = {t: [p for p in probes if p.template == t] for t in TEMPLATES}
    assert all(by_template.values())
    # "Quá mẫn với acarbose." is counted apart from the contraindications proper.
    assert any(
        p.line == "Quá mẫn với acarbose." for p in by_template["contraindication_hypersensitivity"]
    )
    contraindications = by_template["contraindication"]
    assert any(p.question.startswith("BN nam 66 tuổi, vào viện vì") for p in contraindications)
    assert any(p.question.isascii() for p in contraindications)  # half the lines unaccented
    # Each interaction pair is asked in both orders, and the other drug is a loaded monograph.
    pair = [p for p in by_template["interaction"] if p.line == by_template["interaction"][0].line]
    first, second = pair[0], pair[1]
    assert first.other and first.question.split()[0] != second.question.split()[0]
