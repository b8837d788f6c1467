"""A judge that is checked, not trusted: every entailment call carries one planted claim its
cited block plainly does not support, built from the evidence itself, shuffled among the real
claims. A judge that calls the plant supported says yes to anything (Gemma 270M accepted all
three fabricated drafts it answered): the whole verdict is void and the turn abstains as
`judge_unreliable`.

Chosen by what the block offers, the kinds a judge that checks only surface features (every
word and number of the claim somewhere in the block) cannot tell from the truth come first
(issue 20: such a judge passed every plant and `check_judge`): a real sentence of the block
with one amount swapped for another amount of the same unit in the same block ("tối đa là
4 g/ngày" → "tối đa là 6 g/ngày" where the block also says "6 g/ngày"), else with its
population swapped (trẻ em ↔ người lớn); then the sentence about another drug (its name
swapped for another loaded drug's), with its first number changed, or negated.
"""

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from answering.amounts import NUMBER_RE, read_amounts
from answering.grounding import amounts_follow_the_book, numeric_tokens, sentences
from retrieval.evidence import Evidence

_POPULATIONS = (("trẻ em", "người lớn"), ("người lớn", "trẻ em"))
_OTHER_DRUGS = ("metformin", "warfarin", "amoxicilin", "digoxin", "paracetamol", "omeprazol")


@dataclass(frozen=True)
class Plant:
    text: str
    block: Evidence
    position: int  # where it sits among the claims sent to the judge


def _name_of(block: Evidence) -> str:
    return block.drug_name.split("(")[0].strip()


def _amount_swapped(block: Evidence, candidates: list[str]) -> str | None:
    """A real sentence with one amount replaced by another of its unit from the same block,
    else with its number replaced by another number of the block ("tối đa là 6 g/ngày" from
    "4 - 6 giờ"); only one the amount check refuses (a wrong line, not another true one)."""
    book = read_amounts(block.text)
    numbers = list(dict.fromkeys(n for a in book if a.unit for n in a.numbers))
    for same_unit in (True, False):
        for sentence in candidates:
            for amount in (a for a in read_amounts(sentence) if a.unit):
                first = NUMBER_RE.search(amount.text)
                if same_unit:
                    others = [
                        o.text
                        for o in book
                        if o.unit == amount.unit and o.numbers != amount.numbers
                    ]
                elif first:
                    others = [
                        amount.text[: first.start()] + n + amount.text[first.end() :]
                        for n in numbers
                        if n not in amount.numbers
                    ]
                else:
                    others = []
                for other in others:
                    plant = sentence.replace(amount.text, other, 1)
                    if plant != sentence and not amounts_follow_the_book(plant, [block.text]):
                        return plant
    return None


def _population_swapped(block: Evidence, candidates: list[str]) -> str | None:
    """A real sentence about the other population, one whose words the block also uses
    first (a surface judge finds every word of it there)."""
    folded = block.text.lower()
    for anywhere in (False, True):
        for sentence in candidates:
            for said, other in _POPULATIONS:
                found = re.search(re.escape(said), sentence, re.IGNORECASE)
                if found and (anywhere or other in folded):
                    swapped = other.capitalize() if found.group()[0].isupper() else other
                    plant = sentence[: found.start()] + swapped + sentence[found.end() :]
                    if plant not in block.text:
                        return plant
    return None


def population_swapped(block: Evidence) -> str | None:
    """The population swap of a block that names both populations, or None."""
    if not all(p in block.text.lower() for p in ("trẻ em", "người lớn")):
        return None
    return _population_swapped(block, [s for s in sentences(block.text) if len(s) > 20])


def planted(block: Evidence) -> tuple[str, str]:
    """(kind, a claim the block does not support) from the block's own sentences."""
    candidates = [s for s in sentences(block.text) if len(s) > 20] or [block.text[:200]]
    if plant := _amount_swapped(block, candidates):
        return "amount swapped", plant
    if plant := _population_swapped(block, candidates):
        return "population swapped", plant
    first = candidates[0].strip()
    name = _name_of(block)
    if re.search(re.escape(name), first, re.IGNORECASE):
        other = next(d for d in _OTHER_DRUGS if d not in name.lower())
        return "other drug", re.sub(re.escape(name), other.upper(), first, count=1, flags=re.I)
    numbers = numeric_tokens(first)
    if numbers:
        wrong = str(int(re.sub(r"\D", "", numbers[0]) or "0") * 10 + 7)
        return "number changed", first.replace(numbers[0], wrong, 1)
    return "negated", f"Dược thư khẳng định điều ngược lại: không phải «{first.rstrip('.')}»."


def planted_claim(block: Evidence) -> str:
    """A claim the block does not support, from the block's own sentences."""
    return planted(block)[1]


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
