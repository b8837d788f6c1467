"""The question shapes, one module each, and the registry that lists them (issue 17).

A shape recognises the question (a prior and a frame), names the search of its reading and
cuts the lead. Every shape that recognises the question is a candidate; the strongest prior
is the reading the cue phrases give, and the arbiter (`arbiter.py`) weighs it against the
others by what their evidence says. A new shape is one module and one line here.

The priors (higher reads first), from the order in which the cues decide:
scope 100 (not for a human), emergency re-reads the chosen frame, a drug of a named class 91,
which-drug 87–90 and 75,
scope 80/70/65 (greeting, out of the book, no drug the book has), indication 60,
mixing 56 (a fluid or a second drug in one bag, syringe or line), interaction 55/45,
overview 50/35, dose 40, section 34 (free form), monitoring 33, pregnancy found 33 (a
pregnancy told now, "xử trí" asked of the drug), adverse 32 (a patient's symptom since the
drug), situation 25–30,
effect 26, section 0 (the section asked for, every drug question's floor).
"""

from answering.reading import Reading
from answering.shapes import (
    adverse,
    class_drug,
    dose,
    effect,
    emergency,
    indication,
    interaction,
    mixing,
    monitoring,
    overview,
    pregnancy_found,
    scope,
    section,
    situation,
    which_drug,
)
from answering.shapes.base import Candidate, Shape
from retrieval.frame import QueryFrame

REGISTRY: tuple[Shape, ...] = (
    scope.SHAPE,
    class_drug.SHAPE,
    which_drug.SHAPE,
    indication.SHAPE,
    mixing.SHAPE,
    interaction.SHAPE,
    overview.SHAPE,
    dose.SHAPE,
    monitoring.SHAPE,
    pregnancy_found.SHAPE,
    adverse.SHAPE,
    situation.SHAPE,
    effect.SHAPE,
    section.SHAPE,
    emergency.SHAPE,
)
_BY_NAME = {shape.name: shape for shape in REGISTRY}


def candidates(reading: Reading) -> list[Candidate]:
    """Every reading of the question a shape recognises, strongest prior first (a stable
    sort: at equal priors the registry's order)."""
    found = [c for shape in REGISTRY if shape.recognise for c in shape.recognise(reading)]
    return sorted(found, key=lambda c: -c.prior)


def reread(frame: QueryFrame, typed: str) -> QueryFrame:
    """The chosen frame (any shape's, a model's, a follow-up's) re-read by the shapes that
    re-read every question (an emergency), with the question as typed."""
    for shape in REGISTRY:
        if shape.reread is not None:
            frame = shape.reread(frame, typed)
    return frame


def shape_of(frame: QueryFrame) -> Shape | None:
    """The shape that read the frame; None for a frame no shape produced as it is (a model's,
    one merged with the conversation's last turn): its turn type's search and lead then."""
    if frame.understood_by is not None or frame.context_action != "none":
        return None
    return _BY_NAME.get(frame.shape or "")
