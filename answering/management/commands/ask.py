import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from answering.turn import answer_in_conversation, answer_turn


class Command(BaseCommand):
    help = (
        "Ask duocthu one question (--json), or a JSONL batch of {id, question, history?} "
        "(--batch FILE); history is the earlier questions of the same conversation, in order."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("question", nargs="?", help="the question, in Vietnamese")
        parser.add_argument("--json", action="store_true", help="print the whole result as JSON")
        parser.add_argument("--batch", help="a JSONL file of objects with id and question")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["batch"]:
            self._batch(Path(options["batch"]))
            return
        if options["question"] is None:
            raise CommandError('Give a question: manage.py ask "Liều paracetamol cho người lớn?"')
        result = answer_turn(options["question"])
        if options["json"]:
            self.stdout.write(json.dumps(result.as_dict(), ensure_ascii=False))
            return
        self.stdout.write(f"[{result.decision}: {result.reason}]")
        self.stdout.write(result.answer_text)
        for c in result.citations:
            self.stdout.write(
                f"[{c.index}] {c.drug_name} · {c.section_title} · tr. {c.page_start}–{c.page_end}"
            )
        if result.quick_replies:
            self.stdout.write("Gợi ý: " + " | ".join(result.quick_replies))
        self.stdout.write(result.disclaimer)

    def _batch(self, path: Path) -> None:
        if not path.exists():
            raise CommandError(f"{path} does not exist")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                question = str(row["question"])
                history = [str(q) for q in row.get("history") or []]
            except (json.JSONDecodeError, KeyError, TypeError, AttributeError) as exc:
                raise CommandError(
                    f"{path}:{n}: expected an object with id, question and an optional "
                    f"history list ({exc})"
                ) from exc
            result = answer_in_conversation([*history, question])
            self.stdout.write(
                json.dumps({"id": row.get("id"), **result.as_dict()}, ensure_ascii=False)
            )
