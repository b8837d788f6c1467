"""The client's address behind the hospital's proxies (issue 21), one reading for the login
lockout (django-axes' AXES_CLIENT_IP_CALLABLE), the access log and the app's log lines.

Each trusted proxy appends the address it received the request from to X-Forwarded-For, so
the client is the TRUSTED_PROXY_COUNT-th entry from the right of "X-Forwarded-For, peer";
everything left of it the client wrote itself. Before this, the first entry was taken (five
forged wrong passwords locked a named colleague out hospital-wide) or, with the README's
value, an empty address. The header is read only when the connecting peer is one of
FORWARDED_ALLOW_IPS: gunicorn bound to a LAN address must not trust anyone there.
"""

import contextvars
import ipaddress
import logging
from collections.abc import Callable
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from python_ipware.modern.parsers import split_proxy_chain

# The request's client for log lines written while it is served (gthread: one per thread).
current_client: contextvars.ContextVar[str] = contextvars.ContextVar("client", default="-")
# Where the access log finds it: gunicorn's %({duocthu.client}e)s reads the WSGI environ.
ENVIRON_KEY = "duocthu.client"


@lru_cache(maxsize=8)
def _trusted_peers(
    allowed: tuple[str, ...],
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] | None:
    if "*" in allowed:
        return None
    return tuple(ipaddress.ip_network(item, strict=False) for item in allowed)


def _peer_is_trusted(peer: str) -> bool:
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    networks = _trusted_peers(tuple(settings.FORWARDED_ALLOW_IPS))
    return networks is None or any(address in network for network in networks)


def forwarded_client(forwarded_for: str, peer: str, proxies: int) -> str | None:
    """The address `proxies` hops from our end of the chain "X-Forwarded-For, peer"; the
    chain's first address when it is shorter (every entry then came from a proxy)."""
    # python-ipware's parser: ports, brackets, RFC 7239 elements; what is not an address is
    # skipped, which cannot shift the hops counted from the right.
    hops = split_proxy_chain(f"{forwarded_for}, {peer}")
    if not hops:
        return None
    return str(hops[max(0, len(hops) - 1 - proxies)])


def client_address(request: HttpRequest) -> str | None:
    """The client's address as the configured proxies vouch for it."""
    peer = request.META.get("REMOTE_ADDR", "") or ""
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0 or not _peer_is_trusted(peer):
        return peer or None
    return forwarded_client(request.META.get("HTTP_X_FORWARDED_FOR", ""), peer, proxies) or peer


class ClientAddressMiddleware:
    """Reads the client's address once per request for the access log and the log lines."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        address = client_address(request) or "-"
        request.META[ENVIRON_KEY] = address
        token = current_client.set(address)
        try:
            return self.get_response(request)
        finally:
            current_client.reset(token)


class ClientAddressLogFilter(logging.Filter):
    """Adds `client` to every record (the LOGGING format prints it)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "client"):
            record.client = current_client.get()
        return True
