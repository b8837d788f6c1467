"""The client's address behind the proxies (issue 21.2): the entry the trusted proxies
appended, never one the client wrote, never the proxy's own; the lockout counts it."""

import logging
import re

import pytest
from django.test import Client, RequestFactory, override_settings

from duocthu.clients import ClientAddressLogFilter, client_address, current_client

NGINX = "127.0.0.1"


def _address(peer: str, forwarded_for: str | None = None) -> str | None:
    extra = {"HTTP_X_FORWARDED_FOR": forwarded_for} if forwarded_for is not None else {}
    return client_address(RequestFactory().get("/", REMOTE_ADDR=peer, **extra))


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_one_proxy_the_address_it_appended_is_the_client() -> None:
    assert _address(NGINX, "10.1.2.3") == "10.1.2.3"
    # A forged entry sits left of what nginx appended: it is not read.
    assert _address(NGINX, "10.9.9.9, 10.1.2.3") == "10.1.2.3"
    assert _address(NGINX, "not-an-address, 10.1.2.3") == "10.1.2.3"
    assert _address(NGINX, "[2001:db8::7]:51000") == "2001:db8::7"
    # A request that passed no proxy (a probe on the proxy host itself): the peer.
    assert _address(NGINX) == NGINX


@override_settings(TRUSTED_PROXY_COUNT=2, FORWARDED_ALLOW_IPS=["10.0.0.0/24"])
def test_behind_two_proxies_the_outer_ones_entry_is_the_client() -> None:
    # Load balancer 10.0.0.2 appended the client; nginx 10.0.0.5 appended the balancer.
    assert _address("10.0.0.5", "10.1.2.3, 10.0.0.2") == "10.1.2.3"
    assert _address("10.0.0.5", "6.6.6.6, 10.1.2.3, 10.0.0.2") == "10.1.2.3"
    # Came through nginx alone (the balancer's own health probe): what nginx appended.
    assert _address("10.0.0.5", "10.0.0.2") == "10.0.0.2"


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_a_peer_that_is_no_trusted_proxy_is_the_client_whatever_it_sends() -> None:
    # gunicorn bound to a LAN address: a ward PC connecting directly cannot name another.
    assert _address("10.5.5.5", "10.1.2.3") == "10.5.5.5"


def test_without_proxies_the_header_is_ignored() -> None:
    assert _address("10.5.5.5", "10.1.2.3") == "10.5.5.5"


@pytest.mark.django_db
@override_settings(TRUSTED_PROXY_COUNT=1)
def test_forged_wrong_passwords_lock_out_the_forger_not_the_named_colleague(
    django_user_model,
) -> None:  # type: ignore[no-untyped-def]
    from django.conf import settings

    django_user_model.objects.create_user("ds_lan", password="mat-khau-dung-123")
    # The attacker at 10.6.6.6 writes the colleague's address; nginx appends the real one.
    attacker = Client(REMOTE_ADDR=NGINX, HTTP_X_FORWARDED_FOR="10.1.2.3, 10.6.6.6")
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        last = attacker.post("/login/", {"username": "ds_lan", "password": "sai"})
    assert last.status_code == 429
    colleague = Client(REMOTE_ADDR=NGINX, HTTP_X_FORWARDED_FOR="10.1.2.3")
    ok = colleague.post("/login/", {"username": "ds_lan", "password": "mat-khau-dung-123"})
    assert ok.status_code == 302
    from axes.models import AccessAttempt

    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == ["10.6.6.6"]


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_log_lines_written_during_a_request_carry_its_client() -> None:
    from django.conf import settings

    from duocthu.clients import ClientAddressMiddleware

    seen: list[str] = []

    def view(request):  # type: ignore[no-untyped-def]
        record = logging.LogRecord("duocthu.x", logging.INFO, "", 0, "turn", None, None)
        ClientAddressLogFilter().filter(record)
        line = logging.Formatter(settings.LOG_FORMAT, settings.LOG_DATE_FORMAT).format(record)
        seen.append(line)
        return None

    request = RequestFactory().get("/", REMOTE_ADDR=NGINX, HTTP_X_FORWARDED_FOR="10.1.2.3")
    ClientAddressMiddleware(view)(request)
    # ISO time with its offset, level, logger, client, message.
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} INFO duocthu.x \[10.1.2.3\] turn", seen[0]
    ), seen
    assert request.META["duocthu.client"] == "10.1.2.3"
    assert current_client.get() == "-"  # reset after the request
