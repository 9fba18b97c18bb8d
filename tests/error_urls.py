"""The site's URLs plus three views that fail on purpose, for the error-page tests."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.urls import path

from amnesia_site.urls import urlpatterns as site_urlpatterns


def boom(request):
    raise RuntimeError("a fault on purpose")


def forbidden(request):
    raise PermissionDenied("Only the keeper of the keys may open this door.")


def malformed(request):
    raise SuspiciousOperation("a malformed request on purpose")


urlpatterns = [
    path("test-errors/boom/", boom),
    path("test-errors/forbidden/", forbidden),
    path("test-errors/malformed/", malformed),
    *site_urlpatterns,
]
