"""Language-model providers behind one call, `complete(system, user, budget) -> str`.

`disabled` (the default: no model, verbatim quotes), `bedrock` (boto3 Converse) and
`openai` (any OpenAI-compatible server on the hospital network: vLLM, Ollama, llama.cpp).
Every failure becomes a ProviderError with a named reason, logged with the real exception.
"""

import http.client
import json
import logging
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Protocol

from django.conf import settings

from answering.metrics import MODEL_CALLS, MODEL_TOKENS, PROVIDER_ERRORS

logger = logging.getLogger("duocthu.providers")


class ProviderError(Exception):
    """A provider call that did not produce usable text; `reason` is the abstain reason."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason


@dataclass
class Budget:
    """The wall-clock budget of one request, shared by every call it makes."""

    seconds: float
    started: float = 0.0

    def __post_init__(self) -> None:
        self.started = self.started or time.monotonic()

    def remaining(self) -> float:
        return self.seconds - (time.monotonic() - self.started)

    def timeout(self) -> float:
        left = self.remaining()
        if left <= 0.05:
            raise ProviderError("request_budget_exhausted", f"{self.seconds:.0f} s spent")
        return left


class Provider(Protocol):
    name: str

    def complete(
        self,
        system: str,
        user: str,
        budget: Budget,
        max_tokens: int = 2000,
        *,
        kind: str = "answer",
        schema: dict[str, object] | None = None,
    ) -> str: ...


def _observe(kind: str, finish: str | None, prompt: int, completion: int, seconds: float) -> None:
    """Every call's token usage, logged and counted by kind; a reply cut at max_tokens is
    malformed at once (16 of 30 small-model answers ran to the limit)."""
    MODEL_TOKENS.labels(kind, "prompt").inc(prompt)
    MODEL_TOKENS.labels(kind, "completion").inc(completion)
    MODEL_CALLS.labels(kind, finish or "unknown").inc()
    logger.info(
        "model call kind=%s finish=%s prompt_tokens=%d completion_tokens=%d seconds=%.2f",
        kind,
        finish,
        prompt,
        completion,
        seconds,
    )
    if finish in ("length", "max_tokens"):
        _fail("malformed_output", ValueError(f"{kind} reply cut at max_tokens"))


def _response_format(schema: dict[str, object] | None, name: str) -> dict[str, object] | None:
    """ANSWER_RESPONSE_FORMAT: json_object (default), json_schema (vLLM, llama.cpp's server
    and Ollama constrain the output to the schema) or none."""
    mode = settings.ANSWER_RESPONSE_FORMAT
    if mode == "none":
        return None
    if mode == "json_schema" and schema is not None:
        return {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}
    return {"type": "json_object"}


@dataclass
class OpenAICompatibleProvider:
    base_url: str
    model: str
    api_key: str = ""
    name: str = "openai"

    def complete(
        self,
        system: str,
        user: str,
        budget: Budget,
        max_tokens: int = 2000,
        *,
        kind: str = "answer",
        schema: dict[str, object] | None = None,
    ) -> str:
        request_body: dict[str, object] = {
            "model": self.model,
            "temperature": 0,
            "max_tokens": max_tokens,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": user},
            ],
        }
        response_format = _response_format(schema, kind)
        if response_format is not None:
            request_body["response_format"] = response_format
        body = json.dumps(request_body).encode()
        started = time.monotonic()
        request = urllib.request.Request(
            self.base_url.rstrip("/") + "/chat/completions",
            data=body,
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.api_key}"},
        )
        timeout = budget.timeout()
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                payload = json.load(response)
        except TimeoutError as exc:
            reason = (
                "request_budget_exhausted" if budget.remaining() <= 0.1 else "provider_unavailable"
            )
            _fail(reason, exc)
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError | socket.timeout) and budget.remaining() <= 0.1:
                _fail("request_budget_exhausted", exc)
            _fail("provider_unavailable", exc)
        except (http.client.HTTPException, OSError) as exc:
            # A server that drops the connection mid-reply (RemoteDisconnected, IncompleteRead).
            _fail("provider_unavailable", exc)
        except ValueError as exc:
            # Not the model's words but the server's envelope: an HTML error page, invalid
            # UTF-8, a body cut short — the server is not answering as one.
            _fail("provider_unavailable", exc)
        try:
            choice = payload["choices"][0]
            text = choice["message"]["content"]
        except (KeyError, IndexError, TypeError) as exc:
            _fail("provider_unavailable", exc)
        usage = payload.get("usage") if isinstance(payload, dict) else None
        usage = usage if isinstance(usage, dict) else {}
        _observe(
            kind,
            choice.get("finish_reason") if isinstance(choice, dict) else None,
            int(usage.get("prompt_tokens") or 0),
            int(usage.get("completion_tokens") or 0),
            time.monotonic() - started,
        )
        if not isinstance(text, str):
            _fail("malformed_output", TypeError("content is not text"))
        return text


@dataclass
class BedrockProvider:
    model: str
    region: str = "us-east-1"
    name: str = "bedrock"
    client: object | None = None

    def _client(self):  # type: ignore[no-untyped-def]
        if self.client is None:
            import boto3
            from botocore.config import Config

            self.client = boto3.client(
                "bedrock-runtime",
                region_name=self.region,
                config=Config(retries={"max_attempts": 1}),
            )
        return self.client

    def complete(
        self,
        system: str,
        user: str,
        budget: Budget,
        max_tokens: int = 2000,
        *,
        kind: str = "answer",
        schema: dict[str, object] | None = None,
    ) -> str:
        from botocore.exceptions import BotoCoreError, ClientError, ReadTimeoutError

        budget.timeout()
        started = time.monotonic()
        request: dict[str, object] = {
            "modelId": self.model,
            "system": [{"text": system}],
            "messages": [{"role": "user", "content": [{"text": user}]}],
            "inferenceConfig": {"temperature": 0, "maxTokens": max_tokens},
        }
        if settings.ANSWER_RESPONSE_FORMAT == "json_schema" and schema is not None:
            # Converse's structured output: one tool whose input is the schema, forced.
            request["toolConfig"] = {
                "tools": [{"toolSpec": {"name": kind, "inputSchema": {"json": schema}}}],
                "toolChoice": {"tool": {"name": kind}},
            }
        try:
            response = self._client().converse(**request)
        except ReadTimeoutError as exc:
            _fail(
                "request_budget_exhausted" if budget.remaining() <= 0.1 else "provider_unavailable",
                exc,
            )
        except (BotoCoreError, ClientError) as exc:
            _fail("provider_unavailable", exc)
        if budget.remaining() <= 0:
            _fail("request_budget_exhausted", TimeoutError("answer arrived after the budget"))
        usage = response.get("usage") or {}
        _observe(
            kind,
            response.get("stopReason"),
            int(usage.get("inputTokens") or 0),
            int(usage.get("outputTokens") or 0),
            time.monotonic() - started,
        )
        try:
            parts = response["output"]["message"]["content"]
            used = [part["toolUse"]["input"] for part in parts if "toolUse" in part]
            if used:
                return json.dumps(used[0], ensure_ascii=False)
            return "".join(part["text"] for part in parts if "text" in part)
        except (KeyError, TypeError) as exc:
            _fail("malformed_output", exc)
        raise AssertionError("unreachable")


def _fail(reason: str, exc: BaseException) -> None:
    logger.warning("provider call failed (%s): %r", reason, exc)
    PROVIDER_ERRORS.labels(reason).inc()
    raise ProviderError(reason, repr(exc)) from exc


def get_provider() -> Provider | None:
    """The configured provider, or None in the default no-model mode."""
    if settings.ANSWER_PROVIDER == "disabled":
        return None
    if settings.ANSWER_PROVIDER == "openai":
        return OpenAICompatibleProvider(
            settings.ANSWER_BASE_URL, settings.ANSWER_MODEL, settings.ANSWER_API_KEY
        )
    return BedrockProvider(settings.ANSWER_MODEL, settings.AWS_REGION)


def parse_json_object(text: str) -> dict[str, object]:
    """The JSON object a model returned, tolerating a ```json fence; else malformed_output."""
    cleaned = text.strip()
    if cleaned.startswith("```"):
        cleaned = cleaned.strip("`")
        cleaned = cleaned[4:] if cleaned.lower().startswith("json") else cleaned
    start, end = cleaned.find("{"), cleaned.rfind("}")
    if start < 0 or end <= start:
        raise ProviderError("malformed_output", "no JSON object")
    try:
        value = json.loads(cleaned[start : end + 1])
    except json.JSONDecodeError as exc:
        raise ProviderError("malformed_output", exc.msg) from exc
    if not isinstance(value, dict):
        raise ProviderError("malformed_output", "not an object")
    return value
