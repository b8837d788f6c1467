"""A section of the monograph asked for ("Liều …", "bảo quản …"), or, with none named, the
question's own words searched over the drug's paragraphs (free form). Every drug question
reads this way too, at the lowest prior: the floor the other readings are weighed against."""

from dataclasses import replace

from answering.leads import lead_sentences
from answering.reading import Reading, condition_words
from answering.shapes.base import Candidate, Shape, candidate
from retrieval.phrases import section_matches
from retrieval.searches import section

NAME = "section"


def recognise(reading: Reading) -> list[Candidate]:
    if not reading.drugs:
        return []
    found = []
    if reading.section is None and not reading.yes_no:
        words_left = condition_words(reading.question, reading.drugs)
        if words_left and not reading.says("what_is"):
            found.append(candidate(NAME, 34, reading.frame))
    found.append(candidate(NAME, 0, reading.frame))
    # The other sections the question's phrases name, weakest: readings for the arbiter to
    # weigh ("pha loãng … truyền" names Liều lượng; "pha với" Tương kỵ).
    for key in dict.fromkeys(m.key for m in section_matches(reading.question)):
        if key != reading.section:
            found.append(candidate(NAME, -1, replace(reading.frame, attribute=key)))
    return found


SHAPE: Shape = Shape(NAME, recognise, section, lead_sentences)
