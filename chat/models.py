from django.conf import settings
from django.db import models
from django.utils import timezone

from answering.results import AnswerMode
from retrieval.evidence import Outcome


class Conversation(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conversations"
    )
    title = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-updated_at", "-id"]
        verbose_name = "cuộc hội thoại"
        verbose_name_plural = "cuộc hội thoại"

    def __str__(self) -> str:
        return self.title or f"Hội thoại {self.pk}"


class Turn(models.Model):
    """One question and what duocthu showed for it, kept for the clinical audit trail.

    The cited chunks are stored with their content hashes at the time, so an answer can be
    reconstructed after the corpus is edited.
    """

    Decision = Outcome

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="turns")
    order = models.PositiveIntegerField()
    question = models.TextField(help_text="As typed, with phone and ID numbers masked.")
    decision = models.CharField(max_length=12, choices=Decision.choices)
    reason = models.CharField(max_length=60)
    frame = models.JSONField(default=dict)
    answer_text = models.TextField(blank=True)
    blocks = models.JSONField(default=list)
    citations = models.JSONField(default=list)
    quick_replies = models.JSONField(default=list)
    near_misses = models.JSONField(default=list)
    disclaimer = models.TextField()
    provider = models.CharField(max_length=40, default="disabled")
    mode = models.CharField(
        max_length=24,
        choices=AnswerMode.choices,
        default=AnswerMode.BOOK,
        help_text="What produced what was shown: the book's text, a checked written answer, "
        "or the book's text because the written answer failed a check (the reason says which).",
    )
    drug_ids = models.JSONField(default=list)
    server_ms = models.FloatField(default=0)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["conversation_id", "order"]
        constraints = [
            models.UniqueConstraint(fields=["conversation", "order"], name="turn_order_unique")
        ]
        verbose_name = "lượt hỏi"
        verbose_name_plural = "lượt hỏi"

    def __str__(self) -> str:
        return self.question[:80]


class Feedback(models.Model):
    """A user's one judgement of a turn; sending another replaces it (issue 19: it was
    unlimited per turn)."""

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="feedback")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    useful = models.BooleanField()
    comment = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["turn", "user"], name="feedback_one_per_user_turn")
        ]
        verbose_name = "phản hồi"
        verbose_name_plural = "phản hồi"

    def __str__(self) -> str:
        return f"{'Hữu ích' if self.useful else 'Không hữu ích'} · {self.turn}"
