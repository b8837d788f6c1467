"""Not a drug question the book answers: a greeting, an animal, a price, a name it lacks."""

from dataclasses import replace

from answering.leads import lead_sentences
from answering.reading import Reading
from answering.shapes.base import Candidate, Shape, candidate
from retrieval.frame import TurnType
from retrieval.searches import nothing_to_search

NAME = "scope"


def recognise(reading: Reading) -> list[Candidate]:
    frame, folded = reading.frame, reading.folded
    if frame.subject_scope != "human":
        return [candidate(NAME, 100, replace(frame, turn_type=TurnType.OUT_OF_SCOPE))]
    found = []
    if not reading.drugs and not reading.unknown and reading.section is None:
        # Below a which-drug reading of the same words ("thuốc nào trị …").
        if len(folded.split()) <= 12 and reading.says("smalltalk"):
            found.append(candidate(NAME, 80, replace(frame, turn_type=TurnType.SMALLTALK)))
        else:
            found.append(candidate(NAME, 80, replace(frame, turn_type=TurnType.OUT_OF_SCOPE)))
    if reading.drugs and reading.says("out_of_scope") and reading.section is None:
        found.append(candidate(NAME, 70, replace(frame, turn_type=TurnType.OUT_OF_SCOPE)))
    if not reading.drugs:
        found.append(candidate(NAME, 65, frame))  # an unknown or not-loaded drug: named back
    return found


SHAPE: Shape = Shape(NAME, recognise, nothing_to_search, lead_sentences)
