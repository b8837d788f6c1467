"""The Prometheus counters of answering, served at /metrics."""

from prometheus_client import Counter

TURNS = Counter("duocthu_turns", "Answered turns by outcome and reason", ["outcome", "reason"])
EXTRACTIVE = Counter("duocthu_answer_extractive", "Turns answered by verbatim quotes (no model)")
CLARIFY = Counter("duocthu_clarify", "Turns that asked back, by reason", ["reason"])
PROVIDER_ERRORS = Counter("duocthu_provider_errors", "Provider failures by reason", ["reason"])
