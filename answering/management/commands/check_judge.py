"""Calibrate the configured entailment judge before trusting it, both ways: claims from the
book that their block supports (a sentence copied from it) and claims it does not (the same
sentence with one amount swapped for another of the block, or its population swapped — what a
judge that checks only surface features passes; answering/canary.py), one judge call each.
Prints how often it accepts each; refuses a judge that accepts unsupported claims (accept-all,
surface) and one that rejects supported ones (reject-all). Run it before enabling model mode.
"""

from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from answering.canary import planted, population_swapped
from answering.grounding import sentences
from answering.prompts import entailment_request, evidence_label
from answering.providers import Budget, Provider, ProviderError, get_provider
from answering.schemas import VerdictOut, parse_output
from corpus.models import Drug
from retrieval.evidence import Evidence
from retrieval.queries import find_by_section

# Where each kind of plant is found: dose paragraphs have amounts to swap; cautions and dose
# paragraphs naming both trẻ em and người lớn give population swaps whose every word is in the
# block. A block awaiting the print check is never used.
_SOURCES = (
    ("amount swapped", ("lieu_luong_va_cach_dung",)),
    ("population swapped", ("than_trong", "lieu_luong_va_cach_dung")),
)


def _plant(block: Evidence, kind: str) -> str | None:
    if kind == "population swapped":
        return population_swapped(block)
    found, plant = planted(block)
    return plant if found == kind else None


def calibration_blocks(per_kind: int) -> list[tuple[Evidence, str, str]]:
    """(block, kind, unsupported claim): `per_kind` blocks of each kind, one per drug."""
    picked: list[tuple[Evidence, str, str]] = []
    drugs = list(Drug.objects.order_by("drug_id").values_list("drug_id", flat=True))
    for kind, sections in _SOURCES:
        found = 0
        for drug_id in drugs:
            blocks = [e for section in sections for e in find_by_section(drug_id, section)]
            for block in blocks:
                if block.needs_visual_check or len(block.text) < 80:
                    continue
                if plant := _plant(block, kind):
                    picked.append((block, kind, plant))
                    found += 1
                    break
            if found >= per_kind:
                break
    return picked


def _accepted(provider: Provider, claim: str, block: Evidence) -> bool:
    label = evidence_label(block.drug_id, block.drug_name, block.section_title, block.label)
    system, user = entailment_request("Kiểm tra trọng tài.", [(claim, [(label, block.text)])])
    raw = provider.complete(system, user, Budget(60), max_tokens=200, kind="judge")
    verdict = parse_output(raw, VerdictOut)
    return bool(verdict.claims) and verdict.claims[0].supported


class Command(BaseCommand):
    help = "Calibrate the configured judge on supported and unsupported claims from the book."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--claims", type=int, default=10, help="blocks of each plant kind")
        parser.add_argument(
            "--max-false-accept", type=float, default=0.1, help="fail above this rate"
        )
        parser.add_argument(
            "--min-true-accept", type=float, default=0.8, help="fail below this rate"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        provider = get_provider()
        if provider is None:
            raise CommandError("ANSWER_PROVIDER is disabled: there is no judge to check.")
        tally: dict[str, Counter[str]] = {"supported": Counter(), "unsupported": Counter()}
        for block, kind, plant in calibration_blocks(options["claims"]):
            true = next((s for s in sentences(block.text) if len(s) > 20), block.text[:200])
            for truth, claim in (("supported", true), ("unsupported", plant)):
                try:
                    accepted = _accepted(provider, claim, block)
                except ProviderError as exc:
                    self.stdout.write(
                        f"  {block.drug_id}: {truth} claim: no verdict ({exc.reason})"
                    )
                    continue
                tally[truth]["accepted"] += accepted
                tally[truth]["judged"] += 1
                if truth == "unsupported":
                    tally[truth][f"{kind}: accepted"] += accepted
                    tally[truth][f"{kind}: judged"] += 1
        rates = {}
        for truth, counts in tally.items():
            yes, n = counts["accepted"], counts["judged"]
            rates[truth] = yes / n if n else None
            self.stdout.write(f"{truth} claims accepted: {yes}/{n} ({rates[truth] or 0:.2f})")
        for kind, _ in _SOURCES:
            yes, n = (
                tally["unsupported"][f"{kind}: accepted"],
                tally["unsupported"][f"{kind}: judged"],
            )
            self.stdout.write(f"  of which {kind}: {yes}/{n}")
        false_accept, true_accept = rates["unsupported"], rates["supported"]
        if false_accept is None or true_accept is None:
            raise CommandError("The judge gave no verdicts: do not enable model mode with it.")
        if false_accept > options["max_false_accept"]:
            raise CommandError(
                f"The judge accepts claims their block does not support ({false_accept:.2f} > "
                f"{options['max_false_accept']}): do not enable model mode with it."
            )
        if true_accept < options["min_true_accept"]:
            raise CommandError(
                f"The judge rejects claims their block supports ({true_accept:.2f} < "
                f"{options['min_true_accept']}): every written answer would be withheld; "
                "do not enable model mode with it."
            )
        self.stdout.write("The judge tells supported from unsupported claims on this set.")
