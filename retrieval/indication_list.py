"""The book's indications a "which drug" question is answered by, ranked (issue 17: plain
ranked retrieval is the floor; issue 18: only what says the condition is listed)."""

from collections.abc import Sequence

from corpus.sections import SectionKey
from corpus.text import prints_phrase
from retrieval.catalog import get_resolver
from retrieval.evidence import Evidence
from retrieval.question_words import (
    RARE_IDF,
    Situation,
    coverage,
    pairs_said,
    situation_of,
    specificity,
)
from retrieval.ranked import ranked_evidence
from retrieval.situations import with_book_phrases
from retrieval.specific import said_specifically

# Paragraphs of Chỉ định the plain ranked search offers for a "which drug" question whose
# condition phrase matched nothing ("Trong sách có những thuốc nào dùng cho bệnh gút?").
RANKED_INDICATIONS = 8


# A drug is listed only if its paragraph says at least this share of what the best one says
# of the question's words (idf-weighted), and of its rare words and pairs: the rest share a
# word ("phòng ngừa" of "phòng ngừa cháy nắng"), not the indication.
LISTED_SHARE = 0.5


def says_as_much(text: str, reference: str, question: str, *, words_only: bool = False) -> bool:
    """Whether the text says every rare word of the question that the reference says (else,
    with none and not `words_only`, every rare pair): "bệnh xương Paget" as much as "Bệnh
    Paget xương", whose pairs differ; "ngăn ngừa" alone not as much as "Ngăn ngừa cháy
    nắng"."""
    situation = situation_of(question)
    rare = {w for w, idf in situation.weights.items() if idf >= RARE_IDF}
    said, told = set(situation.said_in(reference)), set(situation.said_in(text))
    if rare & said:
        return rare & said <= told
    if words_only:
        return False
    wanted = _pairs(situation.said_in(reference)) & situation.pairs
    return wanted <= _pairs(situation.said_in(text))


def _pairs(said: list[str]) -> set[str]:
    return {f"{a}_{b}" for a, b in zip(said, said[1:], strict=False) if a and b}


def ranked_indications(
    question: str, sections: Sequence[str] = (SectionKey.CHI_DINH,), *, rare_only: bool = False
) -> list[Evidence]:
    """The book's indications that say the question's rare words or pairs, the one saying
    most specifically first (its rare words and pairs), then most of all its words
    (idf-weighted), then by BM25;
    one drug's best
    paragraph each: a which-drug question never abstains while they say it."""
    # The book's other phrases for what the question says ("đo kính": "đo khúc xạ";
    # `CONDITION_SYNONYMS`) are looked for beside its own words.
    question = with_book_phrases(question)
    situation = situation_of(question)
    # A long story's common words fill BM25's best few: three times as many are read for the
    # rare words ("S. haematobium" beside "đái ra máu … nước tiểu"), the best few kept.
    found = ranked_evidence(question, None, list(sections), k=3 * RANKED_INDICATIONS)
    drugs = _drug_names_in(question)
    # Said specifically: a rare word of the question, or pairs as rare together, or most of
    # its words but the drugs' names. Common pairs alone ("tế bào", "huyết khối" in a story of
    # a kidney cancer or a blocked catheter) are words shared, not the condition: listed,
    # they would read as the book's answer.
    condition = situation_of(question, exclude=drugs)
    scored = [
        ((specificity(e.text, situation), coverage(e.text, situation)), e)
        for e in found
        if said_specifically(
            e.text, situation, condition, whole=bool(drugs) and prints_phrase(e.text, drugs)
        )
    ]
    if rare_only:
        # Wordy text (a drug's pharmacology) says a story's common words and pairs by length
        # alone ("tế bào", "miễn dịch"): there one word or pair as rare as a name must be said.
        scored = [(score, e) for score, e in scored if _says_one_rare(e.text, situation)]
    # An indication given with another drug the question names ("cho thêm thuốc gì" beside
    # "truyền ifosfamid": mesna's "… do dùng hóa trị liệu ifosfamid") says who it is for:
    # it leads, whatever the words of the condition a distractor shares.
    with_drug = [e for _, e in scored if drugs and prints_phrase(e.text, drugs)]
    if not scored:
        return []
    # The rare words and pairs said first ("Kawasaki" before the "chẩn đoán" of how the case
    # is told, "tan huyết" before "hỗ trợ").
    best = max(share for (_, share), _ in scored)
    (rarest, _), first = max(scored, key=lambda item: item[0])
    # One saying the question's rare words as specifically as the most specific one that is
    # listed stays, however few of its common words it says ("Ngăn ngừa cháy nắng." beside a
    # longer line saying "cháy nắng" with "bôi", "da", "chất").
    anchored = any(sp >= rarest and share >= LISTED_SHARE * best for (sp, share), _ in scored)
    kept = sorted(
        (
            item
            for item in scored
            if (item[0][0] >= max(RARE_IDF, rarest) and anchored)
            or item[0][1] >= LISTED_SHARE * best
            and (
                item[0][0] >= LISTED_SHARE * rarest
                or says_as_much(item[1].text, first.text, question, words_only=True)
            )
        ),
        key=lambda i: (-i[0][0], -i[0][1]),
    )
    ordered = with_drug + [e for _, e in kept if e not in with_drug]
    return list({e.drug_id: e for e in reversed(ordered)}.values())[::-1][:RANKED_INDICATIONS]


def says_specifically(text: str, question: str) -> bool:
    """Whether the text says the question's situation by a rare word of it, by pairs as rare
    together, or by most of its words but the drugs' names."""
    condition = situation_of(question, exclude=_drug_names_in(question))
    return said_specifically(text, situation_of(question), condition)


def _drug_names_in(question: str) -> list[str]:
    """The drug names the question says, folded: loaded, indexed (with their active
    ingredients: "Holoxan" is ifosfamid), or drug-like unknowns."""
    resolver = get_resolver()
    found = resolver.resolve_detail(question)
    generics = [g for p in found.not_loaded for g in resolver.generics_of(p)]
    return [*(p for p, _ in found.spans), *found.not_loaded, *generics, *found.unknown]


def _says_one_rare(text: str, situation: Situation) -> bool:
    said = situation.said_in(text)
    words_said = [idf for w, idf in situation.weights.items() if w in set(said)]
    return max([*words_said, *pairs_said(said, situation).values()], default=0.0) >= RARE_IDF
