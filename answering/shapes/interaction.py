"""Two drugs or more named together: each one's lines naming the other, both directions."""

from dataclasses import replace

from answering.leads import lead_sentences
from answering.reading import Reading
from answering.shapes.base import Candidate, Shape, candidate
from corpus.sections import SectionKey
from retrieval.frame import TurnType
from retrieval.searches import interaction

NAME = "interaction"


def recognise(reading: Reading) -> list[Candidate]:
    if len(reading.drugs) < 2:
        return []
    frame = replace(
        reading.frame, turn_type=TurnType.INTERACTION, attribute=SectionKey.TUONG_TAC_THUOC
    )
    section, compare = reading.section, reading.says("compare")
    if section is None and reading.yes_no and not compare:
        # Several drugs in a yes/no question, whatever the connector ("dùng với", "+", "đổi
        # sang"): each one is answered, with its lines naming the other (issue 18: answering
        # only the drug named last dropped the patient's own medicine and every interaction).
        return [candidate(NAME, 55, frame)]
    if section in (None, SectionKey.TUONG_TAC_THUOC):
        return [candidate(NAME, 45, frame)]  # below a comparison ("so sánh A và B")
    return []


SHAPE: Shape = Shape(NAME, recognise, interaction, lead_sentences)
