"""A judge that is checked, not trusted: every entailment call carries one planted claim its
cited block plainly does not support, built from the evidence itself, shuffled among the real
claims. A judge that calls the plant supported says yes to anything (Gemma 270M accepted all
three fabricated drafts it answered): the whole verdict is void and the turn abstains as
`judge_unreliable`.

Two kinds, chosen by what the block offers: the block's own sentence about another drug (its
drug's name swapped for another loaded drug's), else with its first number changed, else
negated.
"""

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from answering.grounding import numeric_tokens, sentences
from retrieval.evidence import Evidence

_OTHER_DRUGS = ("metformin", "warfarin", "amoxicilin", "digoxin", "paracetamol", "omeprazol")


@dataclass(frozen=True)
class Plant:
    text: str
    block: Evidence
    position: int  # where it sits among the claims sent to the judge


def _name_of(block: Evidence) -> str:
    return block.drug_name.split("(")[0].strip()


def planted_claim(block: Evidence) -> str:
    """A claim the block does not support, from the block's own first sentence."""
    first = next((s for s in sentences(block.text) if len(s) > 20), block.text[:200]).strip()
    name = _name_of(block)
    if re.search(re.escape(name), first, re.IGNORECASE):
        other = next(d for d in _OTHER_DRUGS if d not in name.lower())
        return re.sub(re.escape(name), other.upper(), first, count=1, flags=re.IGNORECASE)
    numbers = numeric_tokens(first)
    if numbers:
        wrong = str(int(re.sub(r"\D", "", numbers[0]) or "0") * 10 + 7)
        return first.replace(numbers[0], wrong, 1)
    return f"Dược thư khẳng định điều ngược lại: không phải «{first.rstrip('.')}»."


def plant_among(
    pairs: Sequence[tuple[str, list[tuple[str, str]]]],
    blocks: Sequence[Evidence],
    labelled: Sequence[tuple[str, str]],
    rng: random.Random | None = None,
) -> tuple[list[tuple[str, list[tuple[str, str]]]], Plant]:
    """The claims with one plant inserted at a random place, cited to `blocks[0]`."""
    rng = rng or random.Random()
    block = blocks[0]
    plant = planted_claim(block)
    position = rng.randrange(len(pairs) + 1)
    mixed = list(pairs)
    mixed.insert(position, (plant, list(labelled[:1])))
    return mixed, Plant(plant, block, position)
