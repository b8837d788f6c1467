"""rq jobs over the corpus. Jobs take primary keys and call the same functions as commands."""

import logging
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

import django_rq
from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from pgvector import Vector
from pgvector.django import HnswIndex
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
    with _vector_index_built_after(len(todo)):
        for start in range(0, len(todo), BATCH_SIZE):
            _write_vectors(todo[start : start + BATCH_SIZE], embedder)
    return len(todo)


def _write_vectors(batch: list[Chunk], embedder: Embedder) -> None:
    vectors = embedder.embed([c.text for c in batch])
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(EMBED_BATCH_TABLE)
        # Binary COPY: each vector goes as pgvector's own binary form (float4s), not as text
        # (formatting 384 floats a chunk as decimals was ~40 % of a first load's write). A
        # binary COPY field is the column type's wire form, so the bytes are passed as they
        # are: no adapter is registered on Django's connection (which would change how it
        # reads vectors back).
        with cursor.cursor.copy(EMBED_COPY) as copy:
            copy.set_types(["int8", "varchar", "bytea"])
            for chunk, vector in zip(batch, vectors, strict=True):
                copy.write_row((chunk.id, chunk.content_hash, Vector(vector).to_binary()))
        cursor.execute(EMBED_UPDATE, [embedder.name])


# Measured at 7× (psql, 20,584 vectors into a table without any): the UPDATE with the HNSW
# index took 108 s, without it 4.2 s and 15 s to build the index after. Below this many
# chunks the index is kept.
DEFER_VECTOR_INDEX_AT = 1000


@contextmanager
def _vector_index_built_after(count: int) -> Iterator[None]:
    """Into a table without vectors (a first load), drop the vector index and build it
    once after the writes, also when a batch fails. (A worker killed in between leaves the
    table without it; README's issue-23 section says how to build it again.)

    Only outside a transaction: the drop is committed at once (a moment's lock), each
    batch commits on its own, and the build blocks writers of chunks, not readers. Until it
    is built, a dense search reads the vectors written so far without the index.
    """
    index = next(i for i in Chunk._meta.indexes if isinstance(i, HnswIndex))
    table = Chunk._meta.db_table
    with connection.cursor() as cursor:
        present = index.name in connection.introspection.get_constraints(cursor, table)
    defer = (
        present
        and count >= DEFER_VECTOR_INDEX_AT
        and not connection.in_atomic_block
        and not Chunk.objects.exclude(embedding=None).exists()
    )
    if defer:
        with connection.schema_editor() as editor:
            editor.remove_index(Chunk, index)
    try:
        yield
    finally:
        if defer:
            with connection.schema_editor() as editor:
                create = str(index.create_sql(Chunk, editor))
                # Another job may have built it meanwhile.
                editor.execute(create.replace("CREATE INDEX", "CREATE INDEX IF NOT EXISTS", 1))


EMBED_BATCH_TABLE = (
    "CREATE TEMPORARY TABLE IF NOT EXISTS corpus_embedded_batch "
    "(id bigint PRIMARY KEY, content_hash varchar(64), embedding vector) ON COMMIT DELETE ROWS"
)
EMBED_COPY = (
    "COPY corpus_embedded_batch (id, content_hash, embedding) FROM STDIN WITH (FORMAT BINARY)"
)
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
