"""An emergency described around a drug (poisoning, an accidental swallow, self-harm,
anaphylaxis, a seizure): answered from the drug's Quá liều và xử trí or its ADR management,
never its dose table — unless the dose is asked of a drug given for the emergency. It re-reads the frame another shape chose (issue 18's red flags)."""

import re
from collections.abc import Sequence
from dataclasses import replace

from answering.leads import lead_sentences
from answering.red_flags import EMERGENCY, follows_a_drug, red_flag
from answering.red_flags import SECTIONS as RED_FLAG_SECTIONS
from answering.results import Citation
from answering.shapes.base import Shape
from corpus.sections import SectionKey
from retrieval.frame import QueryFrame, TurnType
from retrieval.searches import section

NAME = "emergency"
# A paragraph of the overdose section that tells the symptoms ("*Triệu chứng:* …").
_SYMPTOMS = re.compile(r"\W*(?:triệu chứng|biểu hiện)", re.IGNORECASE)


def reread(frame: QueryFrame, flag: str | None, typed: str = "") -> QueryFrame:
    """The frame with the emergency it describes: a named drug is answered with its overdose
    or ADR management (poisoning and self-harm always; another emergency when no dose is asked
    or when it followed the drug), else with the dose asked for treating it."""
    if flag is None:
        return frame
    frame = replace(frame, red_flag=flag)
    if not frame.drugs or frame.turn_type in (TurnType.INTERACTION, TurnType.CONDITION_TO_DRUG):
        return frame
    treatment = frame.attribute == SectionKey.LIEU_LUONG_VA_CACH_DUNG and not follows_a_drug(typed)
    if flag == EMERGENCY and treatment:
        return frame  # the dose of the drug given for it, under the emergency's first line
    if flag != EMERGENCY or frame.attribute in (None, SectionKey.LIEU_LUONG_VA_CACH_DUNG):
        attribute = RED_FLAG_SECTIONS[flag]
        return replace(
            frame,
            turn_type=TurnType.DRUG_ATTRIBUTE,
            attribute=attribute,
            needs_clarify=False,
            shape=NAME,
        )
    return frame


def kept(frame: QueryFrame, citations: Sequence[Citation]) -> set[int]:
    """For a poisoning or an overdose, what to do is in view: the paragraphs of Quá liều và
    xử trí other than its symptoms ("*Xử trí*: Nếu quá liều nhẹ thì chỉ cần ngừng …", "Có
    thể tăng thải trừ borat bằng thẩm tách máu"), not only the symptoms the question names."""
    if frame.attribute != SectionKey.QUA_LIEU_VA_XU_TRI:
        return set()
    return {
        c.chunk_id
        for c in citations
        if c.section_key == SectionKey.QUA_LIEU_VA_XU_TRI
        and not c.quarantined
        and not _SYMPTOMS.match(c.text)
    }


SHAPE: Shape = Shape(
    NAME,
    None,
    section,
    lead_sentences,
    reread=lambda frame, typed: reread(frame, red_flag(typed), typed),
    kept=kept,
)
