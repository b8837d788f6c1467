"""Prove the amount check on the book's own dose paragraphs (issue 20).

For every sentence of every Liều lượng và cách dùng chunk not awaiting the print check: the
sentence copied and cited to its chunk must pass; and each wrong dose built from the chunk's
own amounts must be refused by the deterministic check alone (no judge):

- recombined: an amount's number replaced by the number of another amount of the same
  chunk ("tối đa là 4 g/ngày" → "tối đa là 6 g/ngày", the 6 of "4 - 6 giờ"), when no amount
  of the chunk says it;
- per swapped: per dose ↔ per day ("1 g/lần" → "1 g/ngày"), when no amount of the chunk says it;
- band moved: the value of one band written under the band before it ("2 - 4 tuổi: 180 mg;
  4 - 6 tuổi: 240 mg" → "2 - 4 tuổi: 240 mg; …").

Prints the count per kind, refused and accepted, and the first accepted ones; exits 1 on any
accepted wrong dose or refused copy.
"""

import re
from collections.abc import Iterator
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from answering.amounts import NUMBER_RE, Amount, read_amounts
from answering.grounding import BAND_UNITS, sentences, verify_claims
from corpus.models import Chunk

DOSE_SECTION = "lieu_luong_va_cach_dung"
_PER_SWAP = (("/lan", "lần", "ngày"), ("/ngay", "ngày", "lần"), ("/24gio", "24 giờ", "lần"))


def _with_number(amount: Amount, number: str) -> str:
    """The amount as printed with its (first) number replaced."""
    first = NUMBER_RE.search(amount.text)
    assert first is not None
    return amount.text[: first.start()] + number + amount.text[first.end() :]


def _per_swapped(amount: Amount) -> str | None:
    """Per dose written per day, or per day (or per 24 hours) written per dose."""
    for per, old, new in _PER_SWAP:
        at = amount.text.rfind(old)
        if amount.unit.endswith(per) and at > 0:
            return amount.text[:at] + new + amount.text[at + len(old) :]
    return None


def recombinations(text: str) -> Iterator[tuple[str, str, str]]:
    """(kind, the real sentence, the wrong one) over one chunk's text; a wrong amount that
    some amount of the chunk says (in context: "dưới 60 tuổi") is not generated."""
    book = read_amounts(text)
    numbers = list(dict.fromkeys(n for a in book if a.unit for n in a.numbers))
    pairs = list(zip(book, book[1:], strict=False))
    for sentence in sentences(text):
        mine = [a for a in read_amounts(sentence) if a.unit]
        for n, amount in enumerate(mine):
            at = sentence.find(amount.text)
            if at < 0:
                continue
            wrongs: list[tuple[str, str]] = []
            for number in [x for x in numbers if x not in amount.numbers][:3]:
                wrongs.append(("recombined", _with_number(amount, number)))
            if swapped := _per_swapped(amount):
                wrongs.append(("per swapped", swapped))
            band = mine[n - 1] if n else None
            if band is not None and band.unit in BAND_UNITS and amount.unit not in BAND_UNITS:
                # The value of the next band of the same kind, unless this band has it too.
                later = [
                    y.text for x, y in pairs
                    if x.unit == band.unit and x.numbers != band.numbers and y.unit == amount.unit
                    and not any(b.holds(band) and v.holds(y) for b, v in pairs)
                ]  # fmt: skip
                wrongs += [("band moved", later[0])] if later else []
            for kind, new in wrongs:
                wrong = sentence[:at] + new + sentence[at + len(amount.text) :]
                said = [a for a in read_amounts(wrong) if a.unit][n : n + 1]
                if said and not any(b.holds(said[0]) for b in book):
                    yield kind, sentence, wrong
                elif kind == "band moved" and said:
                    yield kind, sentence, wrong


def sweep(limit: int | None = None) -> tuple[dict[str, list[int]], list[str], list[str]]:
    """({kind: [refused, accepted]}, accepted wrong sentences, refused copies)."""
    chunks = Chunk.objects.filter(
        section__section_key=DOSE_SECTION, requires_visual_check=False
    ).order_by("id")
    tally: dict[str, list[int]] = {"copied": [0, 0]}
    accepted: list[str] = []
    refused: list[str] = []
    for text in chunks.values_list("text", flat=True)[:limit]:
        for sentence in sentences(text):
            if any(a.unit for a in read_amounts(sentence)):
                ok = verify_claims([(sentence, [1])], [text]).ok
                tally["copied"][ok] += 1
                if not ok:
                    refused.append(sentence)
        for kind, _real, wrong in recombinations(text):
            ok = verify_claims([(wrong, [1])], [text]).ok
            tally.setdefault(kind, [0, 0])[ok] += 1
            if ok:
                accepted.append(f"{kind}: {wrong}")
    return tally, accepted, refused


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text)[:200]


class Command(BaseCommand):
    help = "Refuse wrong doses built from the book's own dose paragraphs (amount check sweep)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--limit", type=int, help="only the first N dose chunks")
        parser.add_argument("--show", type=int, default=5, help="print this many failures")

    def handle(self, *args: Any, **options: Any) -> None:
        tally, accepted, refused = sweep(options["limit"])
        for kind, (no, yes) in tally.items():
            self.stdout.write(f"{kind}: {no + yes:,} — refused {no:,}, accepted {yes:,}")
        for line in accepted[: options["show"]]:
            self.stdout.write(f"  accepted wrong: {_one_line(line)}")
        for line in refused[: options["show"]]:
            self.stdout.write(f"  refused copy: {_one_line(line)}")
        if accepted or refused:
            raise CommandError("the amount check accepted a wrong dose or refused a copy")
