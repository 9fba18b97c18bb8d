from __future__ import annotations

from django.apps import AppConfig
from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    """The people: signing up, the demo login, and the name each person is printed under."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "amnesia_site.accounts"
    label = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        # Imported here: the receivers' modules need the models, which are ready only now.
        from amnesia_site.accounts.languages import remember_at_login
        from amnesia_site.accounts.models import make_profile  # the models: ready only now

        user_logged_in.connect(remember_at_login, dispatch_uid="accounts-profile-language")
        post_save.connect(
            make_profile, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts-make-profile"
        )
