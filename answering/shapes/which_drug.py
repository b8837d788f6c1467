"""Which drug treats (or causes, or must not be given with) a condition: the condition is
looked for in every monograph's Chỉ định (Tác dụng không mong muốn, Chống chỉ định)."""

import re
from dataclasses import replace

from answering.cues import asks_for_a_drug
from answering.intents import current_medicines, without_cue
from answering.leads import lead_sentences
from answering.reading import (
    SENTENCE,
    Reading,
    as_relation,
    asking_sentences,
    asks_a_drug,
    condition_to_drug,
    condition_words,
    patient_context,
)
from answering.shapes.base import Candidate, Shape, candidate
from corpus.sections import PATIENT_SECTIONS, SectionKey
from corpus.text import folded_phrase
from retrieval.catalog import get_resolver
from retrieval.effects import caused_by
from retrieval.which_drug_search import drugs_for_condition

NAME = "which_drug"
# The sections a which-drug question may name as its relation ("những thuốc nào có chỉ
# định …", "loại thuốc nào …"), with the patient's own sections (a pregnancy said with it).
_RELATION_SECTIONS = (None, SectionKey.CHI_DINH, SectionKey.LOAI_THUOC, *PATIENT_SECTIONS.values())


def recognise(reading: Reading) -> list[Candidate]:
    frame, question, resolution = reading.frame, reading.question, reading.resolution
    drugs, section = reading.drugs, reading.section
    # The medicines the patient takes that no monograph here answers for ("đang uống lithi"):
    # no part of the condition, and read against each drug listed.
    taken = reading.current_unknown
    unknown = [u for u in resolution.unknown if u not in taken]
    not_loaded = [u for u in resolution.not_loaded if u not in taken]
    # An open wording only in the sentence that asks ("người đang dùng bất cứ thuốc chống đông
    # máu nào …. Cho Lifenac được không?" tells a contraindication, asks no drug).
    asking = folded_phrase(asking_sentences(question))
    asks = reading.says("which_drug_strict") or asks_for_a_drug(asking)
    found = []
    # "… đã uống metronidazol 5 ngày không đỡ. Còn lựa chọn đường uống nào khác?": a drug
    # tried or reacted to is the patient's too, and another is asked for.
    tried = current_medicines(reading.folded, reading.resolution.spans, cue="tried_before")
    # Asked to undo or manage the named drug's own effect ("đang dùng warfarin, INR 9, chảy
    # máu chân răng. Dùng thuốc gì để đảo ngược?"): its overdose or ADR management answers,
    # never another drug indicated for the story's words.
    managed = section in (SectionKey.QUA_LIEU_VA_XU_TRI, SectionKey.HUONG_DAN_CACH_XU_TRI_ADR)
    # "… đang uống Milurit, nay … BS kê Bactrim. Phối hợp 2 thuốc có vấn đề gì?": another drug
    # the book indexes, given now, is the pair asked about, not a drug asked for.
    given = section == SectionKey.TUONG_TAC_THUOC and bool(
        resolution.not_loaded or resolution.unknown
    )
    if drugs and set(drugs) <= {*reading.current, *tried} and asks and not managed and not given:
        # "BN đang dùng warfarin, đau khớp dùng thuốc gì?": the named drugs are the patient's
        # medicines, the question is which drug treats the condition.
        condition = condition_words(question, reading.names, drop_populations=True)
        # A symptom the patient's own drug causes ("đang dùng metformin bị tiêu chảy nhiều,
        # dùng thuốc gì?") is its ADR management's (the adverse shape), never the first
        # drug indicated for the word ("ỉa chảy do Clostridium difficile").
        told = replace(frame, condition=condition)
        # A drug tried and failed or reacted to ("đã uống metronidazol 5 ngày không đỡ") is
        # no cause: another drug is asked for.
        taking = len(drugs) == 1 and drugs[0] in reading.current and drugs[0] not in tried
        if condition and taking and caused_by(drugs[0], told):
            condition = ""
        if condition:
            patient = patient_context(reading.current, frame.population)
            relation = as_relation(
                frame, "indication", condition, drugs=(), unknown_drugs=(), patient=patient
            )
            found.append(candidate(NAME, 90, relation))
    if not drugs and reading.says("causes"):
        # "Thuốc nào gây hội chứng Stevens-Johnson?": the foreign words name the condition.
        condition = without_cue(condition_words(question, ()), "causes")
        causes = as_relation(frame, "adverse_effect", condition, unknown_drugs=())
        found.append(candidate(NAME, 89, causes))
    if (
        not drugs
        # "… bị run, cứng đơ kiểu ngoại tháp — thuốc nào điều trị …": asked to treat, the
        # vignette's section words (an ADR told) name no relation.
        and (section in _RELATION_SECTIONS or reading.says("treat"))
        and reading.says("which_drug_strict")
        and not reading.says("what_is_strict")
    ):
        # "Có thuốc nào trị nấm candida không?": the foreign word names the condition. A
        # pregnancy or breast-feeding said with it is the patient's, for the safety lines.
        # "Những thuốc nào có chỉ định điều trị động kinh?": the section word is the relation.
        reverse = condition_to_drug(frame, question)
        if reverse is not None:
            patient = patient_context(taken, frame.population)
            found.append(candidate(NAME, 88, replace(reverse, patient=patient)))
    if (
        not drugs
        and section is None
        and reading.says("which_drug", "treat")
        and all(get_resolver().mentioned_in_book(u) for u in unknown)
        and not not_loaded
    ):
        # "methemoglobin huyết điều trị bằng thuốc gì": a word the book uses is the condition.
        reverse = condition_to_drug(frame, question)
        if reverse is not None:
            patient = patient_context(taken, frame.population)
            found.append(candidate(NAME, 87, replace(reverse, patient=patient)))
    if (
        not drugs
        and asks_for_a_drug(reading.folded)
        and not reading.says("what_is_strict", "causes", "contraindicated_in")
        and section not in (SectionKey.CHONG_CHI_DINH, SectionKey.TAC_DUNG_KHONG_MONG_MUON)
    ):
        # "BN hóa trị ifosfamid liều cao, dùng thuốc gì dự phòng …", "có thuốc bôi tại chỗ
        # nào giảm đau": asked for a drug in an open wording, whatever section word is said
        # in passing ("liều cao", "hấp thu"); any word no drug answers for ("sarcoma",
        # "Fansipan", "đang thải sắt bằng desferal") is the context.
        reverse = condition_to_drug(frame, question)
        if reverse is not None:
            patient = patient_context(taken, frame.population)
            found.append(
                candidate(
                    NAME, 86, replace(reverse, attribute=SectionKey.CHI_DINH, patient=patient)
                )
            )
    if (reading.says("contraindicated_in") or _ASKS_CONTRAINDICATED.search(asking)) and not drugs:
        condition = condition_words(question, ())
        found.append(candidate(NAME, 75, as_relation(frame, "contraindication", condition)))
    if not drugs and (again := asked_of_the_drug_found(question)):
        found = [replace(c, frame=replace(c.frame, asks_of_found=again)) for c in found]
    return found


# "Loại thuốc khí dung … nào trong DT bị chống chỉ định vì lý do này?": which drugs the
# book contraindicates, the kind of drug and the words between however many.
_ASKS_CONTRAINDICATED = re.compile(
    r"\b(thuoc|loai)\b[^.?]*\bnao\b[^.?]*\b(bi|deu|phai)? ?chong chi dinh\b(?! gi)"
)


# A sentence that asks, after the one asking which drug: of the drug found ("Trong DT có
# thuốc nào dùng kèm ifosfamid …? Dùng rồi có chắc … không?", "tiêm thuốc gì để phòng …?
# Nếu … thì xử lý sao?").
_ASKS_AGAIN = re.compile(
    r"\b(bao nhieu|bao lau|may (ngay|lan|tuan)|the nao|ra sao|sao|co can|duoc (khong|ko|k))\b"
    r"|\b(khong|ko)\s*$"
)


_AND = re.compile(
    r",?\s+(?:và|va|rồi|roi)\s+(?=[^,]*\b(?:nào|nao|bao|sao|gì|gi)\b)"
    # Or the drug found named by a pronoun ("…, nó tác dụng ra sao?").
    r"|,\s+(?=(?:nó|no|thuốc đó|thuoc do|thuốc này|thuoc nay)\s[^,]*\b(?:nào|nao|bao|sao|gì|gi)\b)"
    # Or how it is given ("…, liều ra sao?", "…, tốc độ bao nhiêu?", "…, dùng thế nào?").
    r"|,\s+(?=(?:liều|lieu|tốc độ|toc do|cách dùng|cach dung|dùng|dung|pha|truyền|truyen|tiêm|tiem)"
    r"\b[^,]*\b(?:nào|nao|bao|sao|gì|gi)\b)"
    # Or another of its sections ("…, giảm đau theo cơ chế nào?", "…, chống chỉ định gì?").
    r"|,\s+(?=[^,]*\b(?:cơ chế|co che|tác dụng|tac dung|chống chỉ định|chong chi dinh|tương tác"
    r"|tuong tac)\b[^,]*\b(?:nào|nao|sao|gì|gi)\b)"
)


_DOSE_ASKED = re.compile(r"\b(co lieu|lieu dung|lieu luong|lieu (bao nhieu|the nao|ra sao))\b")


def asked_of_the_drug_found(question: str) -> str:
    """The sentences after the first one asking for a drug, when one of them asks more."""
    told = [s for s in SENTENCE.findall(question) if s.strip()]
    asking = [n for n, s in enumerate(told) if asks_a_drug(folded_phrase(s))]
    later = told[asking[0] + 1 :] if asking else []
    # Or in the same sentence after "và" ("Cần cho kèm thuốc gì để dự phòng …, và ngưỡng liều
    # nào thì bắt buộc?").
    if asking and (joined := _AND.split(told[asking[0]], maxsplit=1)[1:]):
        later = [*joined, *later]
    asks = any(s.rstrip().endswith("?") or _ASKS_AGAIN.search(folded_phrase(s)) for s in later)
    if not asks and asking and _DOSE_ASKED.search(folded_phrase(told[asking[0]])):
        # The dose asked in the same words ("… thuốc kháng nấm nào có liều cho bệnh này?").
        return told[asking[0]].strip()
    return "".join(later).strip() if asks else ""


SHAPE: Shape = Shape(NAME, recognise, drugs_for_condition, lead_sentences)
