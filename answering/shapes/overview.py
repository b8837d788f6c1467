"""What a drug is ("X là thuốc gì"), or several compared: name, class, indications."""

from dataclasses import replace

from answering.leads import lead_sentences
from answering.reading import Reading, condition_words
from answering.shapes.base import Candidate, Shape, candidate
from retrieval.frame import TurnType
from retrieval.searches import overview

NAME = "overview"


def recognise(reading: Reading) -> list[Candidate]:
    if not reading.drugs or reading.section is not None:
        return []
    frame = replace(reading.frame, turn_type=TurnType.DRUG_OVERVIEW)
    if len(reading.drugs) >= 2 and reading.says("compare"):
        return [candidate(NAME, 50, frame)]
    if not reading.yes_no:
        words_left = condition_words(reading.question, reading.drugs)
        # "Losartan là thuốc gì?"; a story left beside a bare "thuốc gì" asks for a remedy
        # ("truyền morphin bị ngứa, dùng thuốc gì?"), not what the drug is.
        if not words_left or reading.says("what_is_strict"):
            return [candidate(NAME, 35, frame)]
    return []


SHAPE: Shape = Shape(NAME, recognise, overview, lead_sentences)
