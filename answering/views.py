import hmac
import os

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector


def metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus counters: turns by outcome and reason, extractive answers, provider errors.
    For staff who are logged in, or a scraper with `Authorization: Bearer <METRICS_TOKEN>`."""
    token = settings.METRICS_TOKEN
    sent = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    allowed = (token and hmac.compare_digest(sent, token)) or (
        request.user.is_authenticated and request.user.is_staff
    )
    if not allowed:
        return HttpResponseForbidden("Cần đăng nhập tài khoản quản trị hoặc METRICS_TOKEN.")
    # Under gunicorn (gunicorn.conf.py sets PROMETHEUS_MULTIPROC_DIR) every worker writes its
    # counts to that folder and a scrape sums them: one worker's counts alternated before.
    if directory := os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=directory)
        return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
    return HttpResponse(generate_latest(), content_type=CONTENT_TYPE_LATEST)
