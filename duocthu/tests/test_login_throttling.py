"""Guesses that rotate usernames are throttled per client address (issue 19.4), with the same
Vietnamese 429 page as the per-username lockout; a ward's shared address is not locked by its
nurses' typos."""

import pytest
from django.conf import settings
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db


@override_settings(LOGIN_ADDRESS_FAILURE_LIMIT=8)  # the mechanism; the default is 50
def test_failures_across_usernames_lock_the_address_out(django_user_model) -> None:  # type: ignore[no-untyped-def]
    django_user_model.objects.create_user("dd_lan", password="mat-khau-dung-123")
    guesser = Client(REMOTE_ADDR="10.0.9.1")
    for n in range(7):  # a new username each time: the per-username limit never applies
        page = guesser.post("/login/", {"username": f"doan_{n}", "password": "sai"})
        assert page.status_code == 200, n
    eighth = guesser.post("/login/", {"username": "doan_7", "password": "sai"})
    assert eighth.status_code == 429
    locked = guesser.post("/login/", {"username": "dd_lan", "password": "mat-khau-dung-123"})
    assert locked.status_code == 429 and "tạm khóa" in locked.content.decode()
    other = Client(REMOTE_ADDR="10.0.9.2")
    assert (
        other.post("/login/", {"username": "dd_lan", "password": "mat-khau-dung-123"}).status_code
        == 302
    )


def test_a_wards_nurses_typos_do_not_lock_their_shared_address(django_user_model) -> None:  # type: ignore[no-untyped-def]
    # The defaults: 5 per nurse, 50 per address (ten nurses' four typos each stay below it).
    assert settings.LOGIN_ADDRESS_FAILURE_LIMIT == 50 and settings.LOGIN_FAILURE_LIMIT == 5
    ward = Client(REMOTE_ADDR="10.0.9.3")
    nurses = [f"dd_khoa_{n}" for n in range(3)]
    with override_settings(LOGIN_ADDRESS_FAILURE_LIMIT=13):  # 3 nurses × 4 typos: 12, one under
        for name in nurses:
            django_user_model.objects.create_user(name, password="mat-khau-dung-123")
            for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):  # four typos each, none locked
                page = ward.post("/login/", {"username": name, "password": "sai"})
                assert page.status_code == 200
        for name in nurses:
            nurse = Client(REMOTE_ADDR="10.0.9.3")
            ok = nurse.post("/login/", {"username": name, "password": "mat-khau-dung-123"})
            assert ok.status_code == 302, name
