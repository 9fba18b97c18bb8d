"""``address(name, *args)``: ``reverse`` kept per process, for the addresses a page draws by
the dozen (every card's picture, every seat's links), which never change for the same
arguments.

Django's ``reverse`` walks the URL patterns and checks each argument against its converter on
every call: some tens of microseconds, so a page of sixty card pictures spent a tenth of its
time on it. An address depends only on the URL name, its arguments, the URLconf and the script
prefix the site is served under, so those are the key; a changed ``ROOT_URLCONF`` (a test's
``override_settings``) empties the kept ones, as Django empties its own URL caches.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import get_script_prefix, get_urlconf, reverse

# Enough for every card picture of every deck a site serves at once, and the seats' links.
KEEP = 4096


@lru_cache(maxsize=KEEP)
def _kept(name: str, args: tuple[Any, ...], urlconf: str | None, _root: str, _prefix: str) -> str:
    return reverse(name, urlconf=urlconf, args=args)


def address(name: str, *args: Any) -> str:
    """``reverse(name, args=args)``, kept (see the module's docstring)."""
    return _kept(name, args, get_urlconf(), str(settings.ROOT_URLCONF), get_script_prefix())


@receiver(setting_changed)
def _forget(*, setting: str, **_kwargs: Any) -> None:
    if setting == "ROOT_URLCONF":
        _kept.cache_clear()
