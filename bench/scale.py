"""1× and 7× the book side by side (issue 23): does any cost grow with the formulary?

For each scale, a scratch database on the embedded server (`duocthu_scale_<N>x`, created and
dropped here) gets the corpus (`bench/scale_corpus.py N` builds it under var/ when missing),
then, each step in a fresh process so its memory is its own:

- ingest: the read, the whole write, chunks/s;
- the name catalog: built from the tables (seconds, RSS grown), loaded from its stored
  snapshot as a second worker would, resolve()/suggest() p50/p95 over 1,000 queries;
- chat turns through the real view, per question kind: p50/p95 ms and the database's
  share of each turn (ms of SQL per turn, queries per turn), then the process's RSS;
- with --load, bench/load.py's closed loop (gunicorn with WEB_PRELOAD, 20 clients, 1,500
  turns) against that database.

    .venv/bin/python bench/scale.py [--scales 1 7] [--load]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "duocthu.settings")
os.environ["ANSWER_PROVIDER"] = "disabled"
os.environ["DUOCTHU_RUN_JOBS_INLINE"] = "false"
SHARED = ROOT.parent / "shared/corpus/duocthu-2018"

DRUGS = (
    "paracetamol warfarin amoxicilin digoxin metformin insulin omeprazol furosemid "
    "vancomycin ceftriaxon ibuprofen captopril heparin gentamicin losartan"
).split()
CONDITIONS = (
    "tăng huyết áp",
    "đái tháo đường",
    "động kinh",
    "nhiễm khuẩn đường tiết niệu",
    "sốt",
    "hen phế quản",
    "loét dạ dày",
    "suy tim",
    "viêm phổi",
    "đau nửa đầu",
)
KINDS: dict[str, list[str]] = {
    "dose": [f"Liều {d} cho người lớn là bao nhiêu?" for d in DRUGS],
    "section": [f"{d} chống chỉ định trong trường hợp nào?" for d in DRUGS],
    "situation": [f"Phụ nữ có thai dùng {d} được không?" for d in DRUGS],
    "interaction": [f"{d} dùng cùng warfarin được không?" for d in DRUGS if d != "warfarin"],
    "which_drug": [f"Thuốc nào dùng để điều trị {c}?" for c in CONDITIONS],
    "free_form": [f"{d} có gây buồn ngủ không?" for d in DRUGS],
}
ROUNDS = 4  # each question asked this many times per kind (the first round warms, untimed)


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _setup() -> None:
    import django

    django.setup()


def step_ingest(corpus: str) -> dict[str, float]:
    _setup()
    from django.core.management import call_command

    from corpus.ingest import write_formulary
    from corpus.sources import read_source

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    monographs, index_rows = read_source(Path(corpus))
    read = time.perf_counter() - started
    chunks = sum(len(s.chunks) for m in monographs for s in m.parsed.sections)
    summary = write_formulary(monographs, index_rows, source=corpus)
    from corpus.models import Alias, BookIndexEntry

    return {
        "monographs": len(monographs),
        "chunks": chunks,
        "aliases": Alias.objects.count(),
        "index rows": BookIndexEntry.objects.count(),
        "read s": read,
        "whole write s": summary.write_seconds,
        "whole write chunks/s": chunks / summary.write_seconds,
        "core write chunks/s": chunks / summary.chunk_write_seconds,
    }


def step_catalog(_: str) -> dict[str, float]:
    _setup()
    from django.db import connection

    import retrieval.catalog as catalog

    connection.ensure_connection()
    before = _rss_mb()
    started = time.perf_counter()
    resolver, _ = catalog.build_resolver()
    built = time.perf_counter() - started
    grown = _rss_mb() - before
    names = sorted({" ".join(k) for k in resolver.loaded})
    queries = [f"Liều {names[i * 7919 % len(names)]} cho người lớn?" for i in range(1000)]
    resolve, suggest = [], []
    for query in queries:
        t = time.perf_counter()
        resolver.resolve(query)
        resolve.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        resolver.suggest(query)
        suggest.append((time.perf_counter() - t) * 1000)
    catalog.get_resolver()  # built again and stored, for the next step to load
    return {
        "catalog keys": len(resolver.loaded) + len(resolver.not_loaded),
        "catalog build s": built,
        "catalog RSS MB": grown,
        "resolve p50 ms": statistics.median(resolve),
        "resolve p95 ms": _pct(resolve, 0.95),
        "suggest p50 ms": statistics.median(suggest),
        "suggest p95 ms": _pct(suggest, 0.95),
    }


def step_snapshot(_: str) -> dict[str, float]:
    """A second worker's first turn after an edit: the stored catalog, not a rebuild."""
    _setup()
    from django.db import connection

    import retrieval.catalog as catalog

    connection.ensure_connection()
    before = _rss_mb()
    started = time.perf_counter()
    catalog.get_resolver()
    return {
        "catalog from snapshot s": time.perf_counter() - started,
        "catalog from snapshot RSS MB": _rss_mb() - before,
    }


def step_turns(_: str) -> dict[str, float]:
    _setup()
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    from chat.models import Conversation

    setup_test_environment()
    user, _ = User.objects.get_or_create(username="scale-bench")
    client = Client(HTTP_HX_REQUEST="true")
    client.force_login(user)
    sql = {"ms": 0.0, "n": 0}

    def timed(execute: Callable, query: str, params: object, many: bool, context: object):  # type: ignore[no-untyped-def]
        t = time.perf_counter()
        try:
            return execute(query, params, many, context)
        finally:
            sql["ms"] += (time.perf_counter() - t) * 1000
            sql["n"] += 1

    result: dict[str, float] = {}
    every: list[float] = []
    with connection.execute_wrapper(timed):
        for kind, questions in KINDS.items():
            times, db_ms, db_n = [], 0.0, 0
            for round_ in range(ROUNDS):
                for question in questions:
                    conversation = Conversation.objects.create(user=user)
                    sql["ms"] = sql["n"] = 0
                    t = time.perf_counter()
                    response = client.post(f"/c/{conversation.pk}/ask/", {"question": question})
                    elapsed = (time.perf_counter() - t) * 1000
                    assert response.status_code == 200, response.status_code
                    if round_:
                        times.append(elapsed)
                        db_ms += sql["ms"]
                        db_n += sql["n"]
            every += times
            result[f"{kind} p50 ms"] = statistics.median(times)
            result[f"{kind} p95 ms"] = _pct(times, 0.95)
            result[f"{kind} DB ms/turn"] = db_ms / len(times)
            result[f"{kind} queries/turn"] = db_n / len(times)
    result["all turns p50 ms"] = statistics.median(every)
    result["process RSS after turns MB"] = _rss_mb()
    user.delete()
    return result


STEPS = {"ingest": step_ingest, "catalog": step_catalog, "snapshot": step_snapshot}
STEPS["turns"] = step_turns


def _admin(url: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/postgres"))


def _scratch(url: str, name: str, drop_only: bool = False) -> str:
    import psycopg

    with psycopg.connect(_admin(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f"CREATE DATABASE \"{name}\" TEMPLATE template0 ENCODING 'UTF8'")
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def _run(step: str, corpus: Path, url: str) -> dict[str, float]:
    env = {**os.environ, "DATABASE_URL": url}
    out = subprocess.run(
        [sys.executable, __file__, "--step", step, str(corpus)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def _load(url: str) -> dict[str, float]:
    env = {**os.environ, "DATABASE_URL": url, "WEB_PRELOAD": "true"}
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench/load.py"), "--clients", "20", "--turns", "1500"],
        env=env,
        capture_output=True,
        text=True,
    )
    line = next((x for x in run.stdout.splitlines() if x.startswith("throughput")), None)
    if line is None:
        print(f"bench/load.py failed: {(run.stdout + run.stderr)[-600:]}", file=sys.stderr)
        return {}
    return {"load.py throughput turns/s": float(line.split()[1])}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--step", choices=STEPS)
    parser.add_argument("corpus", nargs="?")
    parser.add_argument("--scales", type=int, nargs="+", default=[1, 7])
    parser.add_argument("--load", action="store_true")
    args = parser.parse_args()
    if args.step:
        print(json.dumps(STEPS[args.step](args.corpus)))
        return
    from duocthu.devdb import use_embedded_database

    use_embedded_database()
    base = os.environ["DATABASE_URL"]
    columns: dict[int, dict[str, float]] = {}
    for n in args.scales:
        corpus = SHARED if n == 1 else ROOT / "var" / "scale" / f"{n}x"
        if not corpus.exists():
            from bench.scale_corpus import build

            build(n, SHARED, corpus)
        url = _scratch(base, f"duocthu_scale_{n}x")
        try:
            columns[n] = {}
            for step in STEPS:
                columns[n].update(_run(step, corpus, url))
                print(f"{n}x {step}: {json.dumps(columns[n])}", file=sys.stderr, flush=True)
            if args.load:
                columns[n].update(_load(url))
        finally:
            _scratch(base, f"duocthu_scale_{n}x", drop_only=True)
    keys = list(dict.fromkeys(k for c in columns.values() for k in c))
    print(f"{'':34}" + "".join(f"{f'{n}×':>12}" for n in columns))
    for key in keys:
        cells = "".join(f"{_fmt(columns[n].get(key)):>12}" for n in columns)
        print(f"{key:34}{cells}")


def _fmt(value: float | None) -> str:
    if value is None:
        return "–"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.2f}" if value < 10 else f"{value:.1f}"


if __name__ == "__main__":
    main()
