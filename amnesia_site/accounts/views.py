"""Signing up, the demo login and the person's own settings. Logging in and out are Django's
own views (django.contrib.auth.urls)."""

from __future__ import annotations

import math
from typing import Any

from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.views import RedirectURLMixin
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST
from django.views.generic import FormView

from amnesia_site.accounts.forms import ProfileForm
from amnesia_site.accounts.models import Profile, display_name
from amnesia_site.clients import client_key
from amnesia_site.errors import too_many_requests
from amnesia_site.logins import locked_out
from amnesia_site.throttle import SIGNUPS
from games.management.commands.demo import DEMO_USER


class SignupView(RedirectURLMixin, FormView):
    """Create an account, log it in, and go where the visitor was heading (``?next=``) or home."""

    form_class = UserCreationForm
    template_name = "registration/signup.html"
    next_page = settings.LOGIN_REDIRECT_URL

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.user.is_authenticated:
            return HttpResponseRedirect(self.get_success_url())
        # As many accounts from one address as a table of players needs, not a crowd of them.
        wait = SIGNUPS.wait(request)
        if wait:
            minutes = math.ceil(wait / 60)
            return too_many_requests(
                request,
                code="signup_paused",
                title=_("Too many new accounts"),
                message=ngettext(
                    "Too many accounts were made from your address: wait %(minutes)s minute, "
                    "then try again.",
                    "Too many accounts were made from your address: wait %(minutes)s minutes, "
                    "then try again.",
                    minutes,
                )
                % {"minutes": minutes},
                retry_after=wait,
            )
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form: UserCreationForm) -> HttpResponse:
        user = form.save()
        SIGNUPS.done(self.request)
        login(self.request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(self.request, _("Welcome, %(name)s.") % {"name": user.get_username()})
        return super().form_valid(form)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context[self.redirect_field_name] = self.get_redirect_url()
        return context


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    """The person's own settings: the name the site prints for them (and the way to the
    password change)."""
    # Every user has one, made with the user (accounts.models.make_profile): a GET only reads.
    form = ProfileForm(request.POST or None, instance=Profile.objects.get(user=request.user))
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(
            request,
            _("Saved: you are now shown as %(name)s.") % {"name": display_name(request.user)},
        )
        return redirect("profile")
    return render(
        request,
        "accounts/profile.html",
        {"form": form, "shown_as": display_name(request.user)},
        status=400 if request.method == "POST" else 200,
    )


def demo_user():
    """The demo account made by ``manage.py demo``, while it exists, may log in and sees
    nothing but its own tables; else None.

    Anyone may log in as it with one click, so an account with more rights (staff, superuser,
    or any group: a designer reads other people's playtest reports) is never offered."""
    return (
        get_user_model()
        .objects.filter(username=DEMO_USER, is_active=True, is_staff=False, is_superuser=False)
        .filter(groups__isnull=True)
        .first()
    )


def _demo_logins_left(request: HttpRequest) -> bool:
    """Count this address's demo logins; False once it has used its allowance for the window
    (the same number and pause as failed logins from one address)."""
    window = int(settings.AXES_COOLOFF_TIME.total_seconds())
    key = f"demo-logins:{client_key(request)}"
    if cache.add(key, 1, window):
        return True
    try:
        count = cache.incr(key)
    except ValueError:  # the window ran out between the two calls
        cache.add(key, 1, window)
        count = 1
    return count <= settings.LOGIN_FAILURES_PER_ADDRESS


@require_POST
def demo_login(request: HttpRequest) -> HttpResponse:
    """One click into the demo tables: logs in as the demo account, if there is one.

    A POST (so CSRF-protected, and no link can log a visitor in behind their back), refused
    while the address is locked out of logging in, and limited per address like logins."""
    user = demo_user()
    if user is None:
        raise Http404("There is no demo account.")
    AxesProxyHandler.update_request(request)
    if not AxesProxyHandler.is_allowed(request, {"username": user.get_username()}):
        return locked_out(request)
    if not _demo_logins_left(request):
        seconds = int(settings.AXES_COOLOFF_TIME.total_seconds())
        minutes = max(1, seconds // 60)
        return too_many_requests(
            request,
            code="demo_paused",
            title=_("Too many demo logins"),
            message=ngettext(
                "Too many demo logins from your address: wait %(minutes)s minute, then try again.",
                "Too many demo logins from your address: wait %(minutes)s minutes, then try again.",
                minutes,
            )
            % {"minutes": minutes},
            retry_after=seconds,
        )
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(
        request, _("You are logged in as the demo account: its tables are below, try anything.")
    )
    return redirect(settings.LOGIN_REDIRECT_URL)
