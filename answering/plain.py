"""Plain ranked retrieval alone, as a card: the floor duocthu's answers are measured beside.

No understanding rules (issue 17): the drugs are the names the resolver finds in the question
(or, with none, in the conversation's earlier questions), the paragraphs are ranked by BM25
over those drugs' chunks (`retrieval.ranked`, IDF from the whole book), and the best ones are
shown until VIEW characters are in view, the rest collapsed. With no drug named, the ranking
runs over the whole book's Chỉ định, Tác dụng không mong muốn and Chống chỉ định.
"""

from collections.abc import Sequence

from answering.results import AnswerBlock, TurnResult, citations_for, kind_of
from corpus.sections import SectionKey
from retrieval.catalog import get_resolver
from retrieval.evidence import Outcome
from retrieval.frame import QueryFrame, TurnType
from retrieval.ranked import ranked_evidence

VIEW = 700  # characters in view: what the baseline was measured with
NO_DRUG_SECTIONS = (
    SectionKey.CHI_DINH,
    SectionKey.TAC_DUNG_KHONG_MONG_MUON,
    SectionKey.CHONG_CHI_DINH,
)


def plain_answer(question: str, history: Sequence[str] = ()) -> TurnResult:
    resolve = get_resolver().resolve
    drugs = tuple(resolve(question))
    for earlier in reversed(history):
        if drugs:
            break
        drugs = tuple(resolve(earlier))
    query = question if drugs else " ".join([*history, question])
    found = ranked_evidence(query, drugs or None, None if drugs else NO_DRUG_SECTIONS, k=12)
    blocks, shown = [], 0
    for n, e in enumerate(found, 1):
        blocks.append(
            AnswerBlock(
                f"{e.drug_name} · {e.section_title}",
                kind_of(e.section_key),
                e.section_key,
                e.drug_id,
                [(e.text, [n])],
                collapsed=shown >= VIEW,
            )
        )
        shown += len(e.text)
    frame = QueryFrame(
        TurnType.DRUG_ATTRIBUTE if drugs else TurnType.CONDITION_TO_DRUG,
        drugs=drugs,
        attribute=found[0].section_key if found else None,
    )
    return TurnResult(
        Outcome.ANSWER if found else Outcome.ABSTAIN,
        "plain_ranked",
        frame,
        "\n\n".join(e.text for e in found),
        blocks,
        citations_for(found),
    )
