from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    """The people: signing up, the demo login, and the name each person is printed under."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "amnesia_site.accounts"
    label = "accounts"
    verbose_name = _("Accounts")
