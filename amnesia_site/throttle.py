"""Guessing at secret links: an address that tries too many wrong seat tokens (/seat/<token>/)
or story secrets (/stories/s/<secret>/) is refused, 429, until the cool-off ends. And what one
address may do only so many times (:class:`PerAddress`: sign-ups), counted the same way.

Only different wrong secrets count: a phone that keeps polling one dead seat link is not
guessing, and must not lock out the other players on the same Wi-Fi. The counters live in
Django's cache (settings.CACHES), keyed by the client's address (``amnesia_site.clients``).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from amnesia_site.clients import client_key
from amnesia_site.errors import too_many_requests


@dataclass(frozen=True)
class SecretLinks:
    """One kind of secret link, counted apart from the others."""

    scope: str

    def _key(self, request: HttpRequest, what: str) -> str:
        return f"secret-links:{self.scope}:{client_key(request)}:{what}"

    def wait(self, request: HttpRequest) -> int:
        """Seconds this client must still wait (0: it may try)."""
        until = cache.get(self._key(request, "until"))
        return max(1, math.ceil(until - time.time())) if until else 0

    def failed(self, request: HttpRequest, secret: str) -> None:
        """Count a wrong ``secret``; the one that reaches the limit starts the cool-off."""
        window = int(settings.SECRET_LINK_COOL_OFF.total_seconds())
        digest = hashlib.sha256(secret.encode()).hexdigest()[:24]
        if not cache.add(self._key(request, f"seen:{digest}"), 1, window):
            return  # this wrong secret was counted already
        count_key = self._key(request, "count")
        if cache.add(count_key, 1, window):
            count = 1
        else:
            try:
                count = cache.incr(count_key)
            except ValueError:  # the window ran out between the two calls
                cache.add(count_key, 1, window)
                count = 1
        if count >= settings.SECRET_LINK_FAILURES:
            cache.add(self._key(request, "until"), time.time() + window, window)

    def refused(self, request: HttpRequest, wait: int) -> HttpResponse:
        minutes = math.ceil(wait / 60)
        message = ngettext(
            "Too many wrong links were tried from your address. Wait %(minutes)s minute, "
            "then open the link you were given again.",
            "Too many wrong links were tried from your address. Wait %(minutes)s minutes, "
            "then open the link you were given again.",
            minutes,
        ) % {"minutes": minutes}
        return too_many_requests(
            request,
            code="too_many_wrong_links",
            title=_("Too many wrong links"),
            message=message,
            retry_after=wait,
        )


SEAT_LINKS = SecretLinks("seat")
STORY_LINKS = SecretLinks("story")


def guards_secret(links: SecretLinks, secret_kwarg: str) -> Callable[[Callable], Callable]:
    """Decorate a view whose URL carries a secret: refused while its address waits, and every
    "not found" counted as a wrong secret."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            wait = links.wait(request)
            if wait:
                return links.refused(request, wait)
            try:
                response = view(request, *args, **kwargs)
            except Http404:
                links.failed(request, kwargs[secret_kwarg])
                raise
            if response.status_code == 404:
                links.failed(request, kwargs[secret_kwarg])
            return response

        return guarded

    return decorate


@dataclass(frozen=True)
class PerAddress:
    """Something one address may do ``limit`` times within ``window`` (settings' names): the
    one that reaches the limit starts a pause that ends when the window does."""

    scope: str
    limit: str
    window: str

    def _key(self, request: HttpRequest, what: str) -> str:
        return f"per-address:{self.scope}:{client_key(request)}:{what}"

    def wait(self, request: HttpRequest) -> int:
        """Seconds this client must still wait (0: it may)."""
        until = cache.get(self._key(request, "until"))
        return max(1, math.ceil(until - time.time())) if until else 0

    def done(self, request: HttpRequest) -> None:
        """Count one more."""
        window = int(getattr(settings, self.window).total_seconds())
        count_key = self._key(request, "count")
        if cache.add(count_key, 1, window):
            cache.set(self._key(request, "began"), time.time(), window)
            count = 1
        else:
            try:
                count = cache.incr(count_key)
            except ValueError:  # the window ran out between the two calls
                cache.add(count_key, 1, window)
                count = 1
        if count >= getattr(settings, self.limit):
            began = cache.get(self._key(request, "began")) or time.time()
            until = began + window
            cache.add(self._key(request, "until"), until, max(1, math.ceil(until - time.time())))


SIGNUPS = PerAddress("signup", limit="SIGNUPS_PER_ADDRESS", window="SIGNUP_COOL_OFF")
