"""How big model mode's prompts are, per call kind and per turn, on the development questions,
without a model: an in-process stand-in answers each call the way a well-behaved model would
(the deterministic frame; one claim copying the first sentence of the first passage; every
claim supported) and records what it was sent. Tokens are estimated from characters with the
ratio measured on the recorded Gemma 3 traffic (prompt_tokens the server reported: 2.8–3.0
characters a token for these Vietnamese prompts); a live server's `usage` is in
bench/model_report.py.

    .venv/bin/python bench/prompt_sizes.py [--questions 30] [--chars-per-token 2.9]
"""

import argparse
import json
import os
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "duocthu.settings")

from duocthu.devdb import use_embedded_database  # noqa: E402

use_embedded_database()
import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from answering.grounding import sentences  # noqa: E402
from answering.providers import Budget  # noqa: E402
from answering.turn import answer_turn  # noqa: E402
from answering.understanding import understand  # noqa: E402

_QUESTION = re.compile(r"<<<CAU_HOI_NGUOI_DUNG>>>\n(.*?)\n<<</CAU_HOI_NGUOI_DUNG>>>", re.S)
_FIRST_PASSAGE = re.compile(
    r"<<<BANG_CHUNG>>>\n\n\[1\] [^\n]*\n(.*?)(?:\n\n\[2\]|\n\n<<</BANG_CHUNG>>>)", re.S
)


class WellBehaved:
    """Answers like a model that follows every rule, and keeps the size of each prompt."""

    name = "stand-in"

    def __init__(self) -> None:
        self.sizes: dict[str, list[int]] = defaultdict(list)

    def complete(  # noqa: PLR0913
        self,
        system: str,
        user: str,
        budget: Budget,
        max_tokens: int = 2000,
        *,
        kind: str = "answer",
        schema: dict[str, object] | None = None,
    ) -> str:
        self.sizes[kind].append(len(system) + len(user))
        questions = _QUESTION.findall(user)
        if kind == "frame":
            frame = understand(questions[-1] if questions else "")
            return json.dumps({**frame.summary(), "context_action": "none", "quick_replies": []})
        if kind == "judge":
            n = len(re.findall(r"^CLAIM \d+: ", user, flags=re.M))
            claims = [{"index": i + 1, "supported": True, "reason": ""} for i in range(n)]
            return json.dumps({"claims": claims, "complete": True, "missing": []})
        passage = _FIRST_PASSAGE.search(user)
        first = next(iter(sentences(passage.group(1))), "") if passage else ""
        claim = [{"text": first, "citations": [1], "drug_id": None}] if first else []
        return json.dumps({"claims": claim, "evidence_sufficient": bool(first)})


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--questions", type=int, default=30)
    parser.add_argument("--chars-per-token", type=float, default=2.9)
    args = parser.parse_args()
    dev = Path(settings.DUOCTHU_CORPUS_DIR).parent.parent / "eval" / "dev.jsonl"
    rows = [json.loads(line) for line in dev.read_text().splitlines() if line]
    rows = [r for r in rows if not r.get("history")][: args.questions]
    per_turn: list[int] = []
    kinds: dict[str, list[int]] = defaultdict(list)
    for row in rows:
        model = WellBehaved()
        answer_turn(row["question"], provider=model)
        per_turn.append(sum(sum(v) for v in model.sizes.values()))
        for kind, sizes in model.sizes.items():
            kinds[kind] += sizes
    tok = args.chars_per_token
    print(f"{len(rows)} questions; tokens estimated at {tok} characters a token")
    for kind, sizes in sorted(kinds.items()):
        print(
            f"{kind}: {len(sizes)} calls, median {statistics.median(sizes) / tok:.0f} tokens, "
            f"max {max(sizes) / tok:.0f}"
        )
    under = sum(size / tok < 3000 for size in per_turn)
    print(
        f"per turn (all calls): median {statistics.median(per_turn) / tok:.0f} tokens, "
        f"p90 {sorted(per_turn)[int(0.9 * len(per_turn))] / tok:.0f}, max {max(per_turn) / tok:.0f}; "
        f"under 3,000: {under}/{len(per_turn)}"
    )


if __name__ == "__main__":
    main()
