"""A byte-for-byte guard on what duocthu answers, without a model.

Each question's whole `ask --batch` line (decision, reason, frame, answer text, blocks,
citations, quick replies, disclaimer) is hashed and compared with the hashes recorded in
`fixtures/answers.jsonl`. Chunk ids are replaced by (drug, section, part) first, so the guard
does not depend on the order rows were inserted. A change of behaviour is made on purpose:
run with DUOCTHU_UPDATE_ANSWER_GUARD=1 (DUOCTHU_ANSWER_GUARD_DUMP=FILE writes the
whole lines to diff) and commit the new fixture with the reason.

Three sets: the development questions, a set generated from every monograph heading of the
shared corpus in the shapes wards use (with and without diacritics), and follow-up pairs
asked through the chat's conversation logic.
"""

import csv
import hashlib
import json
import os
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command

from chat.conversation import ask_in_conversation
from chat.models import Conversation
from corpus.models import Chunk
from corpus.text import fold

pytestmark = pytest.mark.django_db

FIXTURE = Path(__file__).parent / "fixtures" / "answers.jsonl"
DEV_SET = settings.BASE_DIR.parent / "shared" / "eval" / "dev.jsonl"

# Shapes of ward questions; {a} is the drug, {b} another drug.
TEMPLATES = (
    ("dose_adult", "Liều {a} cho người lớn?"),
    ("dose_child", "liều {a} cho trẻ em bao nhiêu"),
    ("dose_weight", "bé 12 kg dùng {a} liều thế nào"),
    ("dose_age", "{a} cho trẻ 5 tuổi liều bao nhiêu"),
    ("contra", "{a} chống chỉ định gì?"),
    ("caution", "Thận trọng khi dùng {a}"),
    ("pregnancy", "{a} dùng cho phụ nữ có thai được không"),
    ("breastfeeding", "Mẹ cho con bú dùng {a} được không?"),
    ("adr", "tác dụng phụ của {a}"),
    ("interaction", "{a} dùng chung với {b} được không?"),
    ("overview", "{a} là thuốc gì"),
    ("indication", "{a} dùng để trị bệnh gì"),
    ("renal", "bệnh nhân suy thận dùng {a} được không"),
    ("overdose", "quá liều {a} xử trí thế nào"),
    ("storage", "bảo quản {a} thế nào"),
    ("free", "{a} uống lúc đói hay no"),
)
CONDITIONS = (
    "Thuốc nào điều trị tăng huyết áp?",
    "có thuốc nào trị nấm candida không",
    "Thuốc nào gây hội chứng Stevens-Johnson?",
    "thuốc nào chống chỉ định với người loét dạ dày",
    "BN đang dùng warfarin, bị đau khớp dùng thuốc gì?",
    "bn dang dung metformin bi viem phoi thi dung thuoc gi",
    "Giá thuốc paracetamol bao nhiêu tiền?",
    "chó bị ghẻ dùng ivermectin được không",
    "xin chào",
    "Liều thuốc Zyxoprin cho người lớn?",
)
FOLLOW_UPS = (
    ("Liều paracetamol cho trẻ em?", "trẻ 2 - 4 tuổi"),
    ("Liều amoxicilin cho người lớn?", "còn trẻ em thì sao?"),
    ("Chống chỉ định của aspirin?", "thế còn người suy thận?"),
    ("liều vancomycin", "nếu BN 70 kg?"),
    ("Liều metformin?", "Thuốc nào gây hội chứng Stevens-Johnson?"),
    ("ibuprofen có dùng cho phụ nữ có thai không", "còn cho con bú?"),
)


def _names() -> list[str]:
    with (settings.BASE_DIR.parent / "shared" / "corpus" / "duocthu-2018" / "manifest.csv").open(
        encoding="utf-8"
    ) as f:
        return [row["heading"].split("(")[0].strip().lower() for row in csv.DictReader(f)]


def generated_questions() -> list[tuple[str, str]]:
    """Four shapes per monograph (rotating through all shapes), every other one folded."""
    names = _names()
    questions = []
    for n, name in enumerate(names):
        for k in range(4):
            key, template = TEMPLATES[(4 * n + k) % len(TEMPLATES)]
            text = template.format(a=name, b=names[(n * 7 + 3) % len(names)])
            if (n + k) % 2:
                text = fold(text)
            questions.append((f"gen-{n:03d}-{key}", text))
    questions += [(f"cond-{n:02d}", q) for n, q in enumerate(CONDITIONS)]
    questions += [(f"cond-{n:02d}-folded", fold(q)) for n, q in enumerate(CONDITIONS)]
    return questions


def _chunk_keys() -> dict[int, str]:
    rows = Chunk.objects.values_list(
        "id", "section__drug__drug_id", "section__section_key", "part_index"
    )
    return {pk: f"{drug}/{section}/{part}" for pk, drug, section, part in rows}


def _stable(line: dict[str, object], keys: dict[int, str]) -> str:
    for citation in line.get("citations", []):  # type: ignore[union-attr]
        citation["chunk_id"] = keys[citation["chunk_id"]]
    return json.dumps(line, ensure_ascii=False, sort_keys=True)


def _digest(qid: str, line: dict[str, object], keys: dict[int, str]) -> dict[str, object]:
    stable = _stable(line, keys)
    if dump := os.environ.get("DUOCTHU_ANSWER_GUARD_DUMP"):
        with open(dump, "a", encoding="utf-8") as f:  # the whole lines, to diff a change
            f.write(f"{qid}\t{stable}\n")
    return {
        "id": qid,
        "decision": line["decision"],
        "reason": line["reason"],
        "sha256": hashlib.sha256(stable.encode("utf-8")).hexdigest(),
    }


def _batch(rows: list[tuple[str, str]], tmp_path: Path) -> list[dict[str, object]]:
    path = tmp_path / "questions.jsonl"
    path.write_text(
        "".join(json.dumps({"id": i, "question": q}, ensure_ascii=False) + "\n" for i, q in rows),
        encoding="utf-8",
    )
    out = StringIO()
    call_command("ask", "--batch", str(path), stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def current_digests(tmp_path: Path) -> list[dict[str, object]]:
    dev = [(r["id"], r["question"]) for r in map(json.loads, DEV_SET.read_text().splitlines())]
    lines = _batch(dev + generated_questions(), tmp_path)
    keys = _chunk_keys()
    digests = [_digest(str(line.pop("id")), line, keys) for line in lines]
    user = get_user_model().objects.create_user("guard")
    for n, (first, second) in enumerate(FOLLOW_UPS):
        conversation = Conversation.objects.create(user=user)
        ask_in_conversation(conversation, first)
        turn = ask_in_conversation(conversation, second)
        line = {
            "decision": turn.decision,
            "reason": turn.reason,
            "frame": turn.frame,
            "answer_text": turn.answer_text,
            "blocks": turn.blocks,
            "citations": [{"chunk_id": c["chunk_id"]} for c in turn.citations],
            "quick_replies": turn.quick_replies,
            "disclaimer": turn.disclaimer,
        }
        digests.append(_digest(f"follow-{n}", line, keys))
    return digests


def test_every_answer_is_byte_for_byte_what_was_recorded(tmp_path: Path) -> None:
    got = current_digests(tmp_path)
    if os.environ.get("DUOCTHU_UPDATE_ANSWER_GUARD"):
        FIXTURE.parent.mkdir(exist_ok=True)
        FIXTURE.write_text(
            "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in got), encoding="utf-8"
        )
    recorded = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
    changed = [
        f"{r['id']}: was {r['decision']}/{r['reason']}, now {g['decision']}/{g['reason']}"
        for r, g in zip(recorded, got, strict=False)
        if r != g
    ]
    assert len(got) == len(recorded)
    assert not changed, f"{len(changed)} answers changed:\n" + "\n".join(changed[:40])
