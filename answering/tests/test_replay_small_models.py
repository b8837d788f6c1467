"""Model mode against what real small models said (issue 13): a fake OpenAI-compatible server on
127.0.0.1 answers each request with the recorded reply of Gemma 3 270M / SmolLM2 135M for the
matching request (by call kind and question; a question never recorded gets another recorded
reply of the same kind), from ../shared/recordings/small-model-2026-12-01/.

It asserts only what must hold for any model: no traceback, no 500, every outcome a named
decision with a reason, no number shown that is not verbatim in its cited block, the
disclaimer on every card, and no question the deterministic frame understands turned into
"out of scope"; and, the book being the floor (issue 20), wherever a written answer failed its
checks the card shows the book's answer under the line saying it was withheld.

The same two models under `ANSWER_RESPONSE_FORMAT=json_schema` (issue 25), recorded without
their prompts in fixtures/small-model-json-schema/: no frame value the question does not say,
a refused reply leaves the deterministic frame as it was, no decision other than no-model
mode's, the dev-003 ask-back and the dev-015 "did you mean" offer kept."""

import functools
import gzip
import json
import re
import threading
import zlib
from collections import defaultdict
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client

from answering.cues import book_words
from answering.grounding import numeric_tokens
from answering.quantities import read_quantities
from answering.results import ABSTAIN_MESSAGES, DISCLAIMER
from answering.turn import answer_in_conversation, answer_turn
from answering.understanding import understand
from corpus.text import folded_phrase
from retrieval.frame import QueryFrame
from retrieval.phrases import populations, routes

pytestmark = pytest.mark.django_db

RECORDINGS = settings.BASE_DIR.parent / "shared" / "recordings" / "small-model-2026-12-01"
DEV = settings.BASE_DIR.parent / "shared" / "eval" / "dev.jsonl"
_QUESTION = re.compile(r"<<<CAU_HOI_NGUOI_DUNG>>>\n(.*?)\n<<</CAU_HOI_NGUOI_DUNG>>>", re.S)


# The deterministic reading and the no-model answer of a dev question are the same in every
# test of the module (the same book, each test's writes rolled back): read once, not once per
# recorded model (~1.5 s of the suite's CPU).
@functools.cache
def _deterministic_frame(question: str) -> QueryFrame:
    return understand(question)


@functools.cache
def _book_answer(question: str) -> Any:
    return answer_turn(question, provider=None)


def _kind(system: str) -> str:
    if system.startswith("Bạn phân tích câu hỏi"):
        return "frame"
    if system.startswith("Bạn là người đối chiếu"):
        return "judge"
    return "answer"


def _key(system: str, user: str) -> tuple[str, str]:
    found = _QUESTION.search(user)
    return _kind(system), " ".join(found.group(1).split()) if found else ""


def _recorded(files: list[Path]) -> dict[tuple[str, str], list[dict[str, object]]]:
    calls: dict[tuple[str, str], list[dict[str, object]]] = defaultdict(list)
    for file in files:
        opened = gzip.open(file, "rt", encoding="utf-8") if file.suffix == ".gz" else file.open()
        with opened as lines:
            for line in lines:
                row = json.loads(line)
                if "kind" in row:  # kept without its prompt (bench/record_model.py --strip)
                    calls[(str(row["kind"]), str(row["question"]))].append(row)
                else:
                    calls[_key(str(row["system"]), str(row["user"]))].append(row)
    return calls


class _Replay(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        server = self.server
        key = _key(body["messages"][0]["content"], body["messages"][1]["content"])
        rows = server.calls.get(key)  # type: ignore[attr-defined]
        if not rows:  # never recorded for this question: another reply of the same kind
            server.kinds[f"{key[0]} unrecorded"] += 1  # type: ignore[attr-defined]
            same = [r for (kind, _), rs in server.calls.items() for r in rs if kind == key[0]]  # type: ignore[attr-defined]
            if not same:  # none of this kind came back in time when it was recorded
                self.send_error(503)
                return
            rows = [same[zlib.crc32(key[1].encode()) % len(same)]]
        row = rows[server.served[key] % len(rows)]  # type: ignore[attr-defined]
        server.served[key] += 1  # type: ignore[attr-defined]
        server.kinds[key[0]] += 1  # type: ignore[attr-defined]
        if row.get("status", 200) != 200:  # recorded as timed out: replayed as a server error
            self.send_error(503)
            return
        payload = {
            "choices": [
                {
                    "message": {"role": "assistant", "content": row["content"]},
                    "finish_reason": row.get("finish_reason") or "stop",
                }
            ],
            "usage": row.get("usage") or {},
        }
        data = json.dumps(payload, ensure_ascii=False).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


def _serve_replay(settings, files: list[Path]) -> ThreadingHTTPServer:  # type: ignore[no-untyped-def]
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Replay)
    server.calls = _recorded(files)  # type: ignore[attr-defined]
    server.served = defaultdict(int)  # type: ignore[attr-defined]
    server.kinds = defaultdict(int)  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    settings.ANSWER_PROVIDER = "openai"
    settings.ANSWER_BASE_URL = f"http://127.0.0.1:{server.server_port}/v1"
    settings.ANSWER_MODEL = "gemma-3-270m"
    return server


@pytest.fixture
def replay(settings) -> Iterator[ThreadingHTTPServer]:  # type: ignore[no-untyped-def]
    if not RECORDINGS.is_dir():
        pytest.skip(f"no recordings at {RECORDINGS}")
    server = _serve_replay(settings, sorted(RECORDINGS.glob("*.jsonl")))
    yield server
    server.shutdown()


_ANSWER_REASONS = {
    "grounded_answer",
    "grounded_evidence_available",
    "smalltalk",
    "visual_verification_required",
}


def _shown_numbers_are_in_their_blocks(line: dict[str, object]) -> bool:
    from corpus.models import Chunk

    ids = [c["chunk_id"] for c in line["citations"]]  # type: ignore[index, union-attr]
    # A paragraph's label is the book's text too: a lead line keeps it ("Ít gặp, 1/100 > ADR").
    texts = {
        pk: f"{label} {text}"
        for pk, label, text in Chunk.objects.filter(pk__in=ids).values_list("pk", "label", "text")
    }
    citations = {n: texts.get(pk, "") for n, pk in enumerate(ids, 1)}
    for block in line["blocks"]:  # type: ignore[union-attr]
        if block["kind"] == "notice":  # type: ignore[index]
            continue  # the app's own words (a "check the print" notice names page numbers)
        for text, cited in block["claims"]:  # type: ignore[index]
            if not cited:
                continue  # a notice of the app's own words, no number of the book
            pool = " ".join(str(citations.get(i, "")) for i in cited)
            if any(n not in numeric_tokens(pool) for n in numeric_tokens(text)):
                return False
    return True


def ungrounded(frame: dict[str, object], question: str) -> list[str]:
    """The frame's values the question does not say (issue 25), read by the deterministic
    reader of quantities and the phrase tables: a weight, an age, a population, a route, an
    unknown name that is no span of the question."""
    floor = understand(question)
    said = read_quantities(question)
    folded = f" {folded_phrase(question)} "
    checks = {
        "weight_kg": (None, said.weight_kg),
        "age_months": (None, said.age_months, floor.age_months),
        "population": (None, floor.population, *populations(question)),
        "route": (None, floor.route, *routes(question)),
    }
    out = [f"{k}={frame.get(k)!r}" for k, allowed in checks.items() if frame.get(k) not in allowed]
    for name in frame.get("unknown_drugs") or []:  # type: ignore[attr-defined]
        if name not in floor.unknown_drugs and f" {folded_phrase(name)} " not in folded:
            out.append(f"unknown_drugs={name!r}")
    return out


def _the_ask_back_and_the_offer_hold(lines: dict[str, dict[str, Any]]) -> None:
    assert lines["dev-003"]["decision"] == "clarify"  # a child's dose asks for age or weight
    offer = lines["dev-015"]
    assert "Có phải bạn muốn hỏi về «paracetamol»" in offer["answer_text"]
    assert offer["frame"]["drugs"] == []  # offered, never answered


def test_the_recorded_small_models_through_ask_batch_break_nothing(replay, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = StringIO()
    call_command("ask", "--batch", str(DEV), stdout=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    rows = [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line]
    assert len(lines) == len(rows) == 70  # no line lost
    assert replay.kinds["frame"] >= 60  # the recordings were really played
    outcomes: dict[str, int] = defaultdict(int)
    for row, line in zip(rows, lines, strict=True):
        outcomes[f"{line['decision']}:{line['reason']}"] += 1
        outcomes[str(line.get("mode", "book"))] += 1
        if line.get("mode") == "book_after_model_failed":
            assert line["decision"] in ("answer", "verify_pdf") and line["citations"], row["id"]
            withheld = [b for b in line["blocks"] if b["title"] == "Bản tóm tắt bị giữ lại"]
            assert withheld and "giữ lại" in withheld[0]["claims"][0][0], row["id"]
        assert line["decision"] in ("answer", "abstain", "clarify", "verify_pdf")
        assert (
            line["reason"] in ABSTAIN_MESSAGES
            or line["reason"] in _ANSWER_REASONS
            or line["decision"] == "clarify"
        )
        assert line["disclaimer"] == DISCLAIMER
        assert _shown_numbers_are_in_their_blocks(line), row["id"]
        floor = understand(row["question"])
        if not row.get("history") and floor.turn_type != "out_of_scope":
            assert line["frame"]["turn_type"] != "out_of_scope", row["id"]
        assert ungrounded(line["frame"], row["question"]) == [], row["id"]
    assert outcomes["book_after_model_failed"] >= 40  # the small models' answers all fail
    assert outcomes["book"] + outcomes["model"] + outcomes["book_after_model_failed"] == 70
    _the_ask_back_and_the_offer_hold({r["id"]: line for r, line in zip(rows, lines, strict=True)})


def test_the_recorded_small_models_on_the_chat_page_never_500(replay, django_user_model) -> None:  # type: ignore[no-untyped-def]
    from chat.models import Conversation, Turn

    user = django_user_model.objects.create_user("bs_replay")
    client = Client()
    client.force_login(user)
    rows = [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line][:6]
    for row in rows:
        conversation = Conversation.objects.create(user=user)
        response = client.post(
            f"/c/{conversation.pk}/ask/", {"question": row["question"]}, HTTP_HX_REQUEST="true"
        )
        assert response.status_code == 200
        assert DISCLAIMER in response.content.decode()
        assert Turn.objects.filter(conversation=conversation).count() == 1


JSON_SCHEMA = Path(__file__).parent / "fixtures" / "small-model-json-schema"
_FLAGS = {
    "renal": "suy_than",
    "hepatic": "suy_gan",
    "pregnancy": "phu_nu_mang_thai",
    "breastfeeding": "cho_con_bu",
}


def ungrounded_anywhere(frame: QueryFrame, question: str) -> list[str]:
    """`ungrounded`, and what the summary does not show: the condition, the patient (flags by
    the phrase tables, conditions, allergies and medicines by their words), pregnancy weeks,
    Clcr and the quantities the card says it understood, as the deterministic reader has them."""
    floor = _deterministic_frame(question)
    out = ungrounded(frame.summary(), question)
    words = set(folded_phrase(f"{question} {book_words(question)}").split())

    def said(value: str) -> bool:
        return set(folded_phrase(value).split()) <= words

    for name in ("pregnancy_weeks", "clcr", "quantities"):
        if getattr(frame, name) != getattr(floor, name):
            out.append(f"{name}={getattr(frame, name)!r}")
    for name in ("condition", "indication"):
        value = getattr(frame, name)
        if value and value != getattr(floor, name) and not said(value):
            out.append(f"{name}={value!r}")
    for name in ("comorbidities", "allergies", "current_medicines"):
        floor_values = getattr(floor.patient, name)
        out += [
            f"patient.{name}={v!r}"
            for v in getattr(frame.patient, name)
            if v not in floor_values and not said(v)
        ]
    for flag, population in _FLAGS.items():
        if getattr(frame.patient, flag) and not getattr(floor.patient, flag):
            if population not in populations(question):
                out.append(f"patient.{flag}")
    return out


@pytest.mark.parametrize(
    "model", ["gemma-3-270m", "smollm2-135m", "gemma-3-270m-turns", "smollm2-135m-turns"]
)
def test_the_json_schema_traffic_adds_nothing_the_question_did_not_say(  # type: ignore[no-untyped-def]
    settings, django_user_model, model: str
) -> None:
    settings.ANSWER_RESPONSE_FORMAT = "json_schema"
    server = _serve_replay(settings, [JSON_SCHEMA / f"{model}.jsonl.gz"])
    try:
        asked = {question for kind, question in server.calls if kind == "frame"}  # type: ignore[attr-defined]
        rows = [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line]
        rows = [r for r in rows if " ".join(r["question"].split()) in asked]
        assert {"dev-003", "dev-015"} <= {r["id"] for r in rows}
        lines: dict[str, dict[str, Any]] = {}
        for row in rows:
            result = answer_in_conversation([row["question"]])
            assert ungrounded_anywhere(result.frame, row["question"]) == [], row["id"]
            assert result.frame.understood_by in ("model", "merged", "deterministic"), row["id"]
            plain = _book_answer(row["question"])
            assert result.decision == plain.decision, row["id"]  # the book is the floor
            if result.frame.understood_by == "deterministic":  # the reply refused: the floor
                assert result.frame.summary() == {
                    **plain.frame.summary(),
                    "understood_by": "deterministic",
                    "understanding_note": result.frame.understanding_note,
                }, row["id"]
            lines[row["id"]] = result.as_dict()
            assert _shown_numbers_are_in_their_blocks(lines[row["id"]]), row["id"]
        assert server.kinds["frame"] == len(rows)  # type: ignore[attr-defined]
        assert not server.kinds["frame unrecorded"]  # type: ignore[attr-defined]
        _the_ask_back_and_the_offer_hold(lines)
        # The chat page, for the ask-back and the offer: no 500.
        from chat.models import Conversation

        user = django_user_model.objects.create_user(f"bs_{model}")
        client = Client()
        client.force_login(user)
        for row in rows:
            if row["id"] in ("dev-003", "dev-015"):
                conversation = Conversation.objects.create(user=user)
                response = client.post(
                    f"/c/{conversation.pk}/ask/",
                    {"question": row["question"]},
                    HTTP_HX_REQUEST="true",
                )
                assert response.status_code == 200, row["id"]
    finally:
        server.shutdown()
