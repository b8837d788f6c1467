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

# Chunks per embedder call and per write. The write is one COPY into a temporary table and
# one UPDATE joined to it; a pipelined UPDATE per chunk (64 a batch) spent most of a 7×
# embed's time in round trips and per-statement work on the server (bench/embed.py --job).
BATCH_SIZE = 512


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
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(EMBED_BATCH_TABLE)
            with cursor.cursor.copy(EMBED_COPY) as copy:
                for chunk, vector in zip(batch, vectors, strict=True):
                    copy.write_row(
                        (
                            chunk.id,
                            chunk.content_hash,
                            vector_field.get_db_prep_value(vector, connection),
                        )
                    )
            cursor.execute(EMBED_UPDATE, [embedder.name])
    return len(todo)


EMBED_BATCH_TABLE = (
    "CREATE TEMPORARY TABLE IF NOT EXISTS corpus_embedded_batch "
    "(id bigint PRIMARY KEY, content_hash varchar(64), embedding vector) ON COMMIT DELETE ROWS"
)
EMBED_COPY = "COPY corpus_embedded_batch (id, content_hash, embedding) FROM STDIN"
# A text changed since it was read is left to its own job (the content_hash must still match).
EMBED_UPDATE = (
    "UPDATE corpus_chunk c SET embedding = b.embedding, embedding_model = %s, "
    "embedded_hash = b.content_hash FROM corpus_embedded_batch b "
    "WHERE c.id = b.id AND c.content_hash = b.content_hash"
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
