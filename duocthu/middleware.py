"""An htmx request that needs a login is redirected as a page, not answered with the login
form pasted into the chat (an expired session used to do that)."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django_htmx.http import HttpResponseClientRedirect


class HtmxLoginRedirectMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not getattr(request, "htmx", False) or response.status_code not in (301, 302):
            return response
        location = response.get("Location", "")
        login = resolve_url(settings.LOGIN_URL)
        if location.split("?", 1)[0] != login:
            return response
        # The page the question was asked from, so the login brings the user back there.
        current = request.headers.get("HX-Current-URL", "")
        target = f"{login}?next={current}" if current else location
        return HttpResponseClientRedirect(target)
