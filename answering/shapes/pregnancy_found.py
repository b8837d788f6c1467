"""A pregnancy (or breast-feeding) told now, asked what to do with the drug the patient takes
("đang uống Cozaar 50 mg, vừa thử que 2 vạch (thai khoảng 6 tuần). Xử trí thuốc thế nào?"):
the drug's Thời kỳ mang thai (cho con bú) answers, not the ADR management the bare "xử trí"
names. A symptom told since the drug ("uống amoxicilin bị nổi mẩn, xử trí sao") stays the
adverse shape's."""

from dataclasses import replace

from answering.leads import lead_sentences
from answering.reading import Reading
from answering.shapes.adverse import tells_elapsed
from answering.shapes.base import Candidate, Shape, candidate
from corpus.sections import PATIENT_SECTIONS, SectionKey
from retrieval.frame import TurnType
from retrieval.phrases import section_matches
from retrieval.searches import section

NAME = "pregnancy_found"
# Above the adverse shape (32), below monitoring (33 is its; equal priors keep registry order).
PRIOR = 33
# The management's phrases that name no symptom: "what to do" asked of the drug itself.
_BARE = frozenset(
    ("xu tri", "xu tri the nao", "xu tri sao", "xu tri nhu the nao", "xu ly", "xu ly the nao")
)


def recognise(reading: Reading) -> list[Candidate]:
    population = reading.frame.population or ""
    if len(reading.drugs) != 1 or population not in PATIENT_SECTIONS:
        return []
    managing = [
        m
        for m in section_matches(reading.question)
        if m.key == SectionKey.HUONG_DAN_CACH_XU_TRI_ADR
    ]
    if not managing or any(m.phrase not in _BARE for m in managing):
        return []
    if tells_elapsed(reading.question):
        return []  # a symptom since the drug: its management
    frame = replace(
        reading.frame,
        turn_type=TurnType.DRUG_ATTRIBUTE,
        attribute=PATIENT_SECTIONS[population],
        condition=None,
        relation=None,
    )
    return [candidate(NAME, PRIOR, frame)]


SHAPE: Shape = Shape(NAME, recognise, section, lead_sentences)
