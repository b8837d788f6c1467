"""The optional reranker, against a small fake /rerank server on 127.0.0.1; fail-open."""

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from retrieval.queries import free_form, lexical_search
from retrieval.rerank import rerank

pytestmark = pytest.mark.django_db


class _Reverse(BaseHTTPRequestHandler):
    """Ranks documents in reverse order, so that a reordering is visible."""

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.server.broken:  # type: ignore[attr-defined]
            self.send_response(500)
            self.end_headers()
            return
        n = len(body["documents"])
        results = [{"index": i, "relevance_score": i / n} for i in range(n)]
        payload = json.dumps({"results": results}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def rerank_server(settings) -> Iterator[HTTPServer]:  # type: ignore[no-untyped-def]
    server = HTTPServer(("127.0.0.1", 0), _Reverse)
    server.broken = False  # type: ignore[attr-defined]
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
    )
    thread.start()
    settings.RERANK_PROVIDER = "openai"
    settings.RERANK_MODEL = "bge-reranker"
    settings.RERANK_BASE_URL = f"http://127.0.0.1:{server.server_port}/v1"
    yield server
    server.shutdown()


def test_the_reranker_reorders_the_top_hits(rerank_server: HTTPServer) -> None:
    hits = lexical_search("loét dạ dày chảy máu", drug_id="ibuprofen")
    assert len(hits) >= 3
    reranked = rerank("loét dạ dày chảy máu", hits, top_k=2)
    assert [e.chunk_id for e in reranked[:2]] == [hits[-1].chunk_id, hits[-2].chunk_id]
    assert {e.chunk_id for e in reranked} == {e.chunk_id for e in hits}


def test_a_failing_reranker_fails_open_and_packing_still_bounds(rerank_server: HTTPServer) -> None:
    rerank_server.broken = True  # type: ignore[attr-defined]
    hits = lexical_search("loét dạ dày chảy máu", drug_id="ibuprofen")
    assert rerank("loét dạ dày chảy máu", hits) == hits
    packed = free_form("loét dạ dày chảy máu", "ibuprofen", max_tokens=300)
    assert packed.evidence and sum(e.tokens() for e in packed.evidence) <= 300
