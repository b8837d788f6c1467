"""rq jobs over the corpus. Jobs take primary keys and call the same functions as commands."""

import logging
from collections.abc import Iterable, Sequence

import django_rq
from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from redis.exceptions import RedisError

from corpus.embedding import Embedder, get_embedder
from corpus.models import Chunk

logger = logging.getLogger("duocthu.jobs")

BATCH_SIZE = 64


def embed_chunks(chunk_ids: Sequence[int] | None = None, embedder: Embedder | None = None) -> int:
    """Embed chunks whose text or model changed since their last embedding; returns how many.

    Reruns are harmless: an up-to-date chunk is skipped.
    """
    embedder = embedder or get_embedder()
    chunks = Chunk.objects.only("id", "text", "content_hash", "embedded_hash", "embedding_model")
    if chunk_ids is not None:
        chunks = chunks.filter(id__in=list(chunk_ids))
    todo = [
        c
        for c in chunks.order_by("id")
        if c.embedded_hash != c.content_hash or c.embedding_model != embedder.name
    ]
    vector_field = Chunk._meta.get_field("embedding")
    for start in range(0, len(todo), BATCH_SIZE):
        batch = todo[start : start + BATCH_SIZE]
        vectors = embedder.embed([c.text for c in batch])
        rows = [
            (
                vector_field.get_db_prep_value(vector, connection),
                embedder.name,
                chunk.content_hash,
                chunk.id,
                chunk.content_hash,  # a text changed meanwhile is embedded by its own job
            )
            for chunk, vector in zip(batch, vectors, strict=True)
        ]
        # One pipelined statement per batch: an ORM update per chunk spent 6 of the 7 s of
        # CPU of a whole-book embed (the tests' corpus load) building queries.
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.executemany(EMBED_UPDATE, rows)
    return len(todo)


EMBED_UPDATE = (
    "UPDATE corpus_chunk SET embedding = %s::vector, embedding_model = %s, embedded_hash = %s "
    "WHERE id = %s AND content_hash = %s"
)


def enqueue_embedding(chunk_ids: Iterable[int] | None = None) -> None:
    """Queue an embedding job once the current transaction commits."""
    ids = None if chunk_ids is None else list(chunk_ids)
    if ids is not None and not ids:
        return

    def send() -> None:
        if settings.RUN_JOBS_INLINE:
            embed_chunks(ids)
            return
        try:
            # autocommit: enqueue now, inside this try (this send already runs after the commit)
            django_rq.get_queue("default", commit_mode="auto").enqueue(
                embed_chunks, ids, job_timeout=1800
            )
        except RedisError as exc:
            # The corpus is committed; embeddings can be caught up with `embed_chunks`.
            logger.warning(
                "could not queue the embedding job (%r); run manage.py embed_chunks", exc
            )

    transaction.on_commit(send)


def stale_chunk_ids() -> list[int]:
    """Chunks whose embedding is missing or older than their text or the model."""
    model = get_embedder().name
    return list(
        Chunk.objects.filter(~Q(embedding_model=model) | ~Q(embedded_hash=F("content_hash")))
        .order_by("id")
        .values_list("id", flat=True)
    )


def enqueue_stale_embeddings() -> None:
    """The sweep: queue every chunk still waiting, so a job lost while Redis was down is
    queued again by the next review decision, ingest or `manage.py embed_chunks`
    (cron it hourly on a server)."""
    enqueue_embedding(stale_chunk_ids())


def queue_counts() -> dict[str, int | str]:
    """Embedding state for the admin: chunks waiting, and the rq queue when reachable."""
    model = get_embedder().name
    waiting = Chunk.objects.filter(
        ~Q(embedding_model=model) | ~Q(embedded_hash=F("content_hash"))
    ).count()
    counts: dict[str, int | str] = {"chunks_waiting": waiting, "model": model}
    try:
        queue = django_rq.get_queue("default")
        counts["queued_jobs"] = queue.count
        counts["failed_jobs"] = queue.failed_job_registry.count
        counts["running_jobs"] = queue.started_job_registry.count
    except RedisError:
        counts["queue"] = "Redis không kết nối được"
    return counts
