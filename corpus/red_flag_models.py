"""Emergency situations pharmacists review: the red-flag table's rows added in the admin.

The default phrases live in `answering.red_flags` (code, tested); a row here adds a phrasing,
or switches a default off (`active` unchecked), without a deploy."""

from django.db import models


class RedFlag(models.Model):
    """One phrasing of an emergency; saving or deleting it moves the catalog stamp, which
    every worker checks once per turn."""

    class Kind(models.TextChoices):
        EMERGENCY = "cap_cuu", "Cấp cứu (đau ngực, phản vệ, co giật, …)"
        POISONING = "ngo_doc", "Ngộ độc, uống nhầm, quá liều"
        SELF_HARM = "tu_hai", "Tự hại, ý định tự tử"

    phrase = models.CharField("cách viết (như ở khoa)", max_length=120, unique=True)
    kind = models.CharField("loại", max_length=10, choices=Kind.choices)
    active = models.BooleanField("đang dùng", default=True)
    note = models.CharField("ghi chú", max_length=300, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["kind", "phrase"]
        verbose_name = "dấu hiệu cấp cứu"
        verbose_name_plural = "dấu hiệu cấp cứu"

    def __str__(self) -> str:
        return f"{self.phrase} ({self.get_kind_display()})"
