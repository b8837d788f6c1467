"""How often an adult's dose asked without a route meets several routes in view, and which
route the answer shows first — the measurement behind issue 11's route rule.

For every loaded monograph: "Liều <name> cho người lớn?" answered without a model. The routes
of a paragraph are read from its label and its first words (the route phrase table). Prints
how many answers show paragraphs of two or more routes in view, which route comes first, and
how often the first one is the route the section itself names first.

    .venv/bin/python bench/routes.py
"""

import os
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "duocthu.settings")
os.environ["ANSWER_PROVIDER"] = "disabled"

from duocthu.devdb import use_embedded_database  # noqa: E402

use_embedded_database()
import django  # noqa: E402

django.setup()

from answering.turn import answer_turn  # noqa: E402
from corpus.models import Chunk, Drug  # noqa: E402
from corpus.text import heading_parts  # noqa: E402
from retrieval.phrases import routes  # noqa: E402


def _routes_of(title: str, text: str) -> list[str]:
    return routes(f"{title} {text[:80]}")


def main() -> None:
    several = first_is_books_first = answered = 0
    first_routes: Counter[str] = Counter()
    named_line = 0
    for drug in Drug.objects.order_by("drug_id"):
        name = heading_parts(drug.heading)[0].lower()
        result = answer_turn(f"Liều {name} cho người lớn?", provider=None)
        if result.decision not in ("answer", "verify_pdf"):
            continue
        answered += 1
        in_view = [b for b in result.blocks if not b.collapsed and b.section_key]
        seen: list[str] = []
        for block in in_view:
            for route in _routes_of(block.title, block.claims[0][0] if block.claims else ""):
                if route not in seen:
                    seen.append(route)
        if len(seen) >= 2:
            several += 1
            first_routes[seen[0]] += 1
            section = " ".join(
                Chunk.objects.filter(
                    section__drug=drug, section__section_key="lieu_luong_va_cach_dung"
                )
                .order_by("part_index")
                .values_list("text", flat=True)
            )
            books_first = routes(section)
            first_is_books_first += bool(books_first) and books_first[0] == seen[0]
            named_line += any("nhiều đường dùng" in t for b in result.blocks for t, _ in b.claims)
    print(f"adult dose questions answered: {answered}")
    print(f"with paragraphs of two or more routes in view: {several}")
    print(f"first route shown: {dict(first_routes.most_common())}")
    print(f"first route shown is the route the section names first: {first_is_books_first}")
    print(f"answers naming the other routes in a line: {named_line}")


if __name__ == "__main__":
    main()
