from typing import Any

from django.conf import settings
from django.db import migrations, models


def keep_latest_feedback(apps: Any, schema_editor: Any) -> None:
    """Before one feedback per user and turn: each user's latest for a turn stands, as if the
    earlier ones had been edited into it."""
    Feedback = apps.get_model("chat", "Feedback")
    seen: set[tuple[int, int]] = set()
    extra = []
    for pk, turn, user in Feedback.objects.order_by("-created_at", "-id").values_list(
        "id", "turn_id", "user_id"
    ):
        if (turn, user) in seen:
            extra.append(pk)
        seen.add((turn, user))
    Feedback.objects.filter(pk__in=extra).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("chat", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(keep_latest_feedback, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="feedback",
            constraint=models.UniqueConstraint(
                fields=("turn", "user"), name="feedback_one_per_user_turn"
            ),
        ),
    ]
