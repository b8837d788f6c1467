import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from answering.management.cases import read_cases
from answering.results import DISCLAIMER
from answering.shapes.arbiter import choose
from answering.understanding import understand
from retrieval.retrieve import Retrieved


def result_line(qid: str, result: Retrieved) -> dict[str, Any]:
    frame = result.frame
    return {
        "id": qid,
        "frame": frame.summary(),
        "decision": result.decision,
        "reason": result.reason,
        "citations": [
            {
                "drug_id": e.drug_id,
                "section_key": e.section_key,
                "page_start": e.page_start,
                "page_end": e.page_end,
                "chunk_id": e.chunk_id,
            }
            for e in result.evidence
        ],
        "quick_replies": result.quick_replies,
        "disclaimer": DISCLAIMER,
    }


class Command(BaseCommand):
    help = "Run a question file through understanding and retrieval (no model) and score it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--json", action="store_true", help="print the scores as JSON")
        parser.add_argument("--results", help="write one result line per question here")

    def handle(self, *args: Any, **options: Any) -> None:
        rows = read_cases(Path(options["file"]))
        tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        per_section: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        failures = []
        results = []
        for row in rows:
            result = choose(understand(row["question"]), row["question"])
            got = result_line(row.get("id", ""), result)
            results.append(got)
            expect = row.get("expect", {})
            checks = {
                "drugs": ("drugs", lambda e, r: set(e) == set(r["frame"]["drugs"])),
                "attribute": ("attribute", lambda e, r: e == r["frame"]["attribute"]),
                "turn_type": ("turn_type", lambda e, r: e == r["frame"]["turn_type"]),
                "decision": (
                    "decision",
                    lambda e, r: (
                        e == r["decision"] or (e == "answer" and r["decision"] == "verify_pdf")
                    ),
                ),
            }
            for key, (name, check) in checks.items():
                if key not in expect:
                    continue
                ok = bool(check(expect[key], got))
                tally[name][0] += ok
                tally[name][1] += 1
                if key == "attribute":
                    per_section[expect[key]][0] += ok
                    per_section[expect[key]][1] += 1
                if not ok:
                    value = got["decision"] if key == "decision" else got["frame"].get(key)
                    failures.append(
                        f"{row.get('id')} {name}: expected {expect[key]!r}, got {value!r}"
                    )
        scores = {name: round(ok / total, 3) for name, (ok, total) in tally.items() if total}
        sections = {k: round(ok / total, 3) for k, (ok, total) in sorted(per_section.items())}
        if options["results"]:
            Path(options["results"]).write_text(
                "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in results), encoding="utf-8"
            )
        if options["json"]:
            self.stdout.write(
                json.dumps(
                    {
                        "questions": len(rows),
                        "accuracy": scores,
                        "per_section": sections,
                        "failures": failures,
                    },
                    ensure_ascii=False,
                    indent=2,
                )
            )
            return
        self.stdout.write(f"questions {len(rows)}")
        for name, value in scores.items():
            self.stdout.write(f"{name} accuracy {value} ({tally[name][0]}/{tally[name][1]})")
        for key, value in sections.items():
            self.stdout.write(
                f"  section {key}: {value} ({per_section[key][0]}/{per_section[key][1]})"
            )
        for failure in failures:
            self.stdout.write(f"FAIL {failure}")
