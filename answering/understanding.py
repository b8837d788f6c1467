"""The deterministic QueryFrame of one turn: the surface reading (answering.reading), every
question shape that recognises it (answering.shapes), the strongest reading with the others
kept for the arbiter to weigh by their evidence."""

from dataclasses import replace

from answering.cues import YES_NO, age_months, has
from answering.reading import as_relation, condition_words, read
from answering.shapes import candidates
from answering.shapes import reread as reread_by_shapes
from corpus.text import as_typed, folded_phrase
from retrieval.frame import QueryFrame

__all__ = ["as_relation", "condition_words", "recorded", "understand"]


def understand(question: str, claimed_scope: str = "human") -> QueryFrame:
    """The deterministic frame of one turn, with what it found recorded on it: the strongest
    reading, the other readings of the same drugs as its alternatives."""
    found = candidates(read(question, claimed_scope))
    best = found[0].frame
    others = tuple(
        recorded(c.frame) for c in found[1:] if c.frame.drugs == best.drugs and c.frame.drugs
    )
    return replace(recorded(best), alternatives=others)


def recorded(frame: QueryFrame) -> QueryFrame:
    """The frame with its situation in the user's words and its age in months."""
    typed = frame.standalone_query or ""
    folded = folded_phrase(typed)
    frame = reread_by_shapes(frame, typed)
    return replace(
        frame,
        asks_use=bool(frame.drugs)
        and (has(folded, "use") or bool(YES_NO.search(folded)))
        and not has(folded, "effect"),
        situation=as_typed(typed, frame.condition) if frame.condition else None,
        age_months=frame.age_months if frame.age_months is not None else age_months(frame.age_text),
    )
