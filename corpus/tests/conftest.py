"""Accounts shared by the admin tests."""

import pytest
from django.contrib.auth.models import Permission, User


@pytest.fixture
def staff() -> User:
    """Staff with every corpus and chat permission, outside «Dược sĩ duyệt»."""
    user = User.objects.create_user("nv_ngoai_nhom", is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(content_type__app_label__in=("corpus", "chat"))
    )
    return user
