"""Login throttling on top of django-axes' lockout of one username from one address: a limit
on failures from one client address across usernames.

Eight loops guessing with a new username each time were never locked out (axes counts per
username and address) and cut chat from 67 to 20 turns/s (issue 19's red team). A ward shares
one address, so the per-address limit sits well above one nurse's typos. Axes calls
AXES_FAILURE_LIMIT, when it is a callable, on every check: the limit is the per-pair one until
the address reaches its own, then 0 (every login from it is refused, with the same 429 page,
until the cool-off has passed).
"""

from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.helpers import get_client_ip_address
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest


def address_failures(request: HttpRequest) -> int:
    """Failed logins from the request's client address within the cool-off, any username."""
    address = getattr(request, "axes_ip_address", None) or get_client_ip_address(request)
    recent = AccessAttempt.objects.filter(
        ip_address=address, attempt_time__gte=get_cool_off_threshold(request)
    )
    return int(recent.aggregate(n=Sum("failures_since_start"))["n"] or 0)


def failure_limit(request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
    """AXES_FAILURE_LIMIT: failures allowed for this username from this address now."""
    if address_failures(request) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
        return 0
    return int(settings.LOGIN_FAILURE_LIMIT)
