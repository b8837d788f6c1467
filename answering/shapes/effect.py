"""Does the drug cause this effect ("Metformin có gây nhiễm toan lactic không?"): the effect's
lines wherever the monograph says it (ADR, cautions, overdose), the section after them."""

from dataclasses import replace

from answering.leads import lead_sentences
from answering.reading import Reading, condition_words
from answering.shapes.base import Candidate, Shape, candidate
from corpus.sections import SectionKey
from retrieval.searches import section

NAME = "effect"


def recognise(reading: Reading) -> list[Candidate]:
    if not reading.yes_no or len(reading.drugs) != 1:
        return []
    if reading.section != SectionKey.TAC_DUNG_KHONG_MONG_MUON:
        return []
    effect = condition_words(reading.question, reading.names)
    if not effect:
        return []
    frame = replace(reading.frame, condition=effect, unknown_drugs=(), did_you_mean=())
    return [candidate(NAME, 26, frame)]


SHAPE: Shape = Shape(NAME, recognise, section, lead_sentences)
