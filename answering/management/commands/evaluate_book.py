"""Questions generated from every loaded monograph's own text, and how well they are answered.

Three templates, each in several phrasings, with and without diacritics:
- situation: a condition from a Chống chỉ định / Thận trọng line, asked as "<name or brand>
  dùng cho người <condition> được không?" — expected: the drug, and a section that holds the
  condition (the frame's section or one the answer cites);
- dose: each population label of the Liều lượng section ("Người lớn", "Trẻ em", "Người suy
  thận") asked as a dose question — expected: the drug and Liều lượng và cách dùng;
- combination: each loaded drug the Tương tác thuốc section names, asked with this one —
  expected: both drugs and Tương tác thuốc;
- antidote: each loaded drug the Quá liều và xử trí section names, asked as given "for" this
  one with no overdose word — expected: this drug and Quá liều và xử trí.
No line is written by hand, so no single phrasing can be tuned to. Prints accuracy per template
and overall; --write FILE keeps the generated set (JSONL, the dev-set format).
"""

import json
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from answering.delivery import Delivery, delivery
from answering.delivery import tally as tally_delivery
from answering.ranking import label_populations
from answering.turn import answer_turn
from corpus.models import Alias, Chunk, Drug
from corpus.text import fold, folded_phrase, heading_parts
from retrieval.catalog import get_resolver
from retrieval.evidence import Outcome
from retrieval.name_forms import ABBREVIATIONS
from retrieval.pairs import names_printed_for

SITUATION = (
    "{name} dùng cho người {phrase} được không?",
    "bệnh nhân {phrase} có dùng {name} được không",
    "{name} có dùng được cho người {phrase} không ạ",
)
DOSE = (
    "Liều {name} cho {label}?",
    "{name} dùng cho {label} liều bao nhiêu",
)
# An antidote asked without "quá liều"/"ngộ độc": a loaded drug the overdose section names.
ANTIDOTE = (
    "{other} cho {name} liều thế nào",
    "dùng {other} trung hòa {name} bao nhiêu",
)
COMBINATION = (
    "{name} dùng chung với {other} được không?",
    "đang dùng {other} thêm {name} có sao không",
)
# Condition clauses: short, no numbers, after the book's usual lead words.
_LEAD = re.compile(
    r"^(?:người bệnh|người|bệnh nhân|trẻ em|phụ nữ|những người|các trường hợp|trường hợp|"
    r"có tiền sử|tiền sử|đang|bị|có)\s+",
    re.IGNORECASE,
)
_CLAUSE_SPLIT = re.compile(r"[.;:,()\n]|\s(?:hoặc|và|hay)\s")
# A clause with these words is an instruction or a remark, not a condition a patient has.
_NOT_A_CONDITION = re.compile(
    r"\b(?:dùng|liều|thuốc|chú ý|đặc biệt|không được|tác dụng|với|nên|cần|phải|khi)\b", re.I
)
_POPULATION_LABEL = re.compile(
    r"(người lớn|trẻ em|người cao tuổi|người suy thận|người suy gan|trẻ sơ sinh)", re.I
)
PER_TEMPLATE = 3  # items per monograph and template


def _conditions(drug: Drug) -> Iterator[str]:
    chunks = Chunk.objects.filter(
        section__drug=drug, section__section_key__in=["chong_chi_dinh", "than_trong"]
    ).order_by("section__order", "part_index")
    seen: set[str] = set()
    for chunk in chunks:
        for clause in _CLAUSE_SPLIT.split(chunk.text):
            phrase = _LEAD.sub("", clause.strip().strip("*").strip()).lower()
            n = len(phrase.split())
            if (
                2 <= n <= 5
                and not re.search(r"\d", phrase)
                and not _NOT_A_CONDITION.search(phrase)
                and fold(phrase) not in seen
            ):
                seen.add(fold(phrase))
                yield phrase


def _sections_holding(drug: Drug, phrase: str) -> set[str]:
    target = folded_phrase(phrase)
    return {
        key
        for key, text in Chunk.objects.filter(section__drug=drug).values_list(
            "section__section_key", "text"
        )
        if target in folded_phrase(text)
    }


def drug_names(drug: Drug, *, short_forms: bool = False) -> list[str]:
    """The monograph's own name, (its ward short forms,) and a brand that names only it."""
    names = [heading_parts(drug.heading)[0].lower()]
    if short_forms:
        names += [s for s, d in ABBREVIATIONS.items() if d == drug.drug_id]
    resolver = get_resolver()
    for brand in Alias.objects.filter(drug=drug, kind=Alias.Kind.BRAND_INDEX).order_by("name"):
        if len(brand.name) >= 5 and resolver.resolve(brand.name) == (drug.drug_id,):
            names.append(brand.name)
            break
    return names


def generate(drug_ids: list[str] | None = None) -> Iterator[dict[str, Any]]:
    drugs = Drug.objects.order_by("drug_id")
    if drug_ids:
        drugs = drugs.filter(drug_id__in=drug_ids)
    resolver = get_resolver()
    for drug in drugs:
        names = drug_names(drug)
        for n, phrase in enumerate(list(_conditions(drug))[:PER_TEMPLATE]):
            sections = _sections_holding(drug, phrase)
            for k, template in enumerate(SITUATION):
                yield _item(
                    "situation",
                    drug,
                    {drug.drug_id},
                    sections,
                    template.format(name=names[(n + k) % len(names)], phrase=phrase),
                    k,
                    phrase,
                )
        labels: dict[str, str] = {}  # population label -> the first words of its paragraph
        for label, text in (
            Chunk.objects.filter(section__drug=drug, section__section_key="lieu_luong_va_cach_dung")
            .order_by("part_index")
            .values_list("label", "text")
        ):
            for found in _POPULATION_LABEL.findall(label):
                labels.setdefault(found.lower(), " ".join(text.split()[:8]))
        for n, (label, opening) in enumerate(list(labels.items())[:PER_TEMPLATE]):
            for k, template in enumerate(DOSE):
                question = template.format(name=names[(n + k) % len(names)], label=label)
                yield _item(
                    "dose", drug, {drug.drug_id}, {"lieu_luong_va_cach_dung"}, question, k, opening
                )
        interaction = " ".join(
            Chunk.objects.filter(
                section__drug=drug, section__section_key="tuong_tac_thuoc"
            ).values_list("text", flat=True)
        )
        overdose = " ".join(
            Chunk.objects.filter(
                section__drug=drug, section__section_key="qua_lieu_va_xu_tri"
            ).values_list("text", flat=True)
        )
        for n, other in enumerate(
            [d for d in resolver.resolve(overdose) if d != drug.drug_id][:PER_TEMPLATE]
        ):
            other_name = heading_parts(resolver.display.get(other, other))[0].lower()
            for k, template in enumerate(ANTIDOTE):
                question = template.format(name=names[(n + k) % len(names)], other=other_name)
                yield _item(
                    "antidote",
                    drug,
                    {drug.drug_id},
                    {"qua_lieu_va_xu_tri"},
                    question,
                    k,
                    names_printed_for(other),
                )
        others = [d for d in resolver.resolve(interaction) if d != drug.drug_id][:PER_TEMPLATE]
        for n, other in enumerate(others):
            other_name = heading_parts(resolver.display.get(other, other))[0].lower()
            for k, template in enumerate(COMBINATION):
                question = template.format(name=names[(n + k) % len(names)], other=other_name)
                yield _item(
                    "combination",
                    drug,
                    {drug.drug_id, other},
                    {"tuong_tac_thuoc"},
                    question,
                    k,
                    names_printed_for(other),
                )


def _item(
    template: str,
    drug: Drug,
    drugs: set[str],
    sections: set[str],
    question: str,
    k: int,
    key: str | list[str],
) -> dict[str, Any]:
    # Every other phrasing is typed without diacritics, as wards often do.
    return {
        "id": f"book-{drug.drug_id}-{template}-{abs(hash(question)) % 10**8}",
        "template": template,
        "question": fold(question) if k % 2 else question,
        # The key fact: the book's phrase the answer must show (the condition, the population
        # label, the other drug), for issue 11's delivery measure.
        "expect": {"drugs": sorted(drugs), "sections": sorted(sections), "key": key},
    }


def _other_population_first(result: Any) -> bool:
    """Issue 11's unsafe proxy for a dose: the first dose paragraph in view is headed for
    another population than the one asked (an adult's question served a child's band)."""
    asked = result.frame.population or "nguoi_lon"
    for block in result.blocks:
        if (
            block.collapsed
            or block.section_key != "lieu_luong_va_cach_dung"
            or " · " not in block.title
        ):
            continue
        heading = block.title.split(" · ", 2)[-1] if block.title.count(" · ") >= 2 else ""
        named = label_populations(heading)
        return bool(named) and asked not in named
    return False


def score(item: dict[str, Any]) -> tuple[bool, bool, Delivery, bool]:
    """(drug right, section right, how the key fact was delivered, answered) for one item."""
    result = answer_turn(item["question"], provider=None)
    frame = result.frame
    expected = set(item["expect"]["drugs"])
    drug_ok = expected <= set(frame.drugs)
    shown = {c.section_key for c in result.citations} | {frame.attribute}
    section_ok = bool(shown & set(item["expect"]["sections"]))
    # A child's dose asked without age or weight is asked back: that is the answer, not a miss.
    answered = result.decision in (Outcome.ANSWER, Outcome.VERIFY_PDF)
    if item["template"] == "dose" and answered and _other_population_first(result):
        item["unsafe"] = True
    if result.reason == "child_dose_needs_age_or_weight":
        return drug_ok, section_ok, Delivery(True, True, -1), False
    return drug_ok, section_ok, delivery(result, item["expect"]["key"]), answered


class Command(BaseCommand):
    help = "Generate questions from every loaded monograph's text and score the answers (no model)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--drugs", nargs="*", help="only these drug ids")
        parser.add_argument("--write", help="write the generated questions here (JSONL)")
        parser.add_argument("--failures", type=int, default=0, help="print this many misses")

    def handle(self, *args: Any, **options: Any) -> None:
        items = list(generate(options["drugs"]))
        if options["write"]:
            Path(options["write"]).write_text(
                "".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), encoding="utf-8"
            )
        tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
        delivered: dict[str, list[Delivery]] = defaultdict(list)
        misses = []
        for item in items:
            drug_ok, section_ok, shown, answered = score(item)
            for key in (item["template"], "overall"):
                tally[key][0] += drug_ok
                tally[key][1] += section_ok
                tally[key][2] += 1
                # Visible length counts answered turns only; an abstention shows no book text.
                delivered[key].append(shown if answered else replace(shown, visible_chars=-1))
            if not (drug_ok and section_ok):
                misses.append(f"{item['template']}: {item['question']} (expected {item['expect']})")
        monographs = len({i["id"].split("-")[1] for i in items})
        self.stdout.write(f"{len(items)} questions from {monographs} monographs")
        for key, (drugs, sections, total) in tally.items():
            self.stdout.write(
                f"{key}: drug {drugs / total:.3f} ({drugs}/{total}), "
                f"section {sections / total:.3f} ({sections}/{total})"
            )
        unsafe = sum(1 for i in items if i.get("unsafe"))
        doses = sum(1 for i in items if i["template"] == "dose")
        self.stdout.write(
            f"dose: first paragraph in view headed for another population {unsafe}/{doses}"
        )
        for key, found in delivered.items():
            counted = tally_delivery(found)
            sizes = tally_delivery(d for d in found if d.visible_chars >= 0)
            self.stdout.write(
                f"{key}: {counted.line().split(';')[0]}; visible median "
                f"{sizes.median_visible}, p90 {sizes.p90_visible} chars"
            )
        for miss in misses[: options["failures"]]:
            self.stdout.write(f"MISS {miss}")
