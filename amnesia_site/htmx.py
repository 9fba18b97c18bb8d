"""The request every view gets: Django's, with django-htmx's details of an htmx request
(`request.htmx`, set by its HtmxMiddleware), as the django-htmx docs type it."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request to a view behind `login_required`: its user is a stored one."""

    user: User
