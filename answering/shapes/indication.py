"""What a drug is for ("X dùng để trị gì"): its Chỉ định."""

from dataclasses import replace

from answering.leads import lead_sentences
from answering.reading import Reading
from answering.shapes.base import Candidate, Shape, candidate
from corpus.sections import SectionKey
from retrieval.frame import TurnType
from retrieval.searches import indications

NAME = "indication"


def recognise(reading: Reading) -> list[Candidate]:
    if not reading.drugs or not reading.says("what_for"):
        return []
    if reading.section not in (None, SectionKey.CHI_DINH):
        return []
    frame = replace(
        reading.frame, turn_type=TurnType.DRUG_TO_CONDITION, attribute=SectionKey.CHI_DINH
    )
    return [candidate(NAME, 60, frame)]


SHAPE: Shape = Shape(NAME, recognise, indications, lead_sentences)
