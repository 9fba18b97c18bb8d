"""Where phones reach this server: the laptop's private addresses and the links made for them.

A QR code on the table's screen is read by a phone on the same Wi-Fi, so it must never say
127.0.0.1 (the phone itself). ``phone_url`` builds every link meant for another device, in
this order: ``PUBLIC_URL`` when set (a proxy or a name in front of the site); else the
address the page was asked on, when it is not a loopback one (the game master opened the site
the way phones will); else one of the laptop's private IPv4 addresses (``LAN_ADDRESSES``, which
``manage.py serve`` fills from the interfaces that are up when it starts, or found here when
the setting is empty), the one the game master picked when there are several.
"""

from __future__ import annotations

import ipaddress
import socket
from functools import lru_cache
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest
from django.http.request import split_domain_port

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 in brackets or not, no port) is this
    machine only."""
    host = host.strip().strip("[]").lower()
    if not host or host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback


def is_private_ipv4(raw: str) -> bool:
    """A private IPv4 address another device on the local network could open (not loopback,
    not link-local: 169.254.x.x is what a machine gives itself when no network answered)."""
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return False
    return (
        isinstance(address, ipaddress.IPv4Address)
        and address.is_private
        and not address.is_loopback
        and not address.is_link_local
        and not address.is_unspecified
    )


# Interfaces no phone is on (containers, virtual machines, VPN tunnels): their addresses are
# still offered, but after the others, so the first one (the terminal's QR code, the join
# screen's default) is the Wi-Fi's or the cable's.
VIRTUAL_INTERFACES = (
    *("docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "lxc", "lxd", "podman", "cni"),
    *("flannel", "tun", "tap", "utun", "wg", "tailscale", "zt", "vethernet", "hyper-v"),
)


def private_addresses() -> list[str]:
    """The private IPv4 addresses on this machine's interfaces that are up (psutil reads them
    on Linux, macOS and Windows alike), in the system's order, virtual interfaces last."""
    import psutil  # imported here: only the serve command and an unset LAN_ADDRESSES need it

    found: list[tuple[bool, str]] = []
    stats = psutil.net_if_stats()
    for name, entries in psutil.net_if_addrs().items():
        if name in stats and not stats[name].isup:
            continue
        virtual = name.lower().startswith(VIRTUAL_INTERFACES)
        for entry in entries:
            if entry.family == socket.AF_INET and is_private_ipv4(entry.address):
                if entry.address not in [a for _v, a in found]:
                    found.append((virtual, entry.address))
    return [address for _virtual, address in sorted(found, key=lambda f: f[0])]


@lru_cache(maxsize=1)
def _detected() -> tuple[str, ...]:
    # Once per process: the development server has no LAN_ADDRESSES, and interfaces rarely
    # change while it runs (docs/serving.md says to restart after changing network).
    return tuple(private_addresses())


def lan_addresses() -> list[str]:
    """The addresses a phone may be sent to: ``LAN_ADDRESSES``, else those found here."""
    configured = [a for a in settings.LAN_ADDRESSES if a]
    return configured or list(_detected())


def public_url_host(public_url: str) -> str:
    """The host name of ``PUBLIC_URL`` (for ALLOWED_HOSTS), "" when there is none."""
    return (urlsplit(public_url).hostname or "") if public_url else ""


def _request_host(request: HttpRequest) -> tuple[str, str]:
    domain, port = split_domain_port(request.get_host())
    return domain, port or str(request.get_port())


def phone_base(request: HttpRequest, via: str | None = None) -> str:
    """``scheme://host[:port]`` for a link another device opens (see the module's docstring);
    ``via`` picks one of ``lan_addresses()`` (anything else is ignored)."""
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL.rstrip("/")
    domain, port = _request_host(request)
    if not is_loopback(domain):
        return f"{request.scheme}://{request.get_host()}"
    choices = lan_addresses()
    if not choices:  # no network at all: the only address there is
        return f"{request.scheme}://{request.get_host()}"
    host = via if via in choices else choices[0]
    default = {"http": "80", "https": "443"}.get(request.scheme)
    return f"{request.scheme}://{host}" + ("" if port == default else f":{port}")


def phone_url(request: HttpRequest, path: str, via: str | None = None) -> str:
    """The absolute URL of ``path`` (a site path such as ``reverse(...)``) for a phone."""
    return phone_base(request, via) + (path if path.startswith("/") else f"/{path}")


def reaches_no_phone(request: HttpRequest) -> bool:
    """No network at all: the only address there is would be this machine's own, which no
    phone can open. ``PUBLIC_URL`` is never that case: it is the address whatever it says, a
    loopback one included (the recipe for trying the phones on one machine in docs/table.md)."""
    if settings.PUBLIC_URL:
        return False
    return is_loopback(urlsplit(phone_base(request)).hostname or "")


def address_choices(request: HttpRequest) -> list[str]:
    """The addresses the game master may choose between on the join screen: none when
    ``PUBLIC_URL`` or the page's own address already decides."""
    if settings.PUBLIC_URL or not is_loopback(_request_host(request)[0]):
        return []
    return lan_addresses()
