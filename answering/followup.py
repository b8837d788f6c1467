"""A follow-up turn: what it inherits from the turn before, and when it inherits nothing."""

import re
from dataclasses import replace

from answering.cues import has
from corpus.sections import SectionKey
from corpus.text import folded_phrase
from retrieval.frame import QueryFrame, TurnType


def merge_with_prior(frame: QueryFrame, prior: QueryFrame | None, question: str) -> QueryFrame:
    """Inherit from the previous turn only when continuing the same case.

    A turn that names a different drug inherits nothing: the predecessor once answered a
    headache question about OMEPRAZOL because a prior frame bled into it.
    """
    if prior is None or frame.context_action == "new" or frame.subject_scope != "human":
        return frame
    if not frame.drugs and frame.turn_type in (
        TurnType.CONDITION_TO_DRUG,
        TurnType.CONDITION_RELATION,
    ):
        # "Thuốc nào gây hội chứng Stevens-Johnson?" after a paracetamol question asks about
        # every drug, not paracetamol: a which-drug question inherits no drug.
        return frame
    folded = folded_phrase(question)
    if (
        not frame.drugs
        and (frame.not_loaded or frame.unknown_drugs)
        and len(prior.drugs) == 1
        and re.search(r"\b(?:pha|voi|dung chung|uong chung|cung|phoi hop|ket hop)\b", folded)
    ):
        # "…pha với lidocain được không?" after a ceftriaxon question: the other drug has no
        # monograph here, the question is about ceftriaxon with it — read it as one question.
        from answering.understanding import understand

        whole = f"{prior.drugs[0].replace('_', ' ')} {question}"
        return replace(understand(whole), context_action="continue", standalone_query=whole)
    continuing = (
        frame.context_action == "continue"
        or prior.needs_clarify
        or (
            not frame.drugs
            and not frame.unknown_drugs
            and (
                frame.attribute
                or frame.population
                or frame.route  # "Đường uống", the route quick reply of a dose answer
                or frame.age_text
                or frame.weight_kg
                or has(folded_phrase(question), "continue")
            )
        )
    )
    if not continuing or not prior.drugs:
        return frame
    if frame.drugs and set(frame.drugs) != set(prior.drugs):
        return frame
    if frame.unknown_drugs:
        return frame
    merged = replace(
        frame,
        drugs=prior.drugs,
        attribute=frame.attribute or prior.attribute,
        population=frame.population or prior.population,
        route=frame.route or prior.route,
        weight_kg=frame.weight_kg if frame.weight_kg is not None else prior.weight_kg,
        age_text=frame.age_text or prior.age_text,
        context_action="continue",
        standalone_query=f"{prior.standalone_query or ''} {question}".strip(),
    )
    turn_type = merged.turn_type
    if turn_type in (TurnType.SMALLTALK, TurnType.OUT_OF_SCOPE) or (
        not frame.drugs and frame.turn_type == TurnType.DRUG_OVERVIEW
    ):
        turn_type = (
            prior.turn_type
            if prior.turn_type not in (TurnType.SMALLTALK, TurnType.OUT_OF_SCOPE)
            else "drug_attribute"
        )
    if merged.attribute == SectionKey.LIEU_LUONG_VA_CACH_DUNG and merged.weight_kg is not None:
        turn_type = TurnType.DOSING_CALC
    return replace(merged, turn_type=turn_type, needs_clarify=False, quick_replies=())
