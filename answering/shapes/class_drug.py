"""Which drug of a named class: "Ngộ độc digoxin, nhịp nhanh thất, không đáp ứng thuốc chống
loạn nhịp. Thuốc chống động kinh nào có chỉ định trong tình huống này?", "… chảy máu. Thuốc
cầm máu nào có chỉ định cho chảy máu do quá liều thuốc tiêu huyết khối?".

The class asked for (retrieval.classes, by its phrasings followed by "nào" / "gì") is not the
class of any drug the story names: the answer is one of the class's drugs, whose indications
are searched with the story's words (the which-drug search kept to them). A drug the story
names is the patient's: its lines naming the drug found, and in a poisoning its overdose
section, stay in view — never dropped, never the answer.
"""

from answering.leads import lead_sentences
from answering.reading import (
    Reading,
    as_relation,
    asking_sentences,
    condition_words,
    patient_context,
)
from answering.shapes.base import Candidate, Shape, candidate
from corpus.sections import SectionKey
from corpus.text import diacritics_agree, fold, typed_words, words
from retrieval.classes import class_members, class_mentions
from retrieval.which_drug_search import drugs_of_class_for_condition

NAME = "class_drug"
_WHICH = ("nào", "gì")
# "bất cứ / bất kỳ … nào" is any drug of the class (a contraindication told), not which.
_ANY = {("bat", "cu"), ("bat", "ky"), ("bat", "ki")}
# The sections a question asking for a drug of a class may name (an indication, or the
# overdose of a poisoning told): an interaction or a mixing asked is the named drug's.
_ASKED_SECTIONS = (None, SectionKey.CHI_DINH, SectionKey.QUA_LIEU_VA_XU_TRI)
# Above the which-drug readings (87-90): the class narrows what they would list.
PRIOR = 91


def _asked_for(asking: str, start: int, size: int) -> bool:
    """The class's phrasing (its words at start .. start + size) asked for: followed, within
    two words, by "nào" or "gì" as typed ("… kháng penicilin như áp xe não" asks for no
    penicillin), and not "bất cứ / bất kỳ" before it."""
    folded, typed = words(asking), typed_words(asking)
    if len(typed) != len(folded):
        typed = folded
    if tuple(folded[max(0, start - 2) : start]) in _ANY:
        return False  # "người đang dùng bất cứ thuốc chống đông máu nào": any, not which
    after = start + size
    return any(
        folded[n] == fold(w) and diacritics_agree(typed[n], w)
        for n in range(after, min(after + 3, len(folded)))
        for w in _WHICH
    )


def recognise(reading: Reading) -> list[Candidate]:
    if reading.paired or reading.section not in _ASKED_SECTIONS:
        # "Warfarin dùng chung với thuốc chống viêm không steroid nào …", "Phenytoin tương tác
        # với thuốc chống nấm azol nào?": the named drug's lines naming the class answer.
        return []
    asking = asking_sentences(reading.question)
    for item, start, size in class_mentions(asking):
        if not _asked_for(asking, start, size):
            continue
        members = class_members(item)
        if not members or set(reading.drugs) & set(members):
            continue  # no drug of it here, or the drug named is of it ("… là thuốc … nào")
        condition = condition_words(reading.question, reading.names, drop_populations=True)
        if not condition:
            return []
        patient = patient_context(reading.current, reading.frame.population)
        frame = as_relation(
            reading.frame,
            "indication",
            condition,
            drugs=(),
            unknown_drugs=(),
            patient=patient,
            among=members,
            # The story's drugs, not the patient's medicines (their lines come as the
            # patient's context): a poisoning's drug.
            companions=tuple(d for d in reading.drugs if d not in reading.current),
        )
        return [candidate(NAME, PRIOR, frame)]
    return []


SHAPE: Shape = Shape(NAME, recognise, drugs_of_class_for_condition, lead_sentences)
