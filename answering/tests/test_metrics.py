"""Prometheus counters move with the turns they count."""

import pytest
from django.test import Client
from prometheus_client import REGISTRY

from answering.turn import answer_turn

pytestmark = pytest.mark.django_db


def _value(name: str, labels: dict[str, str] | None = None) -> float:
    return REGISTRY.get_sample_value(name, labels or {}) or 0.0


def test_turns_and_extractive_answers_are_counted_and_exposed(django_user_model) -> None:  # type: ignore[no-untyped-def]
    extractive = _value("duocthu_answer_extractive_total")
    abstains = _value("duocthu_turns_total", {"outcome": "abstain", "reason": "non_human_subject"})
    answer_turn("Liều paracetamol cho người lớn?", provider=None)
    answer_turn("Chó nhà tôi uống paracetamol được không?", provider=None)
    assert _value("duocthu_answer_extractive_total") == extractive + 1
    assert (
        _value("duocthu_turns_total", {"outcome": "abstain", "reason": "non_human_subject"})
        == abstains + 1
    )
    staff = Client()
    staff.force_login(django_user_model.objects.create_user("qt_dem", is_staff=True))
    body = staff.get("/metrics").content.decode()
    assert "duocthu_answer_extractive_total" in body and "duocthu_turns_total" in body
