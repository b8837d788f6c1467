"""The Prometheus counters of answering, served at /metrics."""

from prometheus_client import Counter

TURNS = Counter("duocthu_turns", "Answered turns by outcome and reason", ["outcome", "reason"])
EXTRACTIVE = Counter("duocthu_answer_extractive", "Turns answered by verbatim quotes (no model)")
CLARIFY = Counter("duocthu_clarify", "Turns that asked back, by reason", ["reason"])
PROVIDER_ERRORS = Counter("duocthu_provider_errors", "Provider failures by reason", ["reason"])
MODEL_TOKENS = Counter(
    "duocthu_model_tokens", "Tokens sent to and returned by the model", ["kind", "type"]
)
MODEL_CALLS = Counter(
    "duocthu_model_calls", "Model calls by kind and finish reason", ["kind", "finish"]
)
JUDGE_UNRELIABLE = Counter(
    "duocthu_judge_unreliable", "Verdicts voided: the judge called the planted claim supported"
)
