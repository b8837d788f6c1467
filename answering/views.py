from django.http import HttpRequest, HttpResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest


def metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus counters: turns by outcome and reason, extractive answers, provider errors."""
    return HttpResponse(generate_latest(), content_type=CONTENT_TYPE_LATEST)
