"""Whether a paragraph says the question's situation specifically, not by a word or pair it
happens to share (issue 18: a word-sharing line listed reads as the book's answer)."""

import re
from dataclasses import replace

from retrieval.question_words import (
    RARE_IDF,
    Situation,
    compound,
    coverage,
    names_situation,
    specificity,
)

# The words that join the telling of a case, never part of what it names (folded): "sau" /
# "trước" tell when ("sau phẫu thuật" is the setting of a condition, not the condition).
_JOINING = frozenset(
    "trong nao co duoc dung thuoc bn cho khi gi khong ko la va voi hay hoac nhu thi sao nay "
    "roi ma cua sau truoc".split()
)


# A paragraph saying this share of the question's words (idf-weighted) says its condition
# though every word is common ("bị phù, dùng thuốc lợi tiểu nào").
SAID_MOSTLY = 0.5


def said_specifically(
    text: str, situation: Situation, condition: Situation, *, whole: bool = False
) -> bool:
    """Said by a rare word, or by pairs as rare together, or by most of the condition's
    words (the question's but the drugs' names) in one sentence (`whole`: in the paragraph,
    which names a drug the question names: mesna's "… cho kèm mesna nếu dùng ifosfamid …"
    over three sentences); a pair a word of how the case is told makes ("phổi, trong dược
    thư" is no "phổi trong") or a compound word ("sau phẫu thuật") says nothing more."""
    told = frozenset(
        p for p in situation.pairs if not (_JOINING.intersection(p.split("_")) or compound(p))
    )
    own = replace(situation, pairs=told)
    return names_situation(text, own) and (
        specificity(text, own) >= RARE_IDF
        or max(coverage(s, condition) for s in [*_SENTENCE_END.split(text), *[text] * whole])
        >= SAID_MOSTLY
    )


# Most of the condition's words said in one sentence: a long paragraph says common words of
# a story far apart ("tiền kích thích" of one indication, "phẫu thuật tim" of another).
_SENTENCE_END = re.compile(r"(?<=[.;:!?])\s+|\n+")
