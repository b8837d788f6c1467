"""`manage.py metamorphic FILE …`: does the key fact stay in view when the question is
paraphrased (issue 17)? Each question whose answer shows its `must_contain` ahead of the first
collapsed block is asked again in every variant of `answering.metamorphic`, without a model."""

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from answering.delivery import delivery
from answering.management.cases import read_cases
from answering.metamorphic import KINDS, Names, locate, variants
from answering.results import AnswerBlock, TurnResult
from answering.turn import answer_in_conversation
from corpus.models import Alias, BookIndexEntry, Drug
from corpus.text import folded_phrase, heading_parts
from retrieval.catalog import CatalogDrugResolver, brand_base, get_resolver

_GENERIC_KINDS = (Alias.Kind.HEADING, Alias.Kind.INN, Alias.Kind.OTHER_NAME)


def _typed_base(name: str) -> str | None:
    """`Tegretol 200` → `Tegretol`: the brand as a ward types it (the resolver's base name)."""
    base = brand_base(name)
    if base is None:
        return name
    where = locate(name, " ".join(base))
    return name[: where[0][1]] if where and where[0][0] == 0 else None


def names_for(drug_ids: Iterable[str], resolver: CatalogDrugResolver) -> Names:
    """Brands, ingredient names and own names of these drugs, each read back by the resolver
    as that drug alone."""
    ids = sorted(set(drug_ids))
    generic: dict[str, set[str]] = {d: {d.replace("_", " ")} for d in ids}
    for name, drug_id in Alias.objects.filter(
        drug__drug_id__in=ids, kind__in=_GENERIC_KINDS
    ).values_list("name", "drug__drug_id"):
        generic[drug_id].add(folded_phrase(name))
    ingredient = {}
    for drug_id, heading in Drug.objects.filter(drug_id__in=ids).values_list("drug_id", "heading"):
        for name in (heading_parts(heading)[0].lower(), drug_id.replace("_", " ")):
            if resolver.resolve(name) == (drug_id,):
                ingredient[drug_id] = name
                break
    brands: dict[str, list[str]] = {d: [] for d in ids}
    rows = BookIndexEntry.objects.filter(
        ingredient_id__in=ids, source=BookIndexEntry.Source.BRAND_INDEX
    ).order_by("id")
    for name, drug_id in rows.values_list("name", "ingredient_id"):
        typed = _typed_base(name)
        if (
            typed
            and not any(f" {g} " in f" {folded_phrase(typed)} " for g in generic[drug_id])
            and resolver.resolve(typed) == (drug_id,)
            and typed not in brands[drug_id]
        ):
            brands[drug_id].append(typed)
    return Names(
        {d: tuple(sorted(b, key=str.lower)) for d, b in brands.items()},
        ingredient,
        {d: frozenset(g) for d, g in generic.items()},
    )


@dataclass(frozen=True)
class Tried:
    """One variant asked: whether its answer still shows the key fact, and what moved."""

    qid: str
    kind: str
    variant: str
    survived: bool
    what: str = ""
    change: str = ""


def _frame_fields(result: TurnResult) -> dict[str, object]:
    frame = result.frame
    fields = {k: v for k, v in frame.summary().items() if not k.startswith("understanding")}
    return {**fields, "asks_use": frame.asks_use, "patient": frame.patient}


def _layout(result: TurnResult, key: str) -> str:
    """The sections in view ahead of the first collapsed block, and where the key fact is."""
    ahead: list[str] = []
    where = "nowhere"
    for n, block in enumerate(result.blocks, 1):
        if block.collapsed and where != "nowhere":
            break
        if not block.collapsed and len(ahead) == n - 1:
            ahead.append(block.section_key or block.kind)
        if where == "nowhere" and delivery(_only(result, block), key).delivered:
            where = f"block {n} {block.section_key}{' collapsed' if block.collapsed else ''}"
    return f"in view [{', '.join(ahead)}], key fact in {where}"


def _only(result: TurnResult, block: AnswerBlock) -> TurnResult:
    return TurnResult(result.decision, result.reason, result.frame, blocks=[block])


def what_changed(original: TurnResult, variant: TurnResult, key: str) -> tuple[str, str]:
    """What moved between the two answers: (the frame fields or "layout", in detail)."""
    moved: dict[str, str] = {}
    if (original.decision, original.reason) != (variant.decision, variant.reason):
        moved["decision"] = (
            f"{original.decision}/{original.reason} → {variant.decision}/{variant.reason}"
        )
    a, b = _frame_fields(original), _frame_fields(variant)
    for name in a.keys() | b.keys():
        if a.get(name) != b.get(name):
            moved[name] = f"{a.get(name)!r} → {b.get(name)!r}"
    detail = "; ".join(f"{k} {v}" for k, v in sorted(moved.items()))
    layout = f"{_layout(original, key)} → {_layout(variant, key)}"
    return "+".join(sorted(moved)) or "layout only", f"{detail}{'; ' if detail else ''}{layout}"


def _rows(paths: Sequence[str]) -> list[dict[str, Any]]:
    return [row for file in paths for row in read_cases(Path(file))]


def _key(row: dict[str, Any]) -> str | None:
    wanted = row.get("expect", {}).get("must_contain")
    if isinstance(wanted, list):
        wanted = wanted[0] if wanted else None
    return " ".join(wanted.split()) if isinstance(wanted, str) and wanted.strip() else None


class Command(BaseCommand):
    help = "Ask paraphrases of each question and report whether the key fact stays in view."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--kinds", default=",".join(KINDS), help="comma-separated kinds")
        parser.add_argument("--limit", type=int, help="at most N questions with a must_contain")
        parser.add_argument("--show-failures", type=int, default=0, metavar="K")

    def handle(self, *args: Any, **options: Any) -> None:
        kinds = [k.strip() for k in options["kinds"].split(",") if k.strip()]
        if unknown := sorted(set(kinds) - set(KINDS)):
            raise CommandError(f"unknown kinds {', '.join(unknown)}; choose from {KINDS}")
        rows = [(row, key) for row in _rows(options["files"]) if (key := _key(row))]
        if options["limit"] is not None:
            rows = rows[: options["limit"]]
        resolver = get_resolver()
        known = frozenset(
            k[0] for table in (resolver.loaded, resolver.not_loaded) for k in table if len(k) == 1
        )
        outcomes: list[Tried] = []
        in_view = 0
        for row, key in rows:
            history = [str(h) for h in row.get("history", [])]
            original = answer_in_conversation([*history, row["question"]])
            if not delivery(original, key).before_collapsed:
                continue
            in_view += 1
            spans = resolver.resolve_detail(row["question"]).spans
            names = names_for({d for _, d in spans}, resolver)
            for kind, text in variants(row["question"], spans, names, known, kinds):
                result = answer_in_conversation([*history, text])
                survived = delivery(result, key).before_collapsed
                what, change = ("", "") if survived else what_changed(original, result, key)
                outcomes.append(Tried(str(row.get("id", "")), kind, text, survived, what, change))
        self._report(len(rows), in_view, kinds, outcomes, options["show_failures"])

    def _report(
        self, asked: int, in_view: int, kinds: Sequence[str], outcomes: list[Tried], show: int
    ) -> None:
        write = self.stdout.write
        write(
            f"questions with a must_contain: {asked}; key fact in view in the original answer: "
            f"{in_view} (only these are varied)"
        )
        write(f"{'kind':<14} {'variants':>8} {'survived':>8} {'rate':>6}")
        for kind in [*kinds, "overall"]:
            mine = [o for o in outcomes if kind in ("overall", o.kind)]
            kept = sum(o.survived for o in mine)
            rate = f"{kept / len(mine):.3f}" if mine else "-"
            write(f"{kind:<14} {len(mine):>8} {kept:>8} {rate:>6}")
        failures = [o for o in outcomes if not o.survived]
        if show and failures:
            write(f"failures (first {min(show, len(failures))} of {len(failures)}):")
            for o in failures[:show]:
                write(f"  {o.qid} [{o.kind}] {o.variant}\n      {o.change}")
            causes = Counter((o.kind, o.what) for o in failures)
            write("most common (kind: what changed):")
            for (kind, what), n in causes.most_common(10):
                write(f"  {n:>4}  {kind}: {what}")
