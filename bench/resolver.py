"""Resolver speed over the whole book's alias catalog: 1,000 distinct queries, caches cold.

Prints p50/p95 for resolve() and suggest(). Run: .venv/bin/python bench/resolver.py
"""

import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "duocthu.settings")

from duocthu.devdb import use_embedded_database  # noqa: E402

use_embedded_database()
import django  # noqa: E402

django.setup()

from retrieval.catalog import get_resolver  # noqa: E402

TEMPLATES = [
    "Liều {name} cho người lớn là bao nhiêu?",
    "{name} chống chỉ định trong trường hợp nào",
    "bà bầu uống {name} được không",
    "dang dung {name} co uong cung thuoc khac duoc ko",
    "Tác dụng phụ thường gặp của {name} là gì và xử trí thế nào khi bị phản ứng?",
]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    started = time.perf_counter()
    resolver = get_resolver()
    build = time.perf_counter() - started
    names = sorted(
        {" ".join(k) for k in resolver.loaded} | {" ".join(k) for k in resolver.not_loaded}
    )
    rng = random.Random(2018)
    queries = set()
    while len(queries) < 1000:
        name = rng.choice(names)
        if rng.random() < 0.3:  # a typo, so suggest() has work to do
            i = rng.randrange(len(name))
            name = name[:i] + rng.choice("aeioux") + name[i + 1 :]
        queries.add(rng.choice(TEMPLATES).format(name=name))
    resolve_ms, suggest_ms = [], []
    for query in sorted(queries):
        t = time.perf_counter()
        resolver.resolve(query)
        resolve_ms.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        resolver.suggest(query, 5, 0.55)
        suggest_ms.append((time.perf_counter() - t) * 1000)
    print(
        f"aliases: {len(resolver.loaded)} loaded + {len(resolver.not_loaded)} book-index-only keys"
    )
    print(f"catalog build: {build * 1000:.0f} ms")
    print(
        f"resolve (1000 distinct queries, cold cache): p50 {statistics.median(resolve_ms):.3f} ms, "
        f"p95 {percentile(resolve_ms, 0.95):.3f} ms"
    )
    print(
        f"suggest (1000 distinct queries, cold cache): p50 {statistics.median(suggest_ms):.3f} ms, "
        f"p95 {percentile(suggest_ms, 0.95):.3f} ms"
    )


if __name__ == "__main__":
    main()
