import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from answering.providers import OpenAICompatibleProvider, ProviderError
from answering.understanding import understand
from retrieval.retrieve import retrieve_for_frame

# A scripted ProviderError("request_budget_exhausted") stalls this long; tests that script one
# set ANSWER_BUDGET_SECONDS below it.
STALL_SECONDS = 2.0


class _FakeModelServer(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        server = self.server
        server.requests.append(body)  # type: ignore[attr-defined]
        mode = server.mode  # type: ignore[attr-defined]
        if server.replies and isinstance(server.replies[0], ProviderError):  # type: ignore[attr-defined]
            failure = server.replies.pop(0).reason  # type: ignore[attr-defined]
            mode = "error" if failure == "provider_unavailable" else "stall"
        if mode == "stall":
            time.sleep(STALL_SECONDS)  # longer than the test's budget: the client gives up
            return
        if mode == "slow":
            time.sleep(1.5)
            server.replies.append("{}")  # type: ignore[attr-defined]
        if mode == "error":
            self.send_response(503)
            self.end_headers()
            return
        if mode == "garbage":
            payload = b"<html>not json</html>"
        else:
            reply = server.replies.pop(0)  # type: ignore[attr-defined]
            finish = "stop"
            usage: dict[str, int] | None = {"prompt_tokens": 100, "completion_tokens": 20}
            if isinstance(reply, Envelope):
                finish, usage, reply = reply.finish_reason, reply.usage, reply.content
            if isinstance(reply, bytes):  # raw bytes as the whole body (invalid UTF-8 …)
                self.send_response(200)
                self.end_headers()
                self.wfile.write(reply)
                return
            if isinstance(reply, JudgeReply):
                # The verdict is written for the claims the app actually sent, plant included.
                reply = reply.verdict(body["messages"][1]["content"], server.last_claims)  # type: ignore[attr-defined]
            content = reply if isinstance(reply, str) else json.dumps(reply, ensure_ascii=False)
            claims = reply.get("claims") if isinstance(reply, dict) else None
            if isinstance(claims, list) and "evidence_sufficient" in reply:  # type: ignore[operator]
                server.last_claims = [  # type: ignore[attr-defined]
                    str(c.get("text", "")) for c in claims if isinstance(c, dict)
                ]
            payload = json.dumps(
                {
                    "choices": [
                        {
                            "message": {"role": "assistant", "content": content},
                            "finish_reason": finish,
                        }
                    ],
                    "usage": usage,
                }
            ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        """The client gave up on a slow reply on purpose (the budget test)."""


def _serve() -> ThreadingHTTPServer:
    server = _QuietServer(("127.0.0.1", 0), _FakeModelServer)
    server.last_claims = []  # type: ignore[attr-defined]
    server.requests, server.replies, server.mode = [], [], "ok"  # type: ignore[attr-defined]
    # A short poll: shutdown() waits up to one poll, 0.5 s by default, after every test.
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
    )
    thread.start()
    return server


@pytest.fixture
def model_server() -> Iterator[ThreadingHTTPServer]:
    server = _serve()
    yield server
    server.shutdown()


def served_provider(server: ThreadingHTTPServer) -> OpenAICompatibleProvider:
    return OpenAICompatibleProvider(
        f"http://127.0.0.1:{server.server_port}/v1", "qwen2.5-7b-instruct", "k"
    )


class ScriptedModel(OpenAICompatibleProvider):
    """The real OpenAI-compatible adapter, talking to a fake server on 127.0.0.1 that answers
    with scripted replies in order; it remembers every (system, user) prompt it was sent."""

    server: ThreadingHTTPServer

    @property
    def prompts(self) -> list[tuple[str, str]]:
        return [
            (r["messages"][0]["content"], r["messages"][1]["content"])
            for r in self.server.requests  # type: ignore[attr-defined]
        ]


@pytest.fixture
def scripted() -> Iterator[Callable[..., ScriptedModel]]:
    """A model whose replies are the given payloads in order; a ProviderError among them is
    played as its failure (a 503 for provider_unavailable, a stall past the budget)."""
    servers: list[ThreadingHTTPServer] = []

    def make(*replies: object) -> ScriptedModel:
        server = _serve()
        servers.append(server)
        server.replies += list(replies)  # type: ignore[attr-defined]
        model = ScriptedModel(
            f"http://127.0.0.1:{server.server_port}/v1", "qwen2.5-7b-instruct", "k"
        )
        model.server = server
        return model

    yield make
    for server in servers:
        server.shutdown()


def block_index(question: str, needle: str) -> int:
    """The 1-based evidence number of the block containing `needle` for this question."""
    from answering.ranking import focus_first

    retrieved = retrieve_for_frame(understand(question), question)
    for n, item in enumerate(focus_first(retrieved.evidence, retrieved.frame), 1):
        if needle in item.text:
            return n
    raise AssertionError(f"{needle!r} is not in the evidence of {question!r}")


def answer(text: str, cites: list[int], **extra: object) -> dict[str, object]:
    claim = {"text": text, "citations": cites, "drug_id": extra.pop("drug_id", None)}
    return {
        "claims": [claim],
        "evidence_sufficient": True,
        "clarifying_question": None,
        "quick_replies": [],
        **extra,
    }


@dataclass
class Envelope:
    """A reply with the server's own finish_reason and token usage around it."""

    content: object
    finish_reason: str = "stop"
    usage: dict[str, int] | None = None


@dataclass
class JudgeReply:
    """A judge's verdict on the real claims, in order; the planted claim (any claim of the
    judge prompt that is not part of the answer the model wrote) gets `plant_supported`."""

    supported: tuple[bool, ...]
    complete: bool = True
    missing: list[dict[str, str]] | None = None
    plant_supported: bool = False

    def verdict(self, prompt: str, answered: list[str]) -> dict[str, object]:
        claims = re.findall(r"^CLAIM (\d+): (.*)$", prompt, flags=re.MULTILINE)
        flags = list(self.supported)
        out = []
        for n, text in claims:
            real = any(text.strip() and text.strip() in a for a in answered)
            ok = (flags.pop(0) if flags else True) if real else self.plant_supported
            out.append({"index": int(n), "supported": ok, "reason": ""})
        return {"claims": out, "complete": self.complete, "missing": self.missing or []}


def judge(
    *supported: bool,
    complete: bool = True,
    missing: list[dict[str, str]] | None = None,
    plant_supported: bool = False,
) -> JudgeReply:
    return JudgeReply(supported, complete, missing, plant_supported)


def understood(question: str) -> dict[str, object]:
    """What a well-behaved model returns for understanding: the deterministic frame."""
    return {
        **understand(question).summary(),
        "context_action": "none",
        "needs_clarify": False,
        "quick_replies": [],
    }
