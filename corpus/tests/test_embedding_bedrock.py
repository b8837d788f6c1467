"""Bedrock's embedding adapter (Titan v2) through botocore's Stubber (issue 20: it had no
test): one invoke_model per text with its dimensions, the vectors returned in order, and a
client error or a body of the wrong shape as EmbeddingUnavailable."""

import io
import json
from unittest import mock

import boto3
import pytest
from botocore.response import StreamingBody
from botocore.stub import Stubber

from corpus.embedding import BedrockEmbedder, EmbeddingUnavailable

MODEL = "amazon.titan-embed-text-v2:0"


def _body(payload: dict[str, object]) -> StreamingBody:
    raw = json.dumps(payload).encode()
    return StreamingBody(io.BytesIO(raw), len(raw))


def _client() -> tuple[object, Stubber]:
    client = boto3.client(
        "bedrock-runtime", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x"
    )
    return client, Stubber(client)


def test_bedrock_embeds_each_text_with_its_dimensions_in_order() -> None:
    client, stubber = _client()
    for text, vector in (("paracetamol", [0.1, 0.2]), ("suy gan nặng", [0.3, 0.4])):
        stubber.add_response(
            "invoke_model",
            {"body": _body({"embedding": vector}), "contentType": "application/json"},
            {"modelId": MODEL, "body": json.dumps({"inputText": text, "dimensions": 256})},
        )
    embedder = BedrockEmbedder(MODEL, dimensions=256)
    with stubber, mock.patch("boto3.client", autospec=True, return_value=client) as made:
        vectors = embedder.embed(["paracetamol", "suy gan nặng"])
    made.assert_called_once_with("bedrock-runtime", region_name="us-east-1")
    assert vectors == [[0.1, 0.2], [0.3, 0.4]] and embedder.name == f"bedrock:{MODEL}"
    stubber.assert_no_pending_responses()


@pytest.mark.parametrize("failure", ["client error", "wrong body"])
def test_a_bedrock_failure_is_embedding_unavailable(failure: str) -> None:
    client, stubber = _client()
    if failure == "client error":
        stubber.add_client_error("invoke_model", service_error_code="AccessDeniedException")
    else:
        stubber.add_response(
            "invoke_model", {"body": _body({"vector": [1]}), "contentType": "application/json"}
        )
    with stubber, mock.patch("boto3.client", autospec=True, return_value=client):
        with pytest.raises(EmbeddingUnavailable):
            BedrockEmbedder(MODEL).embed(["x"])
