"""Whether a paragraph says the question's situation specifically, not by a word or pair it
happens to share (issue 18: a word-sharing line listed reads as the book's answer)."""

from dataclasses import replace

from retrieval.question_words import RARE_IDF, Situation, coverage, names_situation, specificity

# The words that join the telling of a case, never part of what it names (folded).
_JOINING = frozenset(
    "trong nao co duoc dung thuoc bn cho khi gi khong ko la va voi hay hoac nhu thi sao nay "
    "roi ma cua".split()
)


# A paragraph saying this share of the question's words (idf-weighted) says its condition
# though every word is common ("bị phù, dùng thuốc lợi tiểu nào").
SAID_MOSTLY = 0.5


def said_specifically(text: str, situation: Situation, condition: Situation) -> bool:
    """Said by a rare word, or by pairs as rare together, or by most of the condition's
    words (the question's but the drugs' names); a pair a word of how the case is told makes
    ("phổi, trong dược thư" is no "phổi trong") says nothing."""
    told = frozenset(p for p in situation.pairs if not _JOINING.intersection(p.split("_")))
    own = replace(situation, pairs=told)
    return names_situation(text, own) and (
        specificity(text, own) >= RARE_IDF or coverage(text, condition) >= SAID_MOSTLY
    )
