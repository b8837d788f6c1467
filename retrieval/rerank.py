"""Optional reranking of free-form hits. Fail-open: an ordering aid must never cost an answer,
and it never removes the token bound applied after it."""

import json
import logging
import urllib.error
import urllib.request
from collections.abc import Sequence

from django.conf import settings

from retrieval.evidence import Evidence

logger = logging.getLogger("duocthu.rerank")

RERANK_TOP_K = 6


def rerank(query: str, evidence: Sequence[Evidence], top_k: int = RERANK_TOP_K) -> list[Evidence]:
    """The best top_k first by the configured reranker, the rest after in their order."""
    provider = getattr(settings, "RERANK_PROVIDER", "none")
    if provider == "none" or len(evidence) < 2:
        return list(evidence)
    try:
        if provider == "openai":
            order = _openai_rerank(query, [e.text for e in evidence], top_k)
        elif provider == "bedrock":
            order = _bedrock_rerank(query, [e.text for e in evidence], top_k)
        else:
            logger.warning("unknown RERANK_PROVIDER %r; keeping retrieval order", provider)
            return list(evidence)
    except (
        urllib.error.URLError,
        TimeoutError,
        KeyError,
        ValueError,
        IndexError,
        RuntimeError,
    ) as exc:
        logger.warning("rerank failed open: %r", exc)
        return list(evidence)
    chosen = [evidence[i] for i in order if 0 <= i < len(evidence)]
    seen = {e.chunk_id for e in chosen}
    return chosen + [e for e in evidence if e.chunk_id not in seen]


def _openai_rerank(query: str, documents: list[str], top_k: int) -> list[int]:
    """The `/rerank` endpoint of vLLM, llama.cpp, Jina or Cohere-compatible servers."""
    body = json.dumps(
        {"model": settings.RERANK_MODEL, "query": query, "documents": documents, "top_n": top_k}
    ).encode()
    request = urllib.request.Request(
        settings.RERANK_BASE_URL.rstrip("/") + "/rerank",
        data=body,
        headers={
            "Content-Type": "application/json",
            "Authorization": f"Bearer {settings.RERANK_API_KEY}",
        },
    )
    with urllib.request.urlopen(request, timeout=settings.RERANK_TIMEOUT) as response:
        payload = json.load(response)
    results = sorted(payload["results"], key=lambda r: -float(r["relevance_score"]))
    return [int(r["index"]) for r in results[:top_k]]


def _bedrock_rerank(query: str, documents: list[str], top_k: int) -> list[int]:
    import boto3
    from botocore.exceptions import BotoCoreError, ClientError

    client = boto3.client("bedrock-agent-runtime", region_name=settings.AWS_REGION)
    try:
        response = client.rerank(
            queries=[{"type": "TEXT", "textQuery": {"text": query}}],
            sources=[
                {
                    "type": "INLINE",
                    "inlineDocumentSource": {"type": "TEXT", "textDocument": {"text": d}},
                }
                for d in documents
            ],
            rerankingConfiguration={
                "type": "BEDROCK_RERANKING_MODEL",
                "bedrockRerankingConfiguration": {
                    "numberOfResults": min(top_k, len(documents)),
                    "modelConfiguration": {"modelArn": settings.RERANK_MODEL},
                },
            },
        )
    except (BotoCoreError, ClientError) as exc:
        raise RuntimeError(str(exc)) from exc
    results = sorted(response["results"], key=lambda r: -float(r["relevanceScore"]))
    return [int(r["index"]) for r in results]
