"""May the drug be given to this patient ("… được không", "tiền sử …", "suy thận"): the
patient's situation looked for in the drug's sections, contraindications first."""

from dataclasses import replace

from answering.cues import ORGAN_TERMS
from answering.intents import inside_a_condition, named_in_monograph, situation_phrase
from answering.leads import lead_sentences
from answering.reading import Reading, as_relation, condition_words
from answering.shapes.base import Candidate, Shape, candidate
from corpus.sections import SectionKey
from retrieval.searches import situation

NAME = "situation"

# What a patient eats, drinks or smokes: interaction words of the phrase table that are the
# thing asked about ("nước bưởi", "rượu bia"), folded.
CONSUMED = ("nuoc buoi", "ruou bia", "ruou", "bia", "thuc an", "sua", "ca phe", "thuoc la")


def recognise(reading: Reading) -> list[Candidate]:
    frame, question, section = reading.frame, reading.question, reading.section
    if not reading.drugs:
        return []
    names, yes_no = reading.names, reading.yes_no
    found = []
    if yes_no and inside_a_condition(question, section):
        # "nifedipin dùng cho người rối loạn chuyển hóa porphyrin được không?"
        condition = condition_words(question, names, keep_sections=True)
        found.append(candidate(NAME, 30, as_relation(frame, "contraindication", condition or None)))
    told = situation_phrase(question, section) if yes_no else None
    if told is not None:
        relation = as_relation(frame, "contraindication", told, attribute=SectionKey.CHONG_CHI_DINH)
        found.append(candidate(NAME, 29, relation))
    if yes_no and section in (None, SectionKey.CHONG_CHI_DINH):
        condition = condition_words(question, names)
        if section is None and frame.population == "tre_em":
            # "Aspirin cho trẻ em được không?": the contraindications and the child's lines.
            children = replace(frame, attribute=SectionKey.CHONG_CHI_DINH)
            found.append(candidate(NAME, 28, children))
        else:
            if frame.population in ORGAN_TERMS:
                condition = ORGAN_TERMS[frame.population or ""]
            relation = as_relation(
                frame,
                "contraindication",
                condition or None,
                attribute=section or SectionKey.CHONG_CHI_DINH,
            )
            found.append(candidate(NAME, 28, relation))
    if section is None and frame.population == "suy_than":
        found.append(candidate(NAME, 27, as_relation(frame, "contraindication", frame.condition)))
    if (
        yes_no
        and section == SectionKey.TUONG_TAC_THUOC
        and len(reading.drugs) == 1
        and not reading.unknown
    ):
        # "Amlodipin có tương tác với nước bưởi không?": a food, a drink or a habit the
        # monograph names nowhere is said to be not named ("không nêu"), in the user's words;
        # one it names stays an interaction question (its lines are in the section).
        folded = reading.folded
        taken = [f for f in CONSUMED if f" {f} " in f" {folded} "]
        words = condition_words(question, names).split()
        condition = " ".join(dict.fromkeys([*taken, *words]))
        if condition and not named_in_monograph(reading.drugs[0], condition, taken):
            relation = as_relation(frame, "contraindication", condition, attribute=section)
            found.append(candidate(NAME, 25, relation))
    return found


SHAPE: Shape = Shape(NAME, recognise, situation, lead_sentences)
