"""Logins against guessing: django-axes, with a limit of its own for each lockout rule.

Axes (settings: "Logins and guessing") counts failed logins per account and address and per
address; this module gives the two rules different limits, and says "wait" in the site's words.
"""

from __future__ import annotations

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_lockout_parameters
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from amnesia_site.errors import too_many_requests


def _allowance(rule: str | list[str]) -> int:
    """How many failures past AXES_FAILURE_LIMIT a lockout rule allows: the per-address rule
    stretches to LOGIN_FAILURES_PER_ADDRESS, every other rule stops at AXES_FAILURE_LIMIT."""
    if rule == "ip_address":
        return settings.LOGIN_FAILURES_PER_ADDRESS - settings.AXES_FAILURE_LIMIT
    return 0


class AccountAndAddressHandler(AxesDatabaseHandler):
    """Axes' database handler with one limit per lockout rule (Axes has one for all).

    Axes locks a client out once ``get_failures()`` reaches AXES_FAILURE_LIMIT. Each rule's count
    is taken down by its allowance first, so the rule reaches that number just when it reaches
    its own limit: 5 failures for one account from one address, 20 from one address in all.
    """

    def get_failures(self, request: HttpRequest, credentials: dict | None = None) -> int:
        rules = get_lockout_parameters(request, credentials)
        attempts = self.get_user_attempts(request, credentials)
        return max(
            (
                (found.aggregate(n=Sum("failures_since_start"))["n"] or 0) - _allowance(rule)
                for rule, found in zip(rules, attempts, strict=True)
            ),
            default=0,
        )

    def user_logged_in(self, sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
        super().user_logged_in(sender, request, user, **kwargs)
        # The right password forgives this account's mistakes from this address, and only
        # those: Axes' own AXES_RESET_ON_SUCCESS would also wipe the address's count, which a
        # guesser with an account of their own could then reset at will.
        AccessAttempt.objects.filter(
            username=user.get_username(), ip_address=request.axes_ip_address
        ).delete()


def locked_out(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict | None = None,
) -> HttpResponse:
    """The answer to a login refused by Axes (AXES_LOCKOUT_CALLABLE): 429 and how long."""
    seconds = int(settings.AXES_COOLOFF_TIME.total_seconds())
    minutes = max(1, seconds // 60)
    message = ngettext(
        "Too many failed logins from your address: logging in from here is paused for "
        "%(minutes)s minute. The account is not locked for anyone else.",
        "Too many failed logins from your address: logging in from here is paused for "
        "%(minutes)s minutes. The account is not locked for anyone else.",
        minutes,
    ) % {"minutes": minutes}
    return too_many_requests(
        request,
        code="login_paused",
        title=_("Too many failed logins"),
        message=message,
        retry_after=seconds,
    )
