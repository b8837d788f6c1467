"""The intent rules of understanding, each a named case of general shape: a condition told as
the patient's situation, the medicines the patient already takes, the antidote whose regimen
sits in the poison's overdose section, and the words of a cue that are not the condition."""

import re
from collections.abc import Sequence

from answering.cues import CUES, ends_of, has
from corpus.sections import (
    CONDITION_SECTIONS,
    NOT_A_PATIENTS_SECTIONS,
    SITUATION_SECTIONS,
    SectionKey,
)
from corpus.text import folded_phrase
from retrieval.phrases import section_matches
from retrieval.queries import find_condition_in_sections, own_names
from retrieval.retrieved import sub_phrases


def _cued_match(question: str, section: str | None) -> str | None:
    folded = folded_phrase(question)
    for match in section_matches(question):
        if match.key != section:
            continue
        before = " ".join(folded[: match.start].split()[-3:])
        if has(before, "situation"):
            return match.phrase
    return None


def situation_phrase(question: str, section: str | None) -> str | None:
    """The section phrase of a yes/no question that follows "tiền sử"/"bị": a condition."""
    if section not in CONDITION_SECTIONS:
        return None
    return _cued_match(question, section)


def inside_a_condition(question: str, section: str | None) -> bool:
    """Whether the routed section's phrase is a word of the patient's condition instead."""
    return section in NOT_A_PATIENTS_SECTIONS and _cued_match(question, section) is not None


# Words that point back at the story ("thuốc giải nào cho tình trạng này?"): no condition of
# their own. Removed as whole phrases: "trường" alone is also "trưởng thành".
POINTING_BACK = tuple(
    f"{head} {this}"
    for head in ("tinh trang", "truong hop", "tinh huong", "benh", "ca", "benh nhan", "bn")
    for this in ("nay", "tren", "do", "nhu vay")
)


# How a drug is given, as the ask names it ("thuốc bôi nào", "loại tiêm nào").
ROUTE_WORDS = frozenset("uong tiem truyen boi xit nho dan ngam hit dat khi dung loai dang".split())


def without_cue(condition: str, cue: str) -> str:
    """The condition without the words of the cue that asked for it ("gây" of "thuốc nào gây")
    and without the words pointing back at the story ("tình trạng này")."""
    for phrase in POINTING_BACK:
        condition = re.sub(rf"(?<![a-z0-9]){phrase}(?![a-z0-9])", " ", condition)
    cue_words = {w for phrase in CUES[cue] for w in phrase.split()}
    left = [w for w in condition.split() if w not in cue_words]
    # "thuốc bôi nào cho tình trạng này": a route left alone is no condition either.
    return "" if set(left) <= ROUTE_WORDS else " ".join(left)


def current_medicines(
    folded: str, spans: Sequence[tuple[str, str]], cue: str = "currently_taking"
) -> tuple[str, ...]:
    """Drugs named after "đang dùng/đang uống" (the patient's medicines, not the question's);
    with `cue="tried_before"`, after "đã uống", "từng phản ứng với" (the ones tried)."""
    found: list[str] = []
    for end in ends_of(folded, cue):
        tail = folded[end : end + 80]
        for phrase, drug_id in spans:
            if (
                re.search(rf"(?<![a-z0-9]){re.escape(phrase)}(?![a-z0-9])", tail)
                and drug_id not in found
            ):
                found.append(drug_id)
    return tuple(found)


def antidote_subject(drugs: Sequence[str], other_names: Sequence[str]) -> str | None:
    """The drug whose overdose section names another drug of the question most often (the
    antidote's regimen is printed in the poison's section; "NAC cho paracetamol")."""
    best, best_count = None, 0
    for subject in drugs:
        names = [n for d in drugs if d != subject for n in own_names(d)] + list(other_names)
        count = 0
        for name in {folded_phrase(n) for n in names if folded_phrase(n)}:
            for hit in find_condition_in_sections(subject, name, [SectionKey.QUA_LIEU_VA_XU_TRI]):
                count += f" {folded_phrase(hit.text)} ".count(f" {name} ")
        if count > best_count:
            best, best_count = subject, count
    return best


def named_in_monograph(drug_id: str, condition: str, items: Sequence[str] = ()) -> bool:
    """Whether any clinical section of the drug says one of the items (what the patient
    takes: "rượu", "nước bưởi"), the condition, or a part of it of two words or more."""
    phrases = [*items, *(p for p in sub_phrases(condition) if len(p.split()) >= 2)]
    return any(find_condition_in_sections(drug_id, p, SITUATION_SECTIONS) for p in phrases)
