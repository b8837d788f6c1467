"""An N× synthetic formulary under var/: each monograph of the shared corpus N times, the
copies under invented drug names, with the manifest and index rows to match.

Copy 0 is the book itself (byte for byte, so every 1× answer stays answerable). Copy k > 0
renames the monograph: every drug-like word of its heading and its INN line (PARACETAMOL,
Acetaminophen) becomes an invented word throughout its text, and every trade name of its
«Tên thương mại» section and of its index rows takes an invented prefix, so no name of a copy
names another drug (an ingest refuses nothing and a 1× question resolves as before). Pages
are the book's, shifted past its end per copy. The text stays under var/ (git-ignored): the
book is never copied into the project.

    .venv/bin/python bench/scale_corpus.py N [SOURCE_DIR]    # → var/scale/Nx/
"""

import csv
import hashlib
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from corpus.text import drug_id_for, fold  # noqa: E402
from retrieval.catalog import looks_vietnamese  # noqa: E402

PAGE_SHIFT = 2000  # the book has ~1,700 printed pages: a copy's pages never meet the book's
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_CONSONANTS = "bdfklmprstvz"
_VOWELS = "aeiou"
# Not renamed: salts, connectives and the scope words of a heading (the copy keeps "natri
# valproat"'s salt and "(Dùng trong hô hấp)").
_KEEP = frozenset(
    "natri kali calci magnesi hydroclorid hydrobromid sulfat citrat clorid phosphat acetat "
    "furoat maleat tartrat mesylat fumarat succinat pamoat dung trong dang tiem uong va cac "
    "acid vitamin long".split()
)


def _invented(rng: random.Random, taken: set[str]) -> str:
    while True:
        word = "".join(rng.choice(_CONSONANTS) + rng.choice(_VOWELS) for _ in range(3)) + "x"
        if word not in taken:
            taken.add(word)
            return word


def _cased(like: str, word: str) -> str:
    if like.isupper():
        return word.upper()
    return word.capitalize() if like[:1].isupper() else word


def _field(text: str, label: str) -> str:
    match = re.search(rf"\*\*{label}:?\*\*:?\s*(.*)", text)
    return match.group(1) if match else ""


def _names_to_rename(text: str, heading: str) -> set[str]:
    inn = _field(text, "T[eê]n chung qu[oố]c t[eế]")
    return {
        fold(w)
        for w in _WORD.findall(f"{heading} {inn}")
        if len(w) >= 4 and w.isascii() and fold(w) not in _KEEP and not looks_vietnamese(fold(w))
    }


def _prefixed(name: str, prefix: str) -> str:
    return prefix + name[:1].lower() + name[1:] if name[:1].isalpha() else prefix + name


def _trade_section(text: str, prefix: str) -> str:
    """The «Tên thương mại» section's names, each with the copy's prefix."""
    match = re.search(r"(## \*\*T[eê]n th[uư][oơ]ng m[aạ]i\*\*\s*\n)(.*?)(?=\n#|\Z)", text, re.S)
    if not match:
        return text
    body = match.group(2)
    lines = []
    for line in body.split("\n"):
        stars = line.startswith("*") and line.rstrip().endswith("*")
        inner = line.strip().strip("*") if stars else line
        if not inner.strip():
            lines.append(line)
            continue
        parts = [_prefixed(p.strip(), prefix) for p in inner.split(";")]
        joined = "; ".join(parts)
        lines.append(f"*{joined}*" if stars else joined)
    return text[: match.start(2)] + "\n".join(lines) + text[match.end(2) :]


def build(n: int, source: Path, out: Path) -> None:
    rng = random.Random(2018)
    taken: set[str] = set()
    (out / "monographs").mkdir(parents=True, exist_ok=True)
    (out / "book-index").mkdir(exist_ok=True)
    with (source / "manifest.csv").open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
        fields = list(reader.fieldnames or [])
    brands = list(csv.DictReader((source / "book-index/brand_index.csv").open(encoding="utf-8")))
    trades = list(csv.DictReader((source / "book-index/trade_names.csv").open(encoding="utf-8")))
    manifest, brand_rows, trade_rows = [], list(brands), list(trades)
    for row in rows:
        text = (source / row["file"]).read_text(encoding="utf-8")
        (out / row["file"]).write_text(text, encoding="utf-8")
        manifest.append(row)
    for k in range(1, n):
        prefix = _invented(rng, taken)[:3].capitalize() + str(k)
        for row in rows:
            text = (source / row["file"]).read_text(encoding="utf-8")
            original_id = drug_id_for(row["heading"])
            renames = {
                w: _invented(rng, taken) for w in sorted(_names_to_rename(text, row["heading"]))
            }

            def rename(match: re.Match[str], renames: dict[str, str] = renames) -> str:
                word = match.group(0)
                new = renames.get(fold(word))
                return _cased(word, new) if new else word

            copy = _trade_section(_WORD.sub(rename, text), prefix)
            heading = _WORD.sub(rename, row["heading"])
            file = f"monographs/{Path(row['file']).stem}-x{k}.md"
            (out / file).write_bytes(copy.encode("utf-8"))
            shifted = {
                key: str(int(row[key]) + k * PAGE_SHIFT) if row[key] else ""
                for key in ("page_start", "page_end")
            }
            manifest.append(
                {
                    **row,
                    **shifted,
                    "file": file,
                    "heading": heading,
                    "chars": str(len(copy)),
                    "sha256": hashlib.sha256(copy.encode("utf-8")).hexdigest(),
                }
            )
            ingredient = _WORD.sub(rename, heading_name(row["heading"]))
            for b in brands:
                if drug_id_for(b["active_ingredient"]) == original_id:
                    page = str(int(b["page"]) + k * PAGE_SHIFT) if b["page"] else ""
                    brand = _prefixed(b["brand"], prefix)
                    brand_rows.append(
                        {"brand": brand, "active_ingredient": ingredient, "page": page}
                    )
            for t in trades:
                if drug_id_for(t["generic"]) == original_id:
                    page = str(int(t["page"]) + k * PAGE_SHIFT) if t["page"] else ""
                    trade_rows.append(
                        {
                            **t,
                            "trade_name": _prefixed(t["trade_name"], prefix),
                            "generic": fold(ingredient).lower(),
                            "page": page,
                        }
                    )
    for name, header, data in (
        ("manifest.csv", fields, manifest),
        ("book-index/brand_index.csv", list(brands[0]), brand_rows),
        ("book-index/trade_names.csv", list(trades[0]), trade_rows),
    ):
        with (out / name).open("w", encoding="utf-8", newline="") as f:
            writer = csv.DictWriter(f, header)
            writer.writeheader()
            writer.writerows(data)
    print(
        f"{out}: {len(manifest)} monographs, {len(brand_rows)} brand and {len(trade_rows)} trade-name rows"
    )


def heading_name(heading: str) -> str:
    """The heading without its parenthetical, as the index names an ingredient."""
    return re.sub(r"\s*\(.*\)\s*$", "", heading).strip()


def main() -> None:
    n = int(sys.argv[1])
    source = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT.parent / "shared/corpus/duocthu-2018"
    build(n, source, ROOT / "var" / "scale" / f"{n}x")


if __name__ == "__main__":
    main()
