"""The judge canary a surface judge fails, and `check_judge` calibrated both ways (issue 20),
against fake judges on 127.0.0.1: one that rejects everything, one that accepts everything,
one that checks only surface features (every word and number of the claim in the block) and
a careful one (the claim is the block's own words)."""

import json
import re
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from answering.canary import planted
from answering.grounding import sentences
from answering.turn import answer_turn
from corpus.text import words
from retrieval.queries import find_by_section

from .conftest import answer, block_index, understood

pytestmark = pytest.mark.django_db

Judge = Callable[[str, str], bool]
_BLOCK = re.compile(r"^\[(\d+)\] [^\n]*\n(.*?)(?=\n\n\[\d+\] |\n\n<<</BANG_CHUNG>>>)", re.S | re.M)
_CLAIM = re.compile(r"^CLAIM (\d+): (.*?)\nĐỐI CHIẾU VỚI: ([^\n]*)$", re.S | re.M)


def _squash(text: str) -> str:
    return " ".join(text.split()).rstrip(" .;")


def surface(claim: str, block: str) -> bool:
    """Every word and number of the claim is somewhere in the block."""
    return set(words(claim)) <= set(words(block))


def careful(claim: str, block: str) -> bool:
    """The claim says what the block says, word for word."""
    return _squash(claim) in _squash(block)


JUDGES: dict[str, Judge] = {
    "reject-all": lambda claim, block: False,
    "accept-all": lambda claim, block: True,
    "surface": surface,
    "careful": careful,
}


class _Judge(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        prompt = body["messages"][1]["content"]
        blocks = dict(_BLOCK.findall(prompt))
        verdicts = []
        for n, claim, where in _CLAIM.findall(prompt):
            cited = " ".join(blocks[i] for i in re.findall(r"\d+", where))
            verdicts.append(
                {"index": int(n), "supported": self.server.judge(claim, cited), "reason": ""}  # type: ignore[attr-defined]
            )
        content = json.dumps({"claims": verdicts, "complete": True, "missing": []})
        data = json.dumps(
            {"choices": [{"message": {"content": content}, "finish_reason": "stop"}]}
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def judge_server(settings) -> Iterator[Callable[[Judge], None]]:  # type: ignore[no-untyped-def]
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Judge)
    threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
    ).start()
    settings.ANSWER_PROVIDER = "openai"
    settings.ANSWER_BASE_URL = f"http://127.0.0.1:{server.server_port}/v1"
    settings.ANSWER_MODEL = "fake-judge"

    def use(judge: Judge) -> None:
        server.judge = judge  # type: ignore[attr-defined]

    yield use
    server.shutdown()


def _check_judge() -> tuple[str, str | None]:
    out = StringIO()
    try:
        call_command("check_judge", "--claims", "5", stdout=out)
    except CommandError as exc:
        return out.getvalue(), str(exc)
    return out.getvalue(), None


def test_check_judge_refuses_reject_all_accept_all_and_surface_judges_and_passes_a_careful_one(
    judge_server,  # type: ignore[no-untyped-def]
) -> None:
    results = {}
    for name, judge in JUDGES.items():
        judge_server(judge)
        results[name] = _check_judge()
        print(f"--- {name}\n{results[name][0]}{results[name][1] or ''}")  # the README's output
    assert "rejects claims their block supports" in (results["reject-all"][1] or "")
    assert "accepts claims their block does not support" in (results["accept-all"][1] or "")
    assert "accepts claims their block does not support" in (results["surface"][1] or "")
    assert results["careful"][1] is None
    for output, _ in results.values():  # both rates printed every time
        assert "supported claims accepted: " in output and "unsupported claims accepted: " in output
    # Every plant passes a surface judge: all its words and numbers are in the block.
    assert "unsupported claims accepted: 10/10 (1.00)" in results["surface"][0]
    assert "supported claims accepted: 10/10 (1.00)" in results["careful"][0]


def test_every_plant_passes_a_surface_judge_and_fails_a_careful_one() -> None:
    kinds = set()
    for drug in ("paracetamol", "amoxicilin", "ibuprofen", "metformin", "aspirin"):
        for section in ("lieu_luong_va_cach_dung", "than_trong"):
            for block in find_by_section(drug, section):
                kind, plant = planted(block)
                if kind in ("amount swapped", "population swapped"):
                    kinds.add(kind)
                    assert not careful(plant, block.text), plant
                # Every word and number of an amount swap is in the block; of a population swap
                # too when the block names both populations.
                both = all(p in block.text.lower() for p in ("trẻ em", "người lớn"))
                if kind == "amount swapped" or (kind == "population swapped" and both):
                    assert surface(plant, block.text), plant
                real = next((s for s in sentences(block.text) if len(s) > 20), None)
                if real:
                    assert careful(real, block.text)
    assert kinds == {"amount swapped", "population swapped"}


def test_a_surface_judge_voids_its_verdict_in_a_turn(judge_server) -> None:  # type: ignore[no-untyped-def]
    from .conftest import ScriptedModel, _serve

    question = "Liều paracetamol cho người lớn?"
    n = block_index(question, "tối đa là 4 g/ngày")
    judge_server(surface)
    # Frame and answer from a scripted server, the verdict from the surface judge.
    scripted = _serve()
    scripted.replies += [understood(question), answer("Người lớn tối đa là 4 g/ngày", [n])]  # type: ignore[attr-defined]

    class Split(ScriptedModel):
        def complete(self, system, user, budget, max_tokens=2000, *, kind="answer", schema=None):  # type: ignore[no-untyped-def]
            if kind == "judge":
                from answering.providers import get_provider

                return get_provider().complete(system, user, budget, max_tokens, kind=kind)  # type: ignore[union-attr]
            return super().complete(system, user, budget, max_tokens, kind=kind, schema=schema)

    model = Split(f"http://127.0.0.1:{scripted.server_port}/v1", "m", "k")
    model.server = scripted
    result = answer_turn(question, provider=model)
    scripted.shutdown()
    assert result.reason == "judge_unreliable" and result.mode == "book_after_model_failed"
    assert "tối đa là 4 g/ngày" in result.answer_text  # the book's text under the line
