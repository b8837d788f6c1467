"""Calibrate the configured entailment judge before trusting it: claims from the book that
their block supports (a sentence copied from it) and claims it does not (the same sentence
about another drug, with a number changed, or negated — answering/canary.py), one judge call
each; prints how often it accepts each kind. Run it before enabling model mode.
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from answering.canary import planted_claim
from answering.grounding import sentences
from answering.prompts import entailment_request, evidence_label
from answering.providers import Budget, ProviderError, get_provider
from answering.schemas import VerdictOut, parse_output
from corpus.models import Drug
from retrieval.queries import find_by_section


class Command(BaseCommand):
    help = "Run a calibration set of supported / unsupported claims against the configured judge."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--claims", type=int, default=10, help="claims of each kind")
        parser.add_argument(
            "--max-false-accept", type=float, default=0.1, help="fail above this rate"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        provider = get_provider()
        if provider is None:
            raise CommandError("ANSWER_PROVIDER is disabled: there is no judge to check.")
        picked = []
        for drug_id in Drug.objects.order_by("drug_id").values_list("drug_id", flat=True):
            blocks = [
                e
                for e in find_by_section(drug_id, "chong_chi_dinh")
                if not e.needs_visual_check and len(e.text) > 80
            ]
            picked += blocks[:1]
            if len(picked) >= options["claims"]:
                break
        tally = {"supported": [0, 0], "unsupported": [0, 0]}
        for block in picked:
            label = evidence_label(block.drug_id, block.drug_name, block.section_title, block.label)
            true = next((s for s in sentences(block.text) if len(s) > 20), block.text[:200])
            for kind, claim in (("supported", true), ("unsupported", planted_claim(block))):
                system, user = entailment_request(
                    "Kiểm tra trọng tài.", [(claim, [(label, block.text)])]
                )
                try:
                    raw = provider.complete(system, user, Budget(60), max_tokens=200, kind="judge")
                    verdict = parse_output(raw, VerdictOut)
                    accepted = bool(verdict.claims) and verdict.claims[0].supported
                except ProviderError as exc:
                    self.stdout.write(f"  {block.drug_id}: {kind} claim: no verdict ({exc.reason})")
                    accepted = None
                if accepted is not None:
                    tally[kind][0] += accepted
                    tally[kind][1] += 1
        for kind, (yes, n) in tally.items():
            rate = yes / n if n else 0.0
            self.stdout.write(f"{kind} claims accepted: {yes}/{n} ({rate:.2f})")
        yes, n = tally["unsupported"]
        if not n or yes / n > options["max_false_accept"]:
            raise CommandError(
                "The judge accepts claims their block does not support (or gave no verdicts): "
                "do not enable model mode with it."
            )
