"""A pass-through recorder between duocthu and an OpenAI-compatible server on this machine:
every request is forwarded unchanged, and each call (the prompt as sent, the reply verbatim)
is appended as one JSON line in the format of ../shared/recordings/small-model-2026-12-01/
(`path`, `system`, `user`, `max_tokens`, `response_format`, `status`, `seconds`, `content`,
`finish_reason`, `usage`, `t0`).

    .venv/bin/python bench/record_model.py --upstream http://127.0.0.1:8111 --port 8112 \
        --out answering/tests/fixtures/recordings/gemma-json_schema.jsonl

then point ANSWER_BASE_URL (or bench/model_report.py --url) at http://127.0.0.1:8112/v1.
Listens on 127.0.0.1 only and forwards to --upstream only; stops on Ctrl-C.
"""

import argparse
import json
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

_LOCK = threading.Lock()


class _Recorder(BaseHTTPRequestHandler):
    upstream = ""
    out = Path()

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
            with urllib.request.urlopen(request, timeout=600) as response:
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
    parser.add_argument("--upstream", required=True, help="http://127.0.0.1:PORT")
    parser.add_argument("--port", type=int, default=8112)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if not args.upstream.startswith(("http://127.0.0.1", "http://localhost")):
        parser.error("--upstream must be a server on this machine")
    _Recorder.upstream = args.upstream.rstrip("/")
    _Recorder.out = args.out
    args.out.parent.mkdir(parents=True, exist_ok=True)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), _Recorder)
    print(f"recording 127.0.0.1:{args.port} -> {args.upstream} into {args.out}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        server.server_close()


if __name__ == "__main__":
    main()
