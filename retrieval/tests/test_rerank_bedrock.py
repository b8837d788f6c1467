"""Bedrock's rerank adapter through botocore's Stubber (issue 20: it had no test): the request
it sends, the order it returns, and failing open on a client error."""

from unittest import mock

import boto3
import pytest
from botocore.stub import Stubber

from retrieval.queries import lexical_search
from retrieval.rerank import rerank

pytestmark = pytest.mark.django_db
ARN = "arn:aws:bedrock:us-west-2::foundation-model/amazon.rerank-v1:0"


def _client() -> tuple[object, Stubber]:
    client = boto3.client(
        "bedrock-agent-runtime",
        region_name="us-west-2",
        aws_access_key_id="x",
        aws_secret_access_key="x",
    )
    return client, Stubber(client)


def _expected(query: str, documents: list[str], top_k: int) -> dict[str, object]:
    return {
        "queries": [{"type": "TEXT", "textQuery": {"text": query}}],
        "sources": [
            {
                "type": "INLINE",
                "inlineDocumentSource": {"type": "TEXT", "textDocument": {"text": d}},
            }
            for d in documents
        ],
        "rerankingConfiguration": {
            "type": "BEDROCK_RERANKING_MODEL",
            "bedrockRerankingConfiguration": {
                "numberOfResults": top_k,
                "modelConfiguration": {"modelArn": ARN},
            },
        },
    }


def test_bedrock_rerank_sends_the_documents_and_reorders_by_score(settings) -> None:  # type: ignore[no-untyped-def]
    settings.RERANK_PROVIDER, settings.RERANK_MODEL = "bedrock", ARN
    hits = lexical_search("loét dạ dày chảy máu", drug_id="ibuprofen")[:4]
    assert len(hits) >= 3
    client, stubber = _client()
    query = "loét dạ dày chảy máu"
    stubber.add_response(
        "rerank",
        {"results": [{"index": 2, "relevanceScore": 0.9}, {"index": 0, "relevanceScore": 0.4}]},
        _expected(query, [e.text for e in hits], 2),
    )
    with stubber, mock.patch("boto3.client", autospec=True, return_value=client) as made:
        reranked = rerank(query, hits, top_k=2)
    made.assert_called_once_with("bedrock-agent-runtime", region_name=settings.AWS_REGION)
    assert [e.chunk_id for e in reranked[:2]] == [hits[2].chunk_id, hits[0].chunk_id]
    assert sorted(e.chunk_id for e in reranked) == sorted(e.chunk_id for e in hits)
    stubber.assert_no_pending_responses()


def test_a_bedrock_rerank_error_fails_open(settings) -> None:  # type: ignore[no-untyped-def]
    settings.RERANK_PROVIDER, settings.RERANK_MODEL = "bedrock", ARN
    hits = lexical_search("loét dạ dày chảy máu", drug_id="ibuprofen")[:3]
    client, stubber = _client()
    stubber.add_client_error(
        "rerank", service_error_code="ThrottlingException", http_status_code=429
    )
    with stubber, mock.patch("boto3.client", autospec=True, return_value=client):
        assert [e.chunk_id for e in rerank("loét dạ dày", hits)] == [e.chunk_id for e in hits]
