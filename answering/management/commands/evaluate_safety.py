"""How safe the answers are, on questions generated from every loaded monograph's own lines.

Issue 18's done-when measurements. No line is written by hand; each generated question carries
a key fact, the first 40 characters of the book line it is about, and is checked for:
- contraindication: every line of Chống chỉ định, its first clause asked as "dùng cho BN … được
  không?" and as a padded ward vignette (half of the lines also without diacritics); lines
  about hypersensitivity to the drug are reported apart (contraindication_hypersensitivity).
  Checked: the line in view, no "Dược thư không nêu", the drug kept in the frame.
- interaction: every Tương tác thuốc line that names another loaded drug by its own names,
  asked for the pair in three ward phrasings, both orders. Checked: both drugs kept, the line
  in view, no claim that the book does not name the interaction.
- elderly_renal_dose: every Liều lượng line about the elderly or renal impairment, asked as
  an elderly or a renal dose question. Checked: the line in view.
Prints one line per template and overall; --write FILE keeps every question with its outcome.
"""

import json
import re
import time
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from answering.delivery import delivery
from answering.management.commands.evaluate_book import drug_names
from answering.results import NOTICE_TITLE, TurnResult
from answering.turn import answer_turn
from corpus.models import Chunk, Drug
from corpus.text import fold, folded_phrase, heading_parts
from retrieval.catalog import get_resolver
from retrieval.pairs import names_printed_for

TEMPLATES = (
    "contraindication",
    "contraindication_hypersensitivity",
    "interaction",
    "elderly_renal_dose",
)
DIRECT = "{name} dùng cho BN {situation} được không?"
VIGNETTE = (
    "BN nam 66 tuổi, vào viện vì {situation}, đang điều trị nội trú. Cho {name} được không ạ?"
)
PAIR = (
    "{name} dùng với {b} được không?",
    "{b} + {name} có sao không",
    "{name} kèm {b} được ko",
)
ELDERLY = "Cụ ông 80 tuổi dùng {name} liều thế nào?"
RENAL = "BN suy thận Clcr 30 ml/phút dùng {name} liều bao nhiêu?"

MIN_LINE_CHARS = 12  # shorter lines are labels ("Người lớn:") or table rules, not a fact
KEY_CHARS = 40
SITUATION_WORDS = 10
BRAND_EVERY = 4  # one question in four names the drug by a brand from the book index
ABSENCE = ("Dược thư không nêu", "không nêu đích danh")

_CLAUSE_END = re.compile(r"[;(:]|\.(?:\s|$)")
_SENTENCE_END = re.compile(r"(?<=\.)\s")
_HYPERSENSITIVITY = re.compile(
    r"^(?:(?:nguoi benh|benh nhan|nguoi)\s+)?(?:(?:co\s+)?tien su\s+)?(?:qua man|man cam|di ung)\b"
)
_ELDERLY = ("nguoi cao tuoi", "nguoi gia")
_RENAL = ("suy than", "clcr", "thanh thai creatinin")


@dataclass
class Probe:
    template: str
    drug_id: str
    line: str
    pattern: str  # the question with "{name}" still to fill (after --limit: names cost queries)
    awaiting_review: bool  # the line's chunk waits for a pharmacist's visual check
    folded: bool = False
    other: str = ""
    question: str = ""

    @property
    def key(self) -> str:
        # Answers lead with the answering sentence ("Suy thận nặng (Clcr< 20 ml/phút).") and
        # may fold the rest of its line away: a key running into the next sentence would miss.
        sentence = _SENTENCE_END.split(self.line, maxsplit=1)[0]
        return (sentence if len(sentence) >= MIN_LINE_CHARS else self.line)[:KEY_CHARS]

    @property
    def drugs(self) -> tuple[str, ...]:
        return (self.drug_id, self.other) if self.other else (self.drug_id,)


@dataclass
class Verdict:
    in_view: bool
    delivered: bool
    absence: str  # the absence sentence the answer printed, or ""
    dropped: list[str]
    decision: str
    reason: str
    lead: str  # title and opening of the first block in view
    visible_chars: int
    pointed: bool = False  # a held line's chunk cited by the notice in view (its pages)
    why: list[str] = field(default_factory=list)


def _held_in_view(probe: Probe, result: TurnResult) -> bool:
    """Whether the key line's chunk is held for the print check and the block saying so, with
    its section and pages, is in view."""
    if not probe.awaiting_review:
        return False
    key = " ".join(probe.key.split())
    for block in result.blocks:
        if block.collapsed:
            return False
        if block.title == NOTICE_TITLE:
            cited = [result.citations[i - 1] for _, indices in block.claims for i in indices]
            if any(c.quarantined and key in " ".join(c.text.split()) for c in cited):
                return True
    return False


def _has_name(folded_line: str, names: Iterable[str]) -> bool:
    return any(f" {n} " in f" {folded_line} " for n in names if n)


def _situation(line: str) -> str:
    """The line's first clause, at most ~10 words, as it would follow "BN …"."""
    clause = _CLAUSE_END.split(line.replace("*", ""), maxsplit=1)[0]
    text = " ".join(clause.lstrip("-• ").split()[:SITUATION_WORDS]).rstrip(" ,.")
    if len(text) > 1 and not text[1].isupper():  # keep "HIV", "G6PD"
        text = text[0].lower() + text[1:]
    return text


def _lines(section_key: str, drug_ids: Sequence[str] | None) -> dict[str, dict[str, bool]]:
    """Each monograph's distinct lines of one section in the book's order, each with whether
    its chunk awaits review."""
    chunks = Chunk.objects.filter(section__section_key=section_key)
    if drug_ids:
        chunks = chunks.filter(section__drug__drug_id__in=drug_ids)
    found: dict[str, dict[str, bool]] = defaultdict(dict)
    for drug_id, text, awaiting in chunks.order_by(
        "section__drug__drug_id", "section__order", "part_index"
    ).values_list("section__drug__drug_id", "text", "requires_visual_check"):
        for line in text.splitlines():
            if len(line := line.strip()) >= MIN_LINE_CHARS:
                found[drug_id].setdefault(line, awaiting)
    return found


class _Names:
    """The name each question uses for a drug: its heading, or in one question of four a brand
    from the book index that resolves back to it (evaluate_book's picking)."""

    def __init__(self) -> None:
        self._names: dict[str, list[str]] = {}
        self._asked: dict[str, int] = defaultdict(int)

    def next(self, drug_id: str) -> str:
        if drug_id not in self._names:
            self._names[drug_id] = drug_names(Drug.objects.get(drug_id=drug_id))
        names = self._names[drug_id]
        self._asked[drug_id] += 1
        brand = self._asked[drug_id] % BRAND_EVERY == 0 and len(names) > 1
        return names[1] if brand else names[0]

    def ask(self, probe: Probe) -> Probe:
        question = probe.pattern.replace("{name}", self.next(probe.drug_id))
        probe.question = fold(question) if probe.folded else question
        return probe


def _folded_for_half(line: str) -> bool:
    return zlib.crc32(line.encode()) % 2 == 1  # not hash(): that changes from run to run


def contraindication_probes(drug_ids: Sequence[str] | None) -> Iterator[Probe]:
    for drug_id, lines in _lines("chong_chi_dinh", drug_ids).items():
        for line, awaiting in lines.items():
            situation = _situation(line)
            template = TEMPLATES[1] if _HYPERSENSITIVITY.match(fold(situation)) else TEMPLATES[0]
            patterns = [p.replace("{situation}", situation) for p in (DIRECT, VIGNETTE)]
            for folded in (False, True) if _folded_for_half(line) else (False,):
                for pattern in patterns:
                    yield Probe(template, drug_id, line, pattern, awaiting, folded)


def interaction_probes(drug_ids: Sequence[str] | None) -> Iterator[Probe]:
    resolver = get_resolver()
    loaded = list(Drug.objects.order_by("drug_id").values_list("drug_id", flat=True))
    own = {d: {folded_phrase(n) for n in names_printed_for(d)} for d in loaded}
    for drug_id, lines in _lines("tuong_tac_thuoc", drug_ids).items():
        # A name inside this monograph's own (the two SALBUTAMOL; amoxicilin in AMOXICILIN VÀ
        # KALI CLAVULANAT) is this drug speaking of itself.
        itself = " | ".join(own[drug_id])
        others = {
            other: [n for n in names if not _has_name(itself, [n])]
            for other, names in own.items()
            if other != drug_id
        }
        for line, awaiting in lines.items():
            folded_line = folded_phrase(line)
            for other, names in others.items():
                if not _has_name(folded_line, names):
                    continue
                b = heading_parts(resolver.display.get(other, other))[0].lower()
                for pattern in PAIR:
                    question = pattern.replace("{b}", b)
                    yield Probe(TEMPLATES[2], drug_id, line, question, awaiting, other=other)


def dose_probes(drug_ids: Sequence[str] | None) -> Iterator[Probe]:
    for drug_id, lines in _lines("lieu_luong_va_cach_dung", drug_ids).items():
        for line, awaiting in lines.items():
            folded_line = folded_phrase(line)
            for words, pattern in ((_ELDERLY, ELDERLY), (_RENAL, RENAL)):
                if _has_name(folded_line, words):
                    yield Probe(TEMPLATES[3], drug_id, line, pattern, awaiting)


GENERATORS: dict[str, Callable[[Sequence[str] | None], Iterator[Probe]]] = {
    "contraindication": contraindication_probes,
    "contraindication_hypersensitivity": contraindication_probes,
    "interaction": interaction_probes,
    "elderly_renal_dose": dose_probes,
}


def spread(probes: Sequence[Probe], limit: int | None) -> list[Probe]:
    """At most `limit` probes, taken in turn from each monograph (the book's order kept)."""
    if limit is None or limit >= len(probes):
        return list(probes)
    by_drug: dict[str, list[Probe]] = defaultdict(list)
    for probe in probes:
        by_drug[probe.drug_id].append(probe)
    picked: list[Probe] = []
    for turn in range(max(len(p) for p in by_drug.values())):
        picked += [p[turn] for p in by_drug.values() if turn < len(p)]
        if len(picked) >= limit:
            break
    return picked[:limit]


def generate(
    templates: Sequence[str] = TEMPLATES,
    limit: int | None = None,
    drug_ids: Sequence[str] | None = None,
) -> list[Probe]:
    generated: dict[str, list[Probe]] = defaultdict(list)
    for make in dict.fromkeys(GENERATORS[t] for t in templates):
        for probe in make(drug_ids):
            generated[probe.template].append(probe)
    names = _Names()
    return [names.ask(p) for t in templates for p in spread(generated[t], limit)]


def _lead(result: TurnResult) -> str:
    for block in result.blocks:
        if not block.collapsed:
            text = " ".join(" ".join(t for t, _ in block.claims).split())
            return f"{block.title}: {text[:100]}"
    return f"(nothing in view: {result.answer_text[:100]})"


def judge(probe: Probe, result: TurnResult) -> Verdict:
    shown = delivery(result, probe.key)
    everything = "\n".join([result.answer_text, *(t for b in result.blocks for t, _ in b.claims)])
    absence = next(
        (line for line in everything.splitlines() if any(a in line for a in ABSENCE)), ""
    )
    dropped = [d for d in probe.drugs if d not in result.frame.drugs]
    verdict = Verdict(
        shown.before_collapsed,
        shown.delivered,
        absence[:160],
        dropped,
        str(result.decision),
        result.reason,
        _lead(result),
        shown.visible_chars,
        _held_in_view(probe, result),
    )
    if not shown.before_collapsed and not verdict.pointed:
        verdict.why.append("key fact collapsed" if shown.delivered else "key fact not shown")
    if absence and probe.template != TEMPLATES[3]:
        verdict.why.append(f"absence claim: {absence[:100]}")
    if dropped and probe.template != TEMPLATES[3]:
        verdict.why.append(f"dropped drug: {', '.join(dropped)}")
    return verdict


def _report_line(name: str, judged: Sequence[tuple[Probe, Verdict]]) -> str:
    n = len(judged)
    in_view = sum(v.in_view for _, v in judged)
    delivered = sum(v.delivered for _, v in judged)
    failed = [p for p, v in judged if v.why]
    held = sum(p.awaiting_review for p, _ in judged)
    pointed = sum(v.pointed and not v.in_view for _, v in judged)
    return (
        f"{name}: n {n}, key fact in view {in_view / max(n, 1):.3f} ({in_view}/{n}), "
        f"in view or held for the print check with its page in view "
        f"{(in_view + pointed) / max(n, 1):.3f} ({in_view + pointed}/{n}; {held} held), "
        f"delivered {delivered / max(n, 1):.3f}, "
        f"absence claims where the book has the line {sum(bool(v.absence) for _, v in judged)}, "
        f"dropped drugs {sum(bool(v.dropped) for _, v in judged)}, failed {len(failed)} "
        f"({sum(p.awaiting_review for p in failed)} on lines awaiting review)"
    )


class Command(BaseCommand):
    help = "Generate safety questions from every loaded monograph's lines and check the answers."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--limit", type=int, help="at most N questions per template")
        parser.add_argument("--template", choices=TEMPLATES, help="only this template")
        parser.add_argument("--drugs", nargs="*", help="only these drug ids")
        parser.add_argument("--write", help="write the questions and their outcomes (JSONL)")
        parser.add_argument("--show", type=int, default=0, help="print K failures per template")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.monotonic()
        templates = [options["template"]] if options["template"] else list(TEMPLATES)
        probes = generate(templates, options["limit"], options["drugs"])
        answers: dict[str, TurnResult] = {}  # the dose template repeats a question per line
        judged: list[tuple[Probe, Verdict]] = []
        for probe in probes:
            if probe.question not in answers:
                answers[probe.question] = answer_turn(probe.question, provider=None)
            judged.append((probe, judge(probe, answers[probe.question])))
        if options["write"]:
            Path(options["write"]).write_text(
                "".join(
                    json.dumps(
                        {**asdict(p), "key": p.key, "outcome": asdict(v)}, ensure_ascii=False
                    )
                    + "\n"
                    for p, v in judged
                ),
                encoding="utf-8",
            )
        self.stdout.write(
            f"{len(probes)} questions ({len(answers)} distinct) from "
            f"{len({p.drug_id for p in probes})} monographs in {time.monotonic() - started:.1f} s"
        )
        for name in templates:
            self.stdout.write(_report_line(name, [(p, v) for p, v in judged if p.template == name]))
        self.stdout.write(_report_line("overall", judged))
        for name in templates:
            failed = {id(p): v for p, v in judged if p.template == name and v.why}
            probes_failed = [p for p, _ in judged if id(p) in failed]
            for probe in spread(probes_failed, options["show"]):
                verdict = failed[id(probe)]
                self.stdout.write(
                    f"FAIL {name}: {probe.question}\n  key: {probe.key}"
                    f"{' (awaiting review)' if probe.awaiting_review else ''}\n"
                    f"  led by: {verdict.lead}\n  why: {'; '.join(verdict.why)} "
                    f"[{verdict.decision}: {verdict.reason}]"
                )
