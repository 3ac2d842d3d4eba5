"""The address a request comes from, trusting ``X-Forwarded-For`` only from our own proxies
(issue 27, finding 3).

Every limit per address (the API's anonymous throttle, logins, sign-ups, websocket
connects: ``talu_site.ratelimit``) keys on this. Django REST framework's own ``get_ident``
took the header as the client sent it, so a client that made up a new address per request was
never throttled. Here the header is read only when the peer (``REMOTE_ADDR``, a socket's
``scope["client"]``) is one of ``TALU_TRUSTED_PROXIES``; nginx (deploy/nginx.conf) *sets* the
header to the address it saw, so what a client writes there itself never counts. With a chain
of proxies, the nearest address not a trusted proxy is the client.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_network(item: str) -> Network:
    """``"10.0.0.0/8"`` or ``"127.0.0.1"`` as a network; ValueError says what is wrong."""
    try:
        return ipaddress.ip_network(item.strip(), strict=False)
    except ValueError:
        raise ValueError("is not an IP address or network") from None


def parse_networks(spec: Iterable[str]) -> tuple[Network, ...]:
    """``["127.0.0.1", "10.0.0.0/8"]`` as networks; ValueError names a bad entry."""
    out = []
    for item in spec:
        item = item.strip()
        if not item:
            continue
        try:
            out.append(parse_network(item))
        except ValueError as exc:
            raise ValueError(f"{item!r} {exc}") from None
    return tuple(out)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1:text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _trusted(address, proxies: tuple[Network, ...]) -> bool:
    return address is not None and any(address in net for net in proxies)


def client_address(peer: str | None, forwarded: str | None,
                   proxies: tuple[Network, ...]) -> str:
    """The client's address: ``peer`` itself, unless ``peer`` is a trusted proxy; then the
    right-most address of ``forwarded`` that is not one (a malformed entry ends the walk at the
    last proxy that vouched for it)."""
    here = _address(peer or "")
    if here is None:
        return peer or "unknown"
    if not _trusted(here, proxies) or not forwarded:
        return str(here)
    for hop in reversed(forwarded.split(",")):
        address = _address(hop)
        if address is None:
            break
        here = address
        if not _trusted(address, proxies):
            break
    return str(here)


def limit_key(address: str) -> str:
    """What a limit per address counts: the address, or for IPv6 its /64 network (one
    household or server is given a whole /64, so counting single addresses there would let one
    client take a new address per request)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def of_request(request) -> str:
    """The client address of a Django request."""
    from django.conf import settings

    return client_address(request.META.get("REMOTE_ADDR"),
                          request.META.get("HTTP_X_FORWARDED_FOR"),
                          settings.TALU_TRUSTED_PROXIES)


def of_scope(scope: dict) -> str:
    """The client address of an ASGI scope (a websocket handshake)."""
    from django.conf import settings

    client = scope.get("client") or (None, None)
    forwarded = None
    for name, value in scope.get("headers") or ():
        if name == b"x-forwarded-for":
            forwarded = value.decode("latin-1")
    return client_address(client[0], forwarded, settings.TALU_TRUSTED_PROXIES)
