"""Plain ranked retrieval alone, as result lines `check_ward.py` scores (issue 17's floor).

No understanding rules: the drugs are the names the resolver finds in the question (with the
history's when it finds none), the paragraphs are ranked by BM25 over those drugs' chunks
(`retrieval.ranked`, IDF from the whole book), and the best ones are shown up to 700
characters; with no drug named, over the whole book's Chỉ định, Tác dụng không mong muốn and
Chống chỉ định (`answering.plain`; `manage.py compare` prints it beside duocthu per kind).
Compare with `ask --batch` on the same cases:

    .venv/bin/python bench/plain_ranked.py CASES.jsonl > /tmp/plain.jsonl
    python3 ../shared/eval/check_ward.py CASES.jsonl /tmp/plain.jsonl
"""

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "duocthu.settings")

from duocthu.devdb import use_embedded_database  # noqa: E402

use_embedded_database()
import django  # noqa: E402

django.setup()

from answering.plain import plain_answer  # noqa: E402

if __name__ == "__main__":
    for line in open(sys.argv[1], encoding="utf-8"):
        if line.strip():
            case = json.loads(line)
            result = plain_answer(case["question"], case.get("history") or [])
            print(json.dumps({"id": case["id"], **result.as_dict()}, ensure_ascii=False))
