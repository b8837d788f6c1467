"""Model mode against a live OpenAI-compatible server, next to the no-model mode, on the
development questions: outcomes by reason and by mode (model / book / book_after_model_failed),
for each turn its model calls, prompt and completion tokens and which check withheld the written
answer, then the medians per turn (by call kind too), turns more or less helpful than no-model
mode, seconds per turn, and numbers shown outside their cited blocks (must be 0).

    .venv/bin/python bench/model_report.py --url http://127.0.0.1:8111/v1 --model small \
        [--questions 12] [--budget 90] [--understanding model|deterministic]

Bounded: --questions from ../shared/eval/dev.jsonl (the first N, no history), each turn
within --budget seconds. Traffic goes to --url only.
"""

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "duocthu.settings")

from duocthu.devdb import use_embedded_database  # noqa: E402

use_embedded_database()
import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from prometheus_client import REGISTRY  # noqa: E402

from answering.grounding import numeric_tokens  # noqa: E402
from answering.providers import OpenAICompatibleProvider  # noqa: E402
from answering.results import TurnResult  # noqa: E402
from answering.turn import answer_turn  # noqa: E402


def numbers_outside_their_blocks(result: TurnResult) -> int:
    texts = {c.index: c.text for c in result.citations}
    outside = 0
    for block in result.blocks:
        if block.kind == "notice":
            continue
        for text, cited in block.claims:
            if not cited:
                continue
            pool = numeric_tokens(" ".join(texts.get(i, "") for i in cited))
            outside += sum(n not in pool for n in numeric_tokens(text))
    return outside


def _counter(name: str) -> dict[tuple[tuple[str, str], ...], float]:
    values = {}
    for metric in REGISTRY.collect():
        for sample in metric.samples:
            if sample.name == name:
                values[tuple(sorted(sample.labels.items()))] = sample.value
    return values


def _delta(
    before: dict[tuple[tuple[str, str], ...], float],
    after: dict[tuple[tuple[str, str], ...], float],
) -> dict[str, float]:
    return {
        ",".join(f"{k}={v}" for k, v in key): after[key] - before.get(key, 0.0)
        for key in after
        if after[key] - before.get(key, 0.0)
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--model", default="small")
    parser.add_argument("--questions", type=int, default=12)
    parser.add_argument("--budget", type=int, default=90)
    parser.add_argument("--understanding", default="model", choices=("model", "deterministic"))
    args = parser.parse_args()
    settings.ANSWER_BUDGET_SECONDS = args.budget
    settings.UNDERSTANDING = args.understanding
    dev = Path(settings.DUOCTHU_CORPUS_DIR).parent.parent / "eval" / "dev.jsonl"
    rows = [json.loads(line) for line in dev.read_text().splitlines() if line]
    rows = [r for r in rows if not r.get("history")][: args.questions]
    provider = OpenAICompatibleProvider(args.url, args.model)
    modes: dict[str, Counter[str]] = {"no model": Counter(), "model": Counter()}
    shown_by: Counter[str] = Counter()
    outside = {"no model": 0, "model": 0}
    seconds: list[float] = []
    tokens_before = _counter("duocthu_model_tokens_total")
    calls_before = _counter("duocthu_model_calls_total")
    per_turn: list[tuple[float, float, float]] = []  # (calls, prompt, completion tokens)
    withheld: Counter[str] = Counter()
    helped = {"more": 0, "less": 0}
    for row in rows:
        plain = answer_turn(row["question"], provider=None)
        modes["no model"][f"{plain.decision}:{plain.reason}"] += 1
        outside["no model"] += numbers_outside_their_blocks(plain)
        turn_calls = _counter("duocthu_model_calls_total")
        turn_tokens = _counter("duocthu_model_tokens_total")
        started = time.perf_counter()
        result = answer_turn(row["question"], provider=provider)
        seconds.append(time.perf_counter() - started)
        calls_now = _delta(turn_calls, _counter("duocthu_model_calls_total"))
        tokens_now = _delta(turn_tokens, _counter("duocthu_model_tokens_total"))
        turn = (
            sum(calls_now.values()),
            sum(v for k, v in tokens_now.items() if "type=prompt" in k),
            sum(v for k, v in tokens_now.items() if "type=completion" in k),
        )
        per_turn.append(turn)
        modes["model"][f"{result.decision}:{result.reason}"] += 1
        shown_by[str(result.mode)] += 1
        if result.mode == "book_after_model_failed":
            withheld[result.withheld or result.reason] += 1
        answered = ("answer", "verify_pdf")
        if plain.decision in answered and result.decision not in answered:
            helped["less"] += 1
        if result.decision in answered and plain.decision not in answered:
            helped["more"] += 1
        outside["model"] += numbers_outside_their_blocks(result)
        note = result.frame.understanding_note or result.frame.understood_by
        print(
            f"{row['id']}: {result.decision}/{result.reason} [{result.mode}"
            f"{'; withheld: ' + (result.withheld or result.reason) if result.mode == 'book_after_model_failed' else ''}] ({note}) "
            f"{seconds[-1]:.1f} s; {turn[0]:.0f} calls, {turn[1]:.0f} prompt + "
            f"{turn[2]:.0f} completion tokens",
            flush=True,
        )
    n = len(rows)
    print(f"\n{n} questions, model {args.model} at {args.url}, UNDERSTANDING={args.understanding}")
    for mode, counts in modes.items():
        print(f"{mode}: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
        print(f"{mode}: numbers shown outside their cited blocks: {outside[mode]}")
    calls = _delta(calls_before, _counter("duocthu_model_calls_total"))
    tokens = _delta(tokens_before, _counter("duocthu_model_tokens_total"))
    print(
        "model mode, what the cards showed: " + ", ".join(f"{k} {v}" for k, v in shown_by.items())
    )
    print(f"model calls: {calls} ({sum(calls.values()) / n:.1f} per turn)")
    print(f"tokens: {tokens} ({sum(tokens.values()) / n:.0f} per turn)")
    for kind_of in ("prompt", "completion"):
        per_kind = {
            k.split(",")[0].removeprefix("kind="): v
            for k, v in tokens.items()
            if f"type={kind_of}" in k
        }
        line = ", ".join(f"{k} {v / n:.0f}" for k, v in sorted(per_kind.items()))
        print(f"{kind_of} tokens per turn: {sum(per_kind.values()) / n:.0f} ({line})")
    totals = sorted(p + c for _, p, c in per_turn)
    print(
        f"per turn: calls median {sorted(c for c, _, _ in per_turn)[n // 2]:.0f}; prompt tokens "
        f"median {sorted(p for _, p, _ in per_turn)[n // 2]:.0f}; completion tokens median "
        f"{sorted(c for _, _, c in per_turn)[n // 2]:.0f}; all tokens median {totals[n // 2]:.0f}, "
        f"max {totals[-1]:.0f}, under 3,000: {sum(t < 3000 for t in totals)}/{n}"
    )
    print(
        "written answers withheld, by the check that refused: "
        + (", ".join(f"{k} {v}" for k, v in withheld.most_common()) or "none")
    )
    print(
        f"against no-model mode: more helpful on {helped['more']}, less helpful on "
        f"{helped['less']} (answer or verify_pdf vs. anything else)"
    )
    print(f"seconds per turn: median {sorted(seconds)[n // 2]:.1f}, max {max(seconds):.1f}")


if __name__ == "__main__":
    main()
