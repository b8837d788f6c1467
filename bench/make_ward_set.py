"""Write the project's book-wide ward question set (bench/ward_set_book.jsonl) from the book.

For each loaded monograph, four of its sections in turn (so every section of the book is
asked about), one question each in a ward shape: the section asked as wards ask it (lay
words, the pharmacists' abbreviations CCĐ / TDKMM / PNCT / TTT), the drug named by its
heading, a brand from the book's index or a ward short form, typed with or without
diacritics; every fifth a follow-up whose earlier question asked something else about the
drug; and must-abstain questions (a name made up from the drug's, a brand of a monograph
that is not loaded). Each line carries the verbatim key fact: the start of the section's
first paragraph, which the answer must quote. Scored by bench/ward_set.py.

    .venv/bin/python bench/make_ward_set.py && .venv/bin/python bench/ward_set.py bench/ward_set_book.jsonl
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

from answering.management.commands.evaluate_book import drug_names  # noqa: E402
from corpus.models import BookIndexEntry, Chunk, Drug  # noqa: E402
from corpus.text import fold  # noqa: E402
from retrieval.catalog import get_resolver  # noqa: E402

OUT = ROOT / "bench" / "ward_set_book.jsonl"
# How wards ask for each section; {n} is the drug.
ASKS = {
    "ten_chung_quoc_te": "tên quốc tế của {n} là gì",
    "ma_atc": "mã ATC của {n}",
    "loai_thuoc": "{n} thuộc nhóm thuốc nào",
    "dang_thuoc_va_ham_luong": "{n} có những dạng bào chế và hàm lượng nào",
    "duoc_ly_va_co_che_tac_dung": "cơ chế tác dụng của {n}",
    "duoc_dong_hoc": "thời gian bán thải của {n}",
    "chi_dinh": "{n} dùng trong những trường hợp nào",
    "chong_chi_dinh": "CCĐ của {n}",
    "than_trong": "cần lưu ý gì khi dùng {n}",
    "thoi_ky_mang_thai": "{n} cho PNCT được không",
    "thoi_ky_cho_con_bu": "mẹ đang cho con bú dùng {n} được không",
    "tac_dung_khong_mong_muon": "TDKMM của {n}",
    "huong_dan_cach_xu_tri_adr": "xử trí tác dụng phụ của {n} thế nào",
    "lieu_luong_va_cach_dung": "liều {n} cho người lớn",
    "tuong_tac_thuoc": "{n} có tương tác với thuốc nào",
    "tuong_ky": "{n} có tương kỵ với gì",
    "do_on_dinh_va_bao_quan": "bảo quản {n} thế nào",
    "qua_lieu_va_xu_tri": "quá liều {n} xử trí ra sao",
    "thong_tin_quy_che": "{n} có phải thuốc kê đơn không, quy chế thế nào",
    "ten_thuong_mai": "biệt dược của {n} là gì",
}
EARLIER = "{n} là thuốc gì?"
KEY_FACT_CHARS = 40


def main() -> None:
    rows = []
    drugs = list(Drug.objects.order_by("drug_id"))
    for n, drug in enumerate(drugs):
        names = drug_names(drug, short_forms=True)
        sections = [
            s
            for s in drug.sections.order_by("order").values_list("section_key", flat=True)
            if s in ASKS
        ]
        for k in range(4):
            if not sections:
                break
            key = sections[(4 * n + k) % len(sections)]
            first = (
                Chunk.objects.filter(section__drug=drug, section__section_key=key, kind="prose")
                .order_by("part_index")
                .first()
            )
            if first is None or len(first.text) < KEY_FACT_CHARS:
                continue
            name = names[(n + k) % len(names)]
            question = ASKS[key].format(n=name)
            if (n + k) % 2:
                question = fold(question)
            row = {
                "id": f"book-{drug.drug_id}-{key}",
                "question": question,
                "expect": {
                    "drugs": [drug.drug_id],
                    "attribute": key,
                    "must_contain": first.text[:KEY_FACT_CHARS],
                },
            }
            if (n + k) % 5 == 0 and key != "duoc_ly_va_co_che_tac_dung":
                row["history"] = [EARLIER.format(n=name)]
            rows.append(row)
        made_up = names[0].replace(" ", "")[:-1] + "zol" if len(names[0]) > 5 else names[0] + "xan"
        if n % 3 == 0 and not get_resolver().resolve(made_up):
            rows.append(
                {
                    "id": f"abstain-{drug.drug_id}",
                    "question": f"liều {made_up} cho người lớn",
                    "expect": {"decision": "abstain", "drugs": []},
                }
            )
    not_loaded = (
        BookIndexEntry.objects.exclude(ingredient_id__in=[d.drug_id for d in drugs])
        .order_by("name")
        .values_list("name", flat=True)
    )
    resolver = get_resolver()
    picked = [b for b in not_loaded if len(b) >= 6 and not resolver.resolve(b)][::400][:20]
    for brand in picked:
        rows.append(
            {
                "id": f"not-loaded-{fold(brand).replace(' ', '-')}",
                "question": f"{brand} dùng cho bà bầu được không?",
                "expect": {"decision": "abstain", "drugs": []},
            }
        )
    OUT.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    monographs = {
        r["id"].split("-", 1)[1].rsplit("-", 1)[0] for r in rows if r["id"].startswith("book-")
    }
    sections = {r["expect"].get("attribute") for r in rows} - {None}
    print(f"{len(rows)} questions, {len(monographs)} monographs, {len(sections)} sections -> {OUT}")


if __name__ == "__main__":
    main()
