"""Bounded, observable, checked model calls (issue 13), through the real OpenAI-compatible
adapter and a fake server on 127.0.0.1."""

import json

import pytest
from prometheus_client import REGISTRY

from answering.providers import Budget, ProviderError
from answering.turn import answer_turn

from .conftest import Envelope, answer, block_index, judge, understood

pytestmark = pytest.mark.django_db
DOSE = "Liều paracetamol cho người lớn?"


def _tokens(kind: str, kind_of: str) -> float:
    return (
        REGISTRY.get_sample_value("duocthu_model_tokens_total", {"kind": kind, "type": kind_of})
        or 0.0
    )


def test_a_reply_cut_at_max_tokens_is_malformed_at_once_and_usage_is_counted(scripted) -> None:  # type: ignore[no-untyped-def]
    before = _tokens("answer", "completion")
    n = block_index(DOSE, "tối đa là 4 g/ngày")
    cut = Envelope(
        answer("Người lớn tối đa là 4 g/ngày", [n]),
        "length",
        {"prompt_tokens": 900, "completion_tokens": 777},
    )
    model = scripted(understood(DOSE), cut)
    result = answer_turn(DOSE, provider=model)
    assert result.mode == "book_after_model_failed" and result.reason == "malformed_output"
    assert len(model.prompts) == 2  # no judge call for a truncated answer
    assert _tokens("answer", "completion") == before + 777


def test_each_call_asks_for_what_it_must_return(scripted, settings) -> None:  # type: ignore[no-untyped-def]
    settings.ANSWER_RESPONSE_FORMAT = "json_schema"
    n = block_index(DOSE, "tối đa là 4 g/ngày")
    model = scripted(understood(DOSE), answer("Người lớn tối đa là 4 g/ngày", [n]), judge(True))
    result = answer_turn(DOSE, provider=model)
    assert result.decision == "answer"
    frame, answer_call, judge_call = model.server.requests  # type: ignore[attr-defined]
    assert frame["max_tokens"] == 400 and judge_call["max_tokens"] < answer_call["max_tokens"]
    assert frame["response_format"]["type"] == "json_schema"
    assert "claims" in answer_call["response_format"]["json_schema"]["schema"]["properties"]
    settings.ANSWER_RESPONSE_FORMAT = "json_object"


def test_a_judge_that_calls_the_planted_claim_supported_voids_the_verdict(scripted) -> None:  # type: ignore[no-untyped-def]
    n = block_index(DOSE, "tối đa là 4 g/ngày")
    before = REGISTRY.get_sample_value("duocthu_judge_unreliable_total") or 0.0
    yes_man = judge(True, plant_supported=True)
    result = answer_turn(
        DOSE,
        provider=scripted(understood(DOSE), answer("Người lớn tối đa là 4 g/ngày", [n]), yes_man),
    )
    assert result.mode == "book_after_model_failed" and result.reason == "judge_unreliable"
    assert REGISTRY.get_sample_value("duocthu_judge_unreliable_total") == before + 1


def test_the_planted_claim_is_built_from_the_evidence_and_not_supported_by_it() -> None:
    from answering.canary import planted_claim
    from retrieval.queries import find_by_section

    for drug in ("paracetamol", "warfarin", "metformin"):
        for block in find_by_section(drug, "lieu_luong_va_cach_dung")[:3]:
            plant = planted_claim(block)
            assert plant and plant not in block.text


@pytest.mark.parametrize(
    "body",
    [b"\xff\xfe not utf-8", b"<html><body>502 Bad Gateway</body></html>", b'{"choices": [{"mess'],
    ids=["invalid-utf-8", "html-error-page", "cut-mid-body"],
)
def test_a_broken_server_reply_is_provider_unavailable(scripted, body: bytes) -> None:  # type: ignore[no-untyped-def]
    model = scripted(body)
    with pytest.raises(ProviderError) as failed:
        model.complete("s", "u", Budget(5))
    assert failed.value.reason == "provider_unavailable"


def test_check_judge_reports_rates_and_refuses_a_judge_that_says_yes_to_everything(
    scripted, settings
) -> None:  # type: ignore[no-untyped-def]
    from io import StringIO

    from django.core.management import CommandError, call_command

    yes = {"claims": [{"index": 1, "supported": True}], "complete": True, "missing": []}
    model = scripted(*([yes] * 12))  # 3 blocks of each plant kind, two claims each
    settings.ANSWER_PROVIDER = "openai"
    settings.ANSWER_BASE_URL = model.base_url
    settings.ANSWER_MODEL = model.model
    out = StringIO()
    with pytest.raises(CommandError, match="do not enable model mode"):
        call_command("check_judge", "--claims", "3", stdout=out)
    assert "unsupported claims accepted: 6/6 (1.00)" in out.getvalue()
    assert "supported claims accepted: 6/6" in out.getvalue()


def test_bedrock_structured_output_is_a_forced_tool_with_the_schema(settings) -> None:  # type: ignore[no-untyped-def]
    import boto3
    from botocore.stub import ANY, Stubber

    from answering.providers import BedrockProvider
    from answering.schemas import FrameOut

    settings.ANSWER_RESPONSE_FORMAT = "json_schema"
    client = boto3.client(
        "bedrock-runtime", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x"
    )
    schema = FrameOut.model_json_schema()
    stubber = Stubber(client)
    stubber.add_response(
        "converse",
        {
            "output": {
                "message": {
                    "role": "assistant",
                    "content": [
                        {
                            "toolUse": {
                                "toolUseId": "t1",
                                "name": "frame",
                                "input": {"turn_type": "smalltalk"},
                            }
                        }
                    ],
                }
            },
            "stopReason": "tool_use",
            "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
            "metrics": {"latencyMs": 5},
        },
        {
            "modelId": ANY,
            "system": ANY,
            "messages": ANY,
            "inferenceConfig": ANY,
            "toolConfig": {
                "tools": [{"toolSpec": {"name": "frame", "inputSchema": {"json": schema}}}],
                "toolChoice": {"tool": {"name": "frame"}},
            },
        },
    )
    with stubber:
        text = BedrockProvider("m", client=client).complete(
            "s", "u", Budget(5), kind="frame", schema=schema
        )
    assert json.loads(text) == {"turn_type": "smalltalk"}
    settings.ANSWER_RESPONSE_FORMAT = "json_object"
