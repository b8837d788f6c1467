"""The HTTP-level adapters: an OpenAI-compatible fake server on 127.0.0.1, Bedrock via Stubber."""

from http.server import ThreadingHTTPServer

import boto3
import pytest
from botocore.stub import Stubber

from answering.providers import BedrockProvider, Budget, OpenAICompatibleProvider, ProviderError
from answering.turn import answer_turn

from .conftest import answer, block_index, judge, served_provider, understood

QUESTION = "Liều paracetamol cho người lớn?"


@pytest.mark.django_db
def test_a_whole_turn_through_an_openai_compatible_server(
    model_server: ThreadingHTTPServer,
) -> None:
    n = block_index(QUESTION, "tối đa là 4 g/ngày")
    model_server.replies += [
        understood(QUESTION),
        answer("Người lớn tối đa là 4 g/ngày", [n]),
        judge(True),
    ]  # type: ignore[attr-defined]
    result = answer_turn(QUESTION, provider=served_provider(model_server))
    assert result.decision == "answer"
    first = model_server.requests[0]  # type: ignore[attr-defined]
    assert first["model"] == "qwen2.5-7b-instruct" and first["temperature"] == 0
    assert first["messages"][0]["role"] == "system" and first["messages"][1]["role"] == "user"


def test_server_errors_timeouts_and_garbage_map_to_named_reasons(
    model_server: ThreadingHTTPServer,
) -> None:
    provider = served_provider(model_server)
    model_server.mode = "error"  # type: ignore[attr-defined]
    with pytest.raises(ProviderError) as down:
        provider.complete("s", "u", Budget(5))
    assert down.value.reason == "provider_unavailable"
    model_server.mode = "garbage"  # type: ignore[attr-defined]
    with pytest.raises(ProviderError) as garbage:
        provider.complete("s", "u", Budget(5))
    assert garbage.value.reason == "provider_unavailable"  # an error page is the server's
    model_server.mode = "slow"  # type: ignore[attr-defined]
    with pytest.raises(ProviderError) as slow:
        provider.complete("s", "u", Budget(0.5))
    assert slow.value.reason == "request_budget_exhausted"
    with pytest.raises(ProviderError) as spent:
        provider.complete("s", "u", Budget(0))
    assert spent.value.reason == "request_budget_exhausted"


def test_nothing_listening_is_provider_unavailable() -> None:
    provider = OpenAICompatibleProvider("http://127.0.0.1:9/v1", "m")
    with pytest.raises(ProviderError) as error:
        provider.complete("s", "u", Budget(5))
    assert error.value.reason == "provider_unavailable"


def _bedrock() -> tuple[BedrockProvider, Stubber]:
    client = boto3.client(
        "bedrock-runtime", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x"
    )
    return BedrockProvider("anthropic.claude-3-5-sonnet", client=client), Stubber(client)


def test_bedrock_converse_returns_the_models_text() -> None:
    provider, stubber = _bedrock()
    stubber.add_response(
        "converse",
        {
            "output": {"message": {"role": "assistant", "content": [{"text": '{"claims": []}'}]}},
            "stopReason": "end_turn",
            "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2},
            "metrics": {"latencyMs": 5},
        },
        {
            "modelId": "anthropic.claude-3-5-sonnet",
            "system": [{"text": "hệ thống"}],
            "messages": [{"role": "user", "content": [{"text": "câu hỏi"}]}],
            "inferenceConfig": {"temperature": 0, "maxTokens": 2000},
        },
    )
    with stubber:
        assert provider.complete("hệ thống", "câu hỏi", Budget(5)) == '{"claims": []}'


def test_bedrock_client_errors_are_provider_unavailable() -> None:
    provider, stubber = _bedrock()
    stubber.add_client_error(
        "converse", service_error_code="ThrottlingException", http_status_code=429
    )
    with stubber, pytest.raises(ProviderError) as error:
        provider.complete("s", "u", Budget(5))
    assert error.value.reason == "provider_unavailable"


def test_a_server_that_closes_without_replying_is_provider_unavailable(free_port: int) -> None:
    import socket
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", free_port))
    listener.listen(1)

    def hang_up() -> None:
        connection, _ = listener.accept()
        connection.recv(65536)
        connection.close()  # no status line: http.client.RemoteDisconnected

    thread = threading.Thread(target=hang_up, daemon=True)
    thread.start()
    provider = OpenAICompatibleProvider(f"http://127.0.0.1:{free_port}/v1", "m", "k")
    with pytest.raises(ProviderError) as error:
        provider.complete("s", "u", Budget(5))
    assert error.value.reason == "provider_unavailable"
    listener.close()
