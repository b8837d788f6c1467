"""A first embedding (no chunk has a vector yet) writes without the vector index and builds
it once after (corpus/jobs.py): the same index, the same vectors."""

from collections.abc import Sequence

import numpy as np
from django.db import connection

from corpus.embedding import HashingEmbedder
from corpus.jobs import embed_chunks
from corpus.models import Chunk


def _vector_index() -> str | None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexdef FROM pg_indexes WHERE tablename = 'corpus_chunk' "
            "AND indexname = 'chunk_embedding_hnsw'"
        )
        row = cursor.fetchone()
    return row[0] if row else None


class _Watching(HashingEmbedder):
    """Notes, at each batch, whether the vector index exists."""

    def __init__(self) -> None:
        super().__init__()
        self.index_seen: list[bool] = []

    def embed(self, texts: Sequence[str], *, query: bool = False) -> list[list[float]]:
        self.index_seen.append(_vector_index() is not None)
        return super().embed(texts, query=query)


def test_a_first_embedding_builds_the_vector_index_once_after_the_writes(
    django_db_setup,  # the test database with the book (this test commits outside a transaction)
    django_db_blocker,  # type: ignore[no-untyped-def]
) -> None:
    embedder = _Watching()
    with django_db_blocker.unblock():  # committed for real: the job runs outside a transaction
        definition = _vector_index()
        vectors = dict(Chunk.objects.values_list("id", "embedding"))
        Chunk.objects.update(embedding=None, embedded_hash="")
        assert embed_chunks(embedder=embedder) == len(vectors)
        assert embedder.index_seen and not any(embedder.index_seen)
        assert definition is not None and _vector_index() == definition
        again = dict(Chunk.objects.values_list("id", "embedding"))
        assert all(np.array_equal(again[pk], vectors[pk]) for pk in vectors)
