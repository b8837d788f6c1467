"""A dose for a stated weight: the band or the per-kilogram line that holds it."""

from dataclasses import replace

from answering.leads import dose_lead
from answering.reading import Reading
from answering.shapes.base import Candidate, Shape, candidate
from corpus.sections import SectionKey
from retrieval.frame import TurnType
from retrieval.searches import section

NAME = "dose"


def recognise(reading: Reading) -> list[Candidate]:
    frame = reading.frame
    if not reading.drugs or reading.section != SectionKey.LIEU_LUONG_VA_CACH_DUNG:
        return []
    if frame.weight_kg is None:
        return []
    return [candidate(NAME, 40, replace(frame, turn_type=TurnType.DOSING_CALC))]


SHAPE: Shape = Shape(NAME, recognise, section, dose_lead)
