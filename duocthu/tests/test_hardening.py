"""Accounts and the production surface (issue 12.2, 12.6): login throttling with django-axes,
a Content-Security-Policy the page's own files satisfy, and /metrics for staff or a token."""

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db


def test_repeated_wrong_passwords_lock_the_account_out_from_that_address(django_user_model) -> None:  # type: ignore[no-untyped-def]
    from django.conf import settings

    django_user_model.objects.create_user("ds_khoa", password="mat-khau-dung-123")
    client = Client(REMOTE_ADDR="10.0.0.7")
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        wrong = client.post("/login/", {"username": "ds_khoa", "password": "sai"})
        assert wrong.status_code == 200  # the form again, with its error
    last = client.post("/login/", {"username": "ds_khoa", "password": "sai"})
    assert last.status_code == 429  # the limit reached: locked out
    locked = client.post("/login/", {"username": "ds_khoa", "password": "mat-khau-dung-123"})
    assert locked.status_code == 429
    assert "tạm khóa" in locked.content.decode()
    # Another address is not locked out by this one's guesses.
    other = Client(REMOTE_ADDR="10.0.0.8")
    ok = other.post("/login/", {"username": "ds_khoa", "password": "mat-khau-dung-123"})
    assert ok.status_code == 302


def test_a_right_password_after_a_few_wrong_ones_logs_in(django_user_model) -> None:  # type: ignore[no-untyped-def]
    django_user_model.objects.create_user("ds_nham", password="mat-khau-dung-123")
    client = Client(REMOTE_ADDR="10.0.0.9")
    client.post("/login/", {"username": "ds_nham", "password": "sai"})
    ok = client.post("/login/", {"username": "ds_nham", "password": "mat-khau-dung-123"})
    assert ok.status_code == 302


def test_the_chat_page_sends_a_content_security_policy_its_files_satisfy(django_user_model) -> None:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(django_user_model.objects.create_user("bs_csp"))
    page = client.get("/")
    policy = page["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    html = page.content.decode()
    # No inline script for the policy to block: every <script> has a src.
    assert html.count("<script") == html.count("<script src=")


def test_metrics_are_for_staff_or_a_token(django_user_model) -> None:  # type: ignore[no-untyped-def]
    assert Client().get("/metrics").status_code == 403
    nurse = Client()
    nurse.force_login(django_user_model.objects.create_user("dd_metrics"))
    assert nurse.get("/metrics").status_code == 403
    admin = Client()
    admin.force_login(django_user_model.objects.create_user("qt_metrics", is_staff=True))
    assert b"duocthu_turns_total" in admin.get("/metrics").content
    with override_settings(METRICS_TOKEN="s3cret-scrape"):
        assert (
            Client().get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-scrape").status_code == 200
        )
        assert Client().get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 403


def test_a_database_outage_answers_503_in_vietnamese_not_a_500() -> None:
    from django.db import OperationalError
    from django.test import RequestFactory

    from duocthu.middleware import DatabaseUnavailableMiddleware

    def view(request):  # type: ignore[no-untyped-def]  # what any view does while PG restarts
        raise OperationalError("server closed the connection unexpectedly")

    middleware = DatabaseUnavailableMiddleware(view)
    request = RequestFactory().post("/c/1/ask/")
    response = middleware.process_exception(request, OperationalError("gone"))
    assert response is not None and response.status_code == 503
    assert response["Retry-After"] == "5" and "chưa được lưu" in response.content.decode()
    assert middleware.process_exception(request, ValueError("other")) is None
