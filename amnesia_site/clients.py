"""Who is asking: the client's address, the one thing every limit on guessing counts by.

``REMOTE_ADDR`` is the address that opened the connection. Behind ``TRUSTED_PROXY_COUNT``
reverse proxies it is the nearest proxy's, and the client's is in X-Forwarded-For: each proxy
appends the address it received the request from, so the client is the Nth entry from the right.
Entries further left were written by whoever sent the request and are never read.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest

IPV6_NETWORK = 64  # one IPv6 customer usually holds a whole /64: it counts as one address


def _parse(raw: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(raw.strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


def _client(request: HttpRequest) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    remote = _parse(request.META.get("REMOTE_ADDR", ""))
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0:
        return remote
    hops = [hop for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    if not hops:  # reached without the proxies (a health check on the host itself)
        return remote
    # Fewer entries than proxies: every entry was written by one of them, the first is the
    # furthest address they saw.
    chosen = _parse(hops[-proxies] if len(hops) >= proxies else hops[0])
    return chosen if chosen is not None else remote


def client_ip(request: HttpRequest) -> str:
    """The client's address as text ("0.0.0.0" when none can be read)."""
    address = _client(request)
    return str(address) if address is not None else "0.0.0.0"


def client_key(request: HttpRequest) -> str:
    """What limits count by: the IPv4 address, or the first address of the IPv6 /64 network
    (still a valid address, so it fits an address column)."""
    address = _client(request)
    if address is None:
        return "0.0.0.0"
    if isinstance(address, ipaddress.IPv6Address):
        network = ipaddress.IPv6Network(f"{address}/{IPV6_NETWORK}", strict=False)
        return str(network.network_address)
    return str(address)
