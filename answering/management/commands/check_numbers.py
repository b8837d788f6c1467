"""Prove the number check on every number of the loaded book.

For every numeric token of every chunk: a claim that copies it and cites that chunk must pass;
a claim with the number mutated — a digit dropped, added or changed; the decimal comma moved,
removed or made a point; a thousands group split, merged or shifted — must be rejected unless
the mutated number is itself a whole number of that chunk; and the number cited to a chunk it
is not in must be rejected. Prints the counts; exits 1 on any false accept or false reject.
"""

from collections.abc import Iterator
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from answering.amounts import NUMBER_RE, read_amounts
from answering.grounding import numeric_tokens, verify_claims
from corpus.models import Chunk

SEPARATOR = " "


def mutations(token: str) -> Iterator[tuple[str, str]]:
    """(kind, mutated) for one number as the checker reads it ("1 500", "7,5", "10")."""
    positions = [i for i, ch in enumerate(token) if ch.isdigit()]
    for i in positions:
        if len(positions) > 1:
            yield "digit dropped", _clean(token[:i] + token[i + 1 :])
        yield "digit changed", token[:i] + str((int(token[i]) + 1) % 10) + token[i + 1 :]
    for i in (*positions, len(token)):
        yield "digit added", token[:i] + "7" + token[i:]
    for mark, other in ((",", "."), (".", ",")):
        if mark in token:
            at = token.index(mark)
            whole, part = token[:at], token[at + 1 :]
            yield "decimal removed", whole + part
            yield (
                "decimal made a point" if mark == "," else "decimal made a comma",
                whole + other + part,
            )
            if len(part) > 1:
                yield "decimal moved", whole + part[0] + mark + part[1:]
            if len(whole.replace(SEPARATOR, "")) > 1:
                yield "decimal moved", whole[:-1] + mark + whole[-1] + part
    digits = token.split(",")[0].split(".")[0]
    if SEPARATOR in digits:
        rest = token[len(digits) :]
        plain = digits.replace(SEPARATOR, "")
        yield "thousands merged", plain + rest
        first, _, tail = digits.partition(SEPARATOR)
        if len(first) > 1:
            yield (
                "thousands shifted",
                first[:-1] + SEPARATOR + first[-1] + tail.replace(SEPARATOR, "") + rest,
            )
        yield "thousands split", first + SEPARATOR + tail[:1] + SEPARATOR + tail[1:] + rest
    elif len(digits) >= 4 and digits.isdigit():
        yield "thousands split", digits[:-3] + SEPARATOR + digits[-3:] + token[len(digits) :]


def _clean(token: str) -> str:
    return token.strip(SEPARATOR + ",.")


def claim_for(text: str, token: str) -> str:
    """A claim copying the block's own amount that prints `token`, "{}" where it goes: an
    amount is checked with its unit and what it is per (issue 20), so the claim keeps them."""
    amount = next(a for a in read_amounts(text) if token in numeric_tokens(a.text))
    at = next(m for m in NUMBER_RE.finditer(amount.text) if numeric_tokens(m.group()) == [token])
    return "Liều " + amount.text[: at.start()] + "{}" + amount.text[at.end() :] + "."


def said_by(text: str, claim: str) -> bool:
    """Whether every amount of the claim is an amount the block prints (a mutation that lands
    on another amount of the block is the book's, and accepted)."""
    book = read_amounts(text)
    return all(any(b.holds(a) for b in book) for a in read_amounts(claim))


def sweep(limit: int | None = None) -> dict[str, int]:
    """Counts over the chunks (all, or the first `limit`)."""
    counts = {
        "numbers": 0,
        "verbatim rejected": 0,
        "mutations": 0,
        "mutations rejected": 0,
        "mutations equal to another number of the block (accepted)": 0,
        "false accepts": 0,
        "false rejects": 0,
        "moved to a block without it": 0,
        "moved and accepted": 0,
    }
    texts = list(Chunk.objects.order_by("id").values_list("text", flat=True)[:limit])
    for n, text in enumerate(texts):
        elsewhere = texts[(n + 1) % len(texts)]
        elsewhere_tokens = set(numeric_tokens(elsewhere))
        for token in dict.fromkeys(numeric_tokens(text)):
            counts["numbers"] += 1
            template = claim_for(text, token)
            if not verify_claims([(template.format(token), [1])], [text]).ok:
                counts["verbatim rejected"] += 1
            for _kind, mutated in dict.fromkeys(mutations(token)):
                if mutated == token or not mutated:
                    continue
                counts["mutations"] += 1
                accepted = verify_claims([(template.format(mutated), [1])], [text]).ok
                if said_by(text, template.format(mutated)):
                    counts["mutations equal to another number of the block (accepted)"] += accepted
                    counts["false rejects"] += not accepted
                elif accepted:
                    counts["false accepts"] += 1
                else:
                    counts["mutations rejected"] += 1
            if token not in elsewhere_tokens:
                counts["moved to a block without it"] += 1
                counts["moved and accepted"] += verify_claims(
                    [(template.format(token), [1])], [elsewhere]
                ).ok
    return counts


class Command(BaseCommand):
    help = "Prove the number check on every number of the loaded book (mutation sweep)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--limit", type=int, help="only the first N chunks")

    def handle(self, *args: Any, **options: Any) -> None:
        counts = sweep(options["limit"])
        for name, value in counts.items():
            self.stdout.write(f"{name}: {value:,}")
        if any(
            counts[k]
            for k in ("verbatim rejected", "false accepts", "false rejects", "moved and accepted")
        ):
            raise CommandError("the number check let a mutated number through or refused a copy")
