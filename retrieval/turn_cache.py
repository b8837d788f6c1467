"""Version checks read once per turn.

Each cache of the database's tables (the name catalog, the ranked index, the red-flag table)
checks a version before trusting itself. Inside one turn (`one_turn()`, entered by
`answering.turn.answer_turn`) each is checked once; outside a turn — a command, a test that
edits a table and asks again — on every use.
"""

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")
_turn: ContextVar[dict[str, object] | None] = ContextVar("turn_versions", default=None)


@contextmanager
def one_turn(first: Callable[[], Mapping[str, object]] | None = None) -> Iterator[None]:
    """`first()`: versions read together as the turn starts (one query for several)."""
    token = _turn.set(dict(first()) if first else {})
    try:
        yield
    finally:
        _turn.reset(token)


def once_per_turn(name: str, read: Callable[[], T]) -> T:
    """`read()` (a version query), or what it returned earlier in this turn."""
    seen = _turn.get()
    if seen is None:
        return read()
    if name not in seen:
        seen[name] = read()
    return seen[name]  # type: ignore[return-value]
