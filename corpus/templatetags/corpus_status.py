from django import template

from corpus.jobs import queue_counts
from corpus.models import Chunk

register = template.Library()


@register.inclusion_tag("admin/corpus/status.html")
def corpus_status() -> dict[str, object]:
    return {
        "waiting_review": Chunk.objects.awaiting_review().count(),
        "source_changed": Chunk.objects.filter(review_state=Chunk.Review.SOURCE_CHANGED).count(),
        "embedding": queue_counts(),
    }
