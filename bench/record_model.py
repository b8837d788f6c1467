"""A pass-through recorder between duocthu and an OpenAI-compatible server on this machine:
every request is forwarded unchanged, and each call (the prompt as sent, the reply verbatim)
is appended as one JSON line in the format of ../shared/recordings/small-model-2026-12-01/
(`path`, `system`, `user`, `max_tokens`, `response_format`, `status`, `seconds`, `content`,
`finish_reason`, `usage`, `t0`).

    .venv/bin/python bench/record_model.py --upstream http://127.0.0.1:8111 --port 8112 \
        --out answering/tests/fixtures/recordings/gemma-json_schema.jsonl

then point ANSWER_BASE_URL (or bench/model_report.py --url) at http://127.0.0.1:8112/v1.
Listens on 127.0.0.1 only and forwards to --upstream only; stops on Ctrl-C.

    .venv/bin/python bench/record_model.py --strip RECORDED.jsonl OUT.jsonl.gz

writes a recording fit to keep in the project: each call's prompt (`system`, `user`: the
book's passages are in them) replaced by its `kind` (frame, answer, judge), the user's
`question` as fenced in the prompt and `prompt_chars`; the replay test matches on these.
"""

import argparse
import gzip
import json
import re
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

_LOCK = threading.Lock()
_QUESTION = re.compile(r"<<<CAU_HOI_NGUOI_DUNG>>>\n(.*?)\n<<</CAU_HOI_NGUOI_DUNG>>>", re.S)


def kind_of(system: str) -> str:
    """The call kind by the system prompt's first words (answering/prompts.py)."""
    if system.startswith("Bạn phân tích câu hỏi"):
        return "frame"
    if system.startswith("Bạn là người đối chiếu"):
        return "judge"
    return "answer"


def stripped(row: dict[str, object]) -> dict[str, object]:
    """One recorded call without its prompt text: kind, question and the prompt's length."""
    system, user = str(row.pop("system") or ""), str(row.pop("user") or "")
    found = _QUESTION.search(user)
    question = " ".join(found.group(1).split()) if found else ""
    return {"kind": kind_of(system), "question": question, "prompt_chars": len(system + user)} | row


def strip(source: Path, target: Path) -> None:
    rows = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines() if line]
    with gzip.open(target, "wt", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(stripped(row), ensure_ascii=False) + "\n")
    print(f"{len(rows)} calls from {source} into {target}, prompts left out")


class _Recorder(BaseHTTPRequestHandler):
    upstream = ""
    out = Path()
    timeout = 600.0

    def do_POST(self) -> None:  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        started, t0 = time.perf_counter(), time.time()
        request = urllib.request.Request(
            self.upstream + self.path,
            data=body,
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                status, data = response.status, response.read()
        except urllib.error.HTTPError as exc:
            status, data = exc.code, exc.read()
        except (urllib.error.URLError, TimeoutError) as exc:
            status, data = 502, json.dumps({"error": str(exc)}).encode()
        # Recorded first: a client that gave up (its turn's budget) has closed the socket.
        self._record(json.loads(body), status, data, time.perf_counter() - started, t0)
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _record(
        self, sent: dict[str, object], status: int, data: bytes, seconds: float, t0: float
    ) -> None:
        messages = sent.get("messages") or [{}, {}]
        try:
            reply = json.loads(data)
            choice = reply["choices"][0]
            content, finish, usage = (
                choice["message"]["content"],
                choice.get("finish_reason"),
                reply.get("usage"),
            )
        except (ValueError, KeyError, IndexError, TypeError):
            content, finish, usage = data.decode("utf-8", "replace")[:2000], None, None
        row = {
            "path": self.path,
            "system": messages[0].get("content"),  # type: ignore[index, union-attr]
            "user": messages[1].get("content"),  # type: ignore[index, union-attr]
            "max_tokens": sent.get("max_tokens"),
            "response_format": sent.get("response_format"),
            "status": status,
            "seconds": round(seconds, 2),
            "content": content,
            "finish_reason": finish,
            "usage": usage,
            "t0": round(t0, 2),
        }
        with _LOCK, self.out.open("a", encoding="utf-8") as file:
            file.write(json.dumps(row, ensure_ascii=False) + "\n")

    def log_message(self, *args: object) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", help="http://127.0.0.1:PORT")
    parser.add_argument("--port", type=int, default=8112)
    parser.add_argument("--out", type=Path)
    # Just over the app's turn budget: closing the connection of a call the app gave up on
    # stops llama-server's work on it (under json_schema Gemma 3 270M decoded 2 tokens/s, and
    # abandoned answer calls ran on to max_tokens, slowing every call after them).
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per upstream call")
    parser.add_argument("--strip", nargs=2, type=Path, metavar=("RECORDED", "OUT_GZ"))
    args = parser.parse_args()
    if args.strip:
        strip(*args.strip)
        return
    if not args.upstream or not args.out:
        parser.error("--upstream and --out are required (or --strip RECORDED OUT_GZ)")
    if not args.upstream.startswith(("http://127.0.0.1", "http://localhost")):
        parser.error("--upstream must be a server on this machine")
    _Recorder.upstream = args.upstream.rstrip("/")
    _Recorder.out = args.out
    _Recorder.timeout = args.timeout
    args.out.parent.mkdir(parents=True, exist_ok=True)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), _Recorder)
    print(f"recording 127.0.0.1:{args.port} -> {args.upstream} into {args.out}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        server.server_close()


if __name__ == "__main__":
    main()
