"""The language a logged-in person chose, on every device they log in from.

Django's switcher (``set_language``) remembers a choice in a cookie, which is per browser. For
a logged-in person the choice is also kept on their profile (:func:`set_language` wraps
Django's view), copied into the session at login (:func:`remember_at_login`, a
``user_logged_in`` receiver), and spoken by :class:`ProfileLanguageMiddleware`, which reads
the session only: no query per request.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.utils import translation
from django.views.i18n import set_language as django_set_language

from amnesia_site.accounts.models import Profile
from amnesia_site.htmx import HtmxHttpRequest
from games.languages import normalise

SESSION_KEY = "profile_language"


def remember_at_login(sender, request, user, **kwargs) -> None:
    """Copy the profile's language into the new session (the session is flushed at login)."""
    if request is None or not hasattr(request, "session"):
        return
    chosen = Profile.objects.filter(user=user).values_list("language", flat=True).first()
    if normalise(chosen):
        request.session[SESSION_KEY] = normalise(chosen)
        translation.activate(normalise(chosen))


def set_language(request: HtmxHttpRequest) -> HttpResponse:
    """Django's switcher (a GET only sends the person back), and for a logged-in person the
    choice kept on their profile."""
    response = django_set_language(request)
    chosen = normalise(request.POST.get("language")) if request.method == "POST" else None
    if chosen and request.user.is_authenticated:
        Profile.objects.filter(user=request.user).update(language=chosen)
        request.session[SESSION_KEY] = chosen
    return response


class ProfileLanguageMiddleware:
    """A logged-in person's chosen language wins over the browser's (after LocaleMiddleware).

    Decided once the view is known: a view marked ``reads_no_session`` (the live polls, which
    answer in a number and must cost no more than a bare request) never loads the session."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs) -> None:
        if getattr(view_func, "reads_no_session", False):
            return None
        session = getattr(request, "session", None)
        chosen = normalise(session.get(SESSION_KEY)) if session is not None else None
        if chosen:
            translation.activate(chosen)
            request.LANGUAGE_CODE = chosen
        return None
