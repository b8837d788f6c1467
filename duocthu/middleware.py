"""Request-level behaviour: an htmx request that needs a login is redirected as a page (an
expired session pasted the login form into the chat), and a database outage answers 503."""

import logging
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django_htmx.http import HttpResponseClientRedirect

logger = logging.getLogger("duocthu.requests")


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


class DatabaseUnavailableMiddleware:
    """While PostgreSQL is restarting, a request answers 503 with a plain Vietnamese message
    (nothing was stored; send again) instead of a 500 traceback page. With
    CONN_HEALTH_CHECKS the next request reconnects by itself."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        from django.db import InterfaceError, OperationalError

        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.warning("database unavailable: %r", exception)
        response = HttpResponse(
            "Cơ sở dữ liệu tạm thời không truy cập được; câu hỏi chưa được lưu. Xin gửi lại "
            "sau ít giây.",
            status=503,
            content_type="text/plain; charset=utf-8",
        )
        response["Retry-After"] = "5"
        return response
