"""Case files answered by duocthu and by plain ranked retrieval alone, side by side per kind.

For each file (ward60.jsonl, the outside sets, a generated set written by `evaluate_safety
--write` or `evaluate_book --write`): per kind of case (its `kind` or `template`, else the
expected section) and overall — key fact delivered, key fact in view, median visible
characters and the unsafe proxy, for duocthu and for `answering.plain`; the last column is
duocthu's lead in view, and a kind where duocthu is behind is marked «behind».

    python manage.py compare ../shared/eval/ward60.jsonl bench/outside_ward2.jsonl
"""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from answering.management.cases import read_cases
from answering.plain import plain_answer
from answering.scoring import Tally, score, tallies
from answering.turn import answer_in_conversation

HEADER = (
    f"{'kind':<22}{'n':>4} | {'key':>6}{'view':>7}{'shown':>7}{'unsafe':>7} |"
    f" {'plain key':>9}{'view':>7}{'shown':>7} | {'lead':>6}"
)


def _line(name: str, ours: Tally, plain: Tally) -> str:
    lead = ours.rate("in_view") - plain.rate("in_view")
    return (
        f"{name:<22}{len(ours.scores):>4} | {ours.rate('key_fact'):>6.3f}"
        f"{ours.rate('in_view'):>7.3f}{ours.visible:>7}{ours.unsafe:>7} |"
        f" {plain.rate('key_fact'):>9.3f}{plain.rate('in_view'):>7.3f}{plain.visible:>7} |"
        f" {lead:>+6.3f}{'  behind' if lead < 0 else ''}"
    )


def _question(row: dict[str, Any]) -> tuple[str, list[str]]:
    return str(row["question"]), [str(q) for q in row.get("history") or []]


class Command(BaseCommand):
    help = "Score case files for duocthu and for plain ranked retrieval, per kind of case."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+")
        parser.add_argument("--results", help="write duocthu's result lines here (JSONL)")
        parser.add_argument(
            "--show", action="store_true", help="list the cases only plain retrieval has in view"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        written = []
        for name in options["files"]:
            rows = read_cases(Path(name))
            ours, plain = {}, {}
            for row in rows:
                question, history = _question(row)
                qid = str(row.get("id"))
                ours[qid] = {"id": qid, **answer_in_conversation([*history, question]).as_dict()}
                plain[qid] = plain_answer(question, history).as_dict()
                written.append(ours[qid])
            mine, theirs = tallies(rows, ours), tallies(rows, plain)
            keyed = len(mine["overall"].scores) if "overall" in mine else 0
            self.stdout.write(f"{name}: {len(rows)} cases, {keyed} with a key fact")
            self.stdout.write(HEADER)
            for kind in sorted(mine, key=lambda k: (k == "overall", k)):
                self.stdout.write(_line(kind, mine[kind], theirs[kind]))
            for row in rows:
                qid = str(row.get("id"))
                got, base = score(row, ours[qid]), score(row, plain[qid])
                if got and got.unsafe:
                    self.stdout.write(f"  UNSAFE {qid}: {'; '.join(got.unsafe)}")
                if options["show"] and got and base and base.in_view and not got.in_view:
                    self.stdout.write(f"  PLAIN ONLY {qid}: {row['question'][:90]}")
        if options["results"]:
            Path(options["results"]).write_text(
                "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in written),
                encoding="utf-8",
            )
