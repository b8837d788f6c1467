"""Who may do what in the pharmacists' admin."""

from typing import Any

from django.contrib.auth.models import Group, Permission

from corpus.models import REVIEWER_GROUP

# Reviewers read everything in the corpus and the chat audit trail; deciding on a
# quarantined chunk is checked by group membership in the review view itself.
_REVIEWER_APPS = ("corpus", "chat")


def ensure_reviewer_group() -> Group:
    group, _ = Group.objects.get_or_create(name=REVIEWER_GROUP)
    perms = Permission.objects.filter(
        content_type__app_label__in=_REVIEWER_APPS, codename__startswith="view_"
    )
    group.permissions.add(*perms)
    return group


def is_reviewer(user: Any) -> bool:
    """Membership of the reviewer group decides; being staff or superuser does not."""
    return bool(user.is_authenticated and user.groups.filter(name=REVIEWER_GROUP).exists())
