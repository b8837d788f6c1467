"""ask_in_conversation(): run one turn through the answering layer and record it."""

import time

from django.db import transaction
from django.utils import timezone

from answering.results import MAX_QUESTION_CHARS, AnswerMode, TurnResult
from answering.turn import HISTORY_TURNS, answer_turn, prior_frame
from chat.models import Conversation, Turn
from chat.privacy import mask_personal_numbers
from corpus.text import clean_input


def citation_records(result: TurnResult) -> list[dict[str, object]]:
    return [
        {
            "index": c.index,
            "chunk_id": c.chunk_id,
            "content_hash": c.content_hash,
            "drug_id": c.drug_id,
            "drug_name": c.drug_name,
            "section_key": c.section_key,
            "section_title": c.section_title,
            "label": c.label,
            "page_start": c.page_start,
            "page_end": c.page_end,
            "text": c.text,
            "quarantined": c.quarantined,
        }
        for c in result.citations
    ]


def ask_in_conversation(conversation: Conversation, question: str) -> Turn:
    masked = mask_personal_numbers(clean_input(question or ""))
    # A question over the limit is refused; the audit keeps its start, not megabytes.
    stored = masked if len(masked) <= MAX_QUESTION_CHARS else masked[:MAX_QUESTION_CHARS] + "…"
    # What the answering layer reads of the earlier turns, not their answers' blocks (the
    # conversation's id too: the related manager reads it on each row it returns).
    fields = ("conversation", "question", "frame", "decision")
    earlier = list(conversation.turns.only(*fields).order_by("-order")[:HISTORY_TURNS])
    history = [t.question for t in reversed(earlier)]
    started = time.perf_counter()
    last = earlier[0] if earlier else None
    prior = prior_frame(last.frame, last.decision, last.question) if last else None
    result = answer_turn(masked, history, prior)
    elapsed = (time.perf_counter() - started) * 1000
    payload = result.as_dict()
    with transaction.atomic():
        # Two questions sent at once into one conversation: the first's UPDATE locks the row,
        # so the second waits for its commit and takes the next order instead of a duplicate
        # (the lock and the conversation's own update are one statement).
        conversation.updated_at = timezone.now()
        if not conversation.title:
            conversation.title = masked.strip()[:80] or "Hội thoại mới"
        moved = Conversation.objects.filter(pk=conversation.pk).update(
            updated_at=conversation.updated_at, title=conversation.title
        )
        if not moved:
            raise Conversation.DoesNotExist(f"conversation {conversation.pk} is gone")
        latest = conversation.turns.order_by("-order").values_list("order", flat=True).first()
        order = (latest or 0) + 1
        turn = Turn.objects.create(
            conversation=conversation,
            order=order,
            question=stored,
            decision=result.decision,
            reason=result.reason,
            frame=payload["frame"],
            answer_text=result.answer_text,
            blocks=payload["blocks"],
            citations=citation_records(result),
            quick_replies=result.quick_replies,
            near_misses=result.near_misses,
            disclaimer=result.disclaimer,
            provider="disabled" if result.mode == AnswerMode.BOOK else "model",
            mode=result.mode,
            drug_ids=list(result.frame.drugs),
            server_ms=elapsed,
        )
    return turn
