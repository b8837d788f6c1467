"""A symptom the patient has since the drug, asked whether the drug caused it or what to do
("bn uống captopril 3 tuần, mất vị giác, có phải do thuốc? bao lâu thì hết"; "tiêu chảy 8
lần/ngày, sốt nhẹ. Xử trí?"): the book's ADR management line naming the symptom, with the
sentence after it (what to do is told next: "Nếu bị ỉa chảy nặng … Cần ngừng …"), then the
ADR line naming it. A general "có gây … không" stays the effect shape's."""

import re
from collections.abc import Sequence
from dataclasses import replace

from answering.leads import lead_sentences
from answering.reading import Reading, asking_sentences, condition_words
from answering.red_flags import follows_a_drug
from answering.results import Citation
from answering.shapes.base import Candidate, Shape, candidate
from answering.units import Unit, units
from corpus.sections import PATIENT_SECTIONS, SectionKey
from corpus.text import fold, folded_phrase, prints_phrase, words
from retrieval.catalog import get_resolver
from retrieval.effects import SHORT_MANAGEMENT, SYMPTOM_SECTIONS, symptom, symptom_of
from retrieval.frame import QueryFrame, TurnType
from retrieval.phrases import compile_table, match_table, section_matches
from retrieval.question_words import Situation, coverage, names_situation
from retrieval.ward_asks import (
    ADR_ASKS,
    ADR_MANAGED,
    ADR_NAMED,
    ATTRIBUTION,
    EASED_BY,
    ELAPSED,
    MANAGEMENT_ASKS,
    NAMED_EFFECTS,
)
from retrieval.ward_cues import COMMON_ASKED

NAME = "adverse"
# Above a situation's readings (25–30): "có phải do thuốc, làm gì?" is not "may it be given".
PRIOR = 32
# Asked what to do about the reaction: above a section's or a dose's reading (34, 40), whose
# words the story says ("giảm liều tiếp tục", "hấp thu").
MANAGED_PRIOR = 41
LEAD_LINES = 4
ADR_LINES = 2
_ATTRIBUTION = frozenset(folded_phrase(p) for p in ATTRIBUTION)
_NAMED = frozenset(folded_phrase(p) for p in NAMED_EFFECTS)
_ADR_ASKS = frozenset(folded_phrase(p) for p in (*ADR_ASKS, *EASED_BY))
_MANAGING = frozenset(folded_phrase(p) for p in (*MANAGEMENT_ASKS, *EASED_BY))
_EASED = compile_table({"eased": EASED_BY})
_ADR_NAMED = compile_table({"adr": ADR_NAMED})
_ADR_MANAGED = compile_table({"managed": ADR_MANAGED})
_ELAPSED = re.compile(r"(?<![a-z0-9])(?:" + "|".join(ELAPSED) + r")(?![a-z0-9])")


def recognise(reading: Reading) -> list[Candidate]:
    if len(reading.drugs) != 1:
        return []
    managed = _managed(reading)
    if managed is not None:
        return [managed]
    # A symptom told after the drug and asked about with no section's word ("từ khi uống
    # captopril … mất vị, có hết không?"): the ADR management answers it.
    # Another drug named ("muốn chuyển sang clonidin …, có cần ngừng chẹn beta trước?") makes
    # it a switch, not a symptom.
    # A name no monograph answers for, asked as the remedy ("cho thêm antacid để đỡ"), is
    # no switch; nor is a word the book prints as no drug's name ("kháng histamin").
    asked = (
        reading.section is None
        and (
            all(get_resolver().mentioned_in_book(u) for u in reading.unknown)
            or bool(match_table(reading.question, _EASED))
        )
        and _told_since_a_drug(reading.question)
        and _asks(reading)
    )
    if reading.section not in SYMPTOM_SECTIONS and not asked:
        return []
    # Asked what to do or whether the drug caused it, or told after the drug; an effect named
    # alone is no symptom now ("tiền sử phù mạch dùng enalapril được không" is a history).
    said = section_matches(reading.question)
    told = (
        any(m.key == SectionKey.HUONG_DAN_CACH_XU_TRI_ADR and m.phrase not in _NAMED for m in said)
        or any(m.phrase in _ATTRIBUTION for m in said)
        or _told_since_a_drug(reading.question)
    )
    # The asking phrases cut ("có phải do thuốc", "xử trí"), an effect named by one kept
    # ("phù môi", "hội chứng người đỏ").
    named = [p for p in sorted(_NAMED) if f" {p} " in f" {reading.folded} "]
    # How often asked ("thường bị …", "hay gặp …") is no effect's word.
    often = {
        w
        for p in COMMON_ASKED
        if f" {folded_phrase(p)} " in f" {reading.folded} "
        for w in words(p)
    }
    told_effect = [
        w for w in condition_words(reading.question, reading.names).split() if w not in often
    ]
    effect = " ".join([*named, *told_effect]).strip()
    if not (told or asked) or not effect:
        return []
    # What to do about it is asked ("có cần ngừng", "làm sao để giảm tác dụng phụ này"):
    # the management first, whatever section word the story said.
    managing = prints_phrase(reading.question, _MANAGING)
    attribute = reading.section or SectionKey.HUONG_DAN_CACH_XU_TRI_ADR
    frame = replace(
        reading.frame,
        turn_type=TurnType.DRUG_ATTRIBUTE,
        attribute=SectionKey.HUONG_DAN_CACH_XU_TRI_ADR if managing else attribute,
        condition=effect,
        relation=None,
    )
    return [candidate(NAME, PRIOR, frame)]


def _managed(reading: Reading) -> Candidate | None:
    """What to do about an adverse reaction, asked in so many words ("ADR nặng … có thuốc gì
    dùng được không?", "làm sao hạn chế … gây phản ứng?"), or with a symptom told since the
    drug ("mới bắt đầu allopurinol được 10 ngày thì nổi ban … Có cần ngừng thuốc không hay
    giảm liều tiếp tục?"): the ADR management first, whatever section word is said with it
    ("hấp thu", "giảm liều")."""
    if reading.section == SectionKey.QUA_LIEU_VA_XU_TRI:
        return None  # "INR 9, chảy máu chân răng. Dùng thuốc gì để đảo ngược?": its overdose
    asking = asking_sentences(reading.question)
    named = bool(match_table(asking, _ADR_NAMED)) and bool(match_table(asking, _ADR_MANAGED))
    # As for a symptom asked with no section's word: a name no monograph answers for is a
    # switch ("đang uống bisoprolol, muốn chuyển sang clonidin, có cần ngừng trước?").
    # A pregnancy or breast-feeding told is the patient's situation, no reaction's story
    # ("đang uống phenytoin …, chuẩn bị có em bé. Uống tiếp được ko hay phải đổi?").
    told = (
        reading.frame.population not in PATIENT_SECTIONS
        and prints_phrase(asking, _MANAGING)
        and _told_since_a_drug(reading.question)
        and all(get_resolver().mentioned_in_book(u) for u in reading.unknown)
    )
    if not (named or told):
        return None
    effect = condition_words(reading.question, reading.names)
    if not effect:
        return None
    frame = replace(
        reading.frame,
        turn_type=TurnType.DRUG_ATTRIBUTE,
        attribute=SectionKey.HUONG_DAN_CACH_XU_TRI_ADR,
        condition=effect,
        relation=None,
    )
    return candidate(NAME, MANAGED_PRIOR, frame)


def _told_since_a_drug(question: str) -> bool:
    """Whether the question tells a story since a drug was given: after it, or how long it
    has been taken ("dùng Ziagen được 2 tuần thì sốt")."""
    return follows_a_drug(question) or tells_elapsed(question)


def tells_elapsed(question: str) -> bool:
    """Whether the question tells how long since the drug, or what followed taking it
    ("được 2 tuần thì sốt", "uống amoxicilin bị nổi mẩn"): a symptom's story."""
    return bool(_ELAPSED.search(f" {fold(question)} "))


def _asks(reading: Reading) -> bool:
    return prints_phrase(reading.question, _ADR_ASKS)


def _next(found: list[Unit], n: int, text: str) -> list[str]:
    """The sentence after unit n in its paragraph, or the paragraph a sentence ending in ":"
    introduces ("… bao gồm các biện pháp sau:" / "Ngừng dùng enalapril …")."""
    if n + 1 >= len(found):
        return []
    here, after = text.find(found[n].bare), text.find(found[n + 1].bare)
    if here < 0 or after <= here:
        return []
    # Between them, at most the rest of the paragraph (a heading-like "… biện pháp sau:" is
    # no unit of its own).
    gap = text[here:after]
    if "\n\n" not in gap or gap.rstrip().endswith(":"):
        return [found[n + 1].text]
    return []


def _naming(citations: Sequence[Citation], said: Situation, key: str) -> list[tuple[str, Citation]]:
    """The section's units naming the symptom, those saying most of it first: for the ADR
    management the best with the sentence after it (what to do is told next: "Nếu bị ỉa chảy
    nặng … Cần ngừng …"), for the ADR list the best two."""
    scored: list[tuple[float, int, Citation, list[Unit], int]] = []
    for c in citations:
        if c.section_key != key or c.quarantined or c.text.lstrip().startswith("|"):
            continue
        found = units(c.text)
        for n, u in enumerate(found):
            if names_situation(u.bare, said):
                scored.append((coverage(u.bare, said), len(scored), c, found, n))
    scored.sort(key=lambda s: (-s[0], s[1]))
    if key == SectionKey.HUONG_DAN_CACH_XU_TRI_ADR:
        return [
            (text, c)
            for *_, c, found, n in scored[:1]
            for text in [found[n].text, *_next(found, n, c.text)]
        ]
    return [(found[n].text, c) for *_, c, found, n in scored[:ADR_LINES]]


def lead(
    frame: QueryFrame, citations: Sequence[Citation], in_focus: Sequence[Citation] = ()
) -> list[tuple[str, Citation]]:
    """The symptom's lines of both sections, the section asked for first: "có phải do
    thuốc?" is answered by the ADR line, "xử trí?" by the management line."""
    said = symptom_of(frame)
    lines: list[tuple[str, Citation]] = []
    for key in sorted(SYMPTOM_SECTIONS, key=lambda k: k != frame.attribute):
        lines += _naming(citations, said, key)
    # None naming it: the effect's lines wherever the monograph says them, as for any effect.
    return lines[:LEAD_LINES] or lead_sentences(frame, citations, in_focus)


# An ADR management this long (characters) is read whole when what to do is asked and none
# of its paragraphs names the symptom (nine in ten of the book's are shorter).
ASKED_MANAGEMENT = 1500


def kept(frame: QueryFrame, citations: Sequence[Citation]) -> set[int]:
    """Under the lead, in view: the ADR management, all of it when short (what to do is often
    told around the symptom's sentence, not in it), else its paragraphs naming the symptom;
    for "có phải do thuốc?" (or a management naming nothing), with the ADR paragraph saying
    most of the symptom too (a list's neighbouring lines are the same organ's: "viêm loét
    thực quản (1,5%); nuốt khó")."""
    said = symptom_of(frame)
    managing = [c for c in citations if c.section_key == SectionKey.HUONG_DAN_CACH_XU_TRI_ADR]
    naming = [c for c in managing if names_situation(c.text, said)]
    total = sum(len(c.text) for c in managing)
    # Asked what to do, with no management paragraph naming the symptom in its words ("tránh
    # những ADR về tiêu hóa" for "ỉa chảy, buồn nôn"): the management is read whole when it
    # is no longer than ASKED_MANAGEMENT; the lead has said the symptom's ADR lines.
    asked = frame.attribute == SectionKey.HUONG_DAN_CACH_XU_TRI_ADR
    whole = total <= SHORT_MANAGEMENT or (asked and not naming and total <= ASKED_MANAGEMENT)
    keep = {c.chunk_id for c in (managing if whole else naming)}
    if asked and naming:
        return keep
    listed = [
        (coverage(c.text, said), -n, c)
        for n, c in enumerate(citations)
        if c.section_key == SectionKey.TAC_DUNG_KHONG_MONG_MUON and not c.quarantined
    ]
    best = max(listed, key=lambda s: s[:2], default=None)
    if best is not None and best[0] > 0:
        keep.add(best[2].chunk_id)
    return keep


SHAPE: Shape = Shape(NAME, recognise, symptom, lead, kept=kept)
