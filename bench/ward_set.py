"""Score a question set in the development-set format (with optional `history`) end to end.

Each line is answered as `ask --batch` answers it (earlier questions through the chat's
conversation logic) and checked against its `expect`: drugs, section (the frame's, or one the
answer cites), turn type, decision, population, unknown drugs, and `must_contain` in the text.
Prints accuracy per check and every miss, then issue 11's delivery of the `must_contain` key
fact (anywhere; before any collapsed block) and the visible length of answered turns, per
expected turn type and overall.

    .venv/bin/python bench/ward_set.py [bench/ward_questions.jsonl]
"""

import json
import os
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "duocthu.settings")
os.environ["ANSWER_PROVIDER"] = "disabled"

from duocthu.devdb import use_embedded_database  # noqa: E402

use_embedded_database()
import django  # noqa: E402

django.setup()

from answering.delivery import delivery  # noqa: E402
from answering.delivery import tally as tally_delivery  # noqa: E402
from answering.turn import answer_in_conversation  # noqa: E402


def check(expect: dict[str, object], result) -> dict[str, bool]:  # type: ignore[no-untyped-def]
    frame = result.frame
    cited = {c.section_key for c in result.citations} | {frame.attribute}
    checks = {
        "drugs": lambda e: set(e) == set(frame.drugs),
        "attribute": lambda e: e in cited,
        "turn_type": lambda e: e == frame.turn_type,
        "decision": lambda e: (
            e == result.decision or (e == "answer" and result.decision == "verify_pdf")
        ),
        "population": lambda e: e == frame.population,
        "unknown_drugs": lambda e: set(e) <= set(frame.unknown_drugs),
        "must_contain": lambda e: str(e) in result.answer_text,
    }
    return {key: bool(fn(expect[key])) for key, fn in checks.items() if key in expect}


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "bench" / "ward_questions.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    misses = []
    keyed: dict[str, list] = defaultdict(list)  # type: ignore[type-arg]
    sizes: dict[str, list] = defaultdict(list)  # type: ignore[type-arg]
    for row in rows:
        result = answer_in_conversation([*row.get("history", []), row["question"]])
        kind = str(row["expect"].get("turn_type") or result.frame.turn_type)
        if result.decision in ("answer", "verify_pdf"):
            for group in (kind, "overall"):
                sizes[group].append(delivery(result, ""))
        if row["expect"].get("must_contain"):
            for group in (kind, "overall"):
                keyed[group].append(delivery(result, str(row["expect"]["must_contain"])))
        for key, ok in check(row["expect"], result).items():
            tally[key][0] += ok
            tally[key][1] += 1
            if not ok:
                got = {
                    "drugs": list(result.frame.drugs),
                    "attribute": result.frame.attribute,
                    "turn_type": result.frame.turn_type,
                    "decision": str(result.decision),
                    "population": result.frame.population,
                }
                misses.append(f"{row['id']} {key}: expected {row['expect'][key]!r}; got {got}")
    print(f"{len(rows)} questions from {path.name}")
    for key, (ok, total) in tally.items():
        print(f"{key}: {ok / total:.3f} ({ok}/{total})")
    for group in sorted(sizes, key=lambda g: (g == "overall", g)):
        shown = tally_delivery(sizes[group])
        line = f"visible {group}: median {shown.median_visible}, p90 {shown.p90_visible} chars"
        if keyed.get(group):
            key = tally_delivery(keyed[group])
            line += (
                f"; key fact delivered {key.delivered}/{key.questions}, "
                f"before any collapsed part {key.before_collapsed}/{key.questions}"
            )
        print(line)
    for miss in misses:
        print(f"MISS {miss}")


if __name__ == "__main__":
    main()
