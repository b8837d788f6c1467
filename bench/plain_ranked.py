"""Plain ranked retrieval alone, as result lines `check_ward.py` scores (issue 17's floor).

No understanding rules: the drugs are the names the resolver finds in the question (with the
history's when it finds none), the paragraphs are ranked by BM25 over those drugs' chunks
(`retrieval.ranked`, IDF from the whole book), and the best ones are shown up to VIEW
characters; with no drug named, over the whole book's Chỉ định, Tác dụng không mong muốn and
Chống chỉ định. Compare with `ask --batch` on the same cases:

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

from retrieval.catalog import get_resolver  # noqa: E402
from retrieval.ranked import ranked_evidence  # noqa: E402

VIEW = int(os.environ.get("PLAIN_VIEW", "700"))
NO_DRUG_SECTIONS = ("chi_dinh", "tac_dung_khong_mong_muon", "chong_chi_dinh")


def answer(case: dict) -> dict:
    question = case["question"]
    drugs = get_resolver().resolve(question)
    for earlier in reversed(case.get("history") or []):
        if drugs:
            break
        drugs = get_resolver().resolve(earlier)
    query = " ".join([*(case.get("history") or []), question]) if not drugs else question
    found = ranked_evidence(query, drugs or None, None if drugs else NO_DRUG_SECTIONS, k=12)
    blocks, shown = [], 0
    for e in found:
        collapsed = shown >= VIEW
        shown += len(e.text)
        blocks.append(
            {
                "title": f"{e.drug_name} · {e.section_title}",
                "section_key": e.section_key,
                "drug_id": e.drug_id,
                "claims": [[e.text, [len(blocks) + 1]]],
                "collapsed": collapsed,
            }
        )
    return {
        "id": case["id"],
        "decision": "answer" if found else "abstain",
        "reason": "plain_ranked",
        "frame": {"drugs": list(drugs), "attribute": found[0].section_key if found else None},
        "answer_text": "\n\n".join(e.text for e in found),
        "citations": [{"drug_id": e.drug_id, "section_key": e.section_key} for e in found],
        "blocks": blocks,
        "disclaimer": "plain ranked retrieval",
    }


if __name__ == "__main__":
    for line in open(sys.argv[1], encoding="utf-8"):
        if line.strip():
            print(json.dumps(answer(json.loads(line)), ensure_ascii=False))
