"""What a person sets about themselves: the name the site prints for them, and their language.

The username is a login (``gm_alice``), chosen once and often for a machine; books, covers and
edit histories print the display name instead, which the person may change at any time. An
empty display name prints the username.

Every user has a profile, made with the user (``make_profile``, on the user's first save,
whoever creates it: the sign-up, the demo, a bundle's import, ``createsuperuser``) and by a
migration for the users from before; no page makes one.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

DISPLAY_NAME_MAX = 60


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="profile",
    )
    display_name = models.CharField(
        _("display name"),
        max_length=DISPLAY_NAME_MAX,
        blank=True,
        default="",
        help_text=_(
            "How the site prints your name: on the books and covers of your tables and in "
            "edit histories. Leave it empty to be shown by your username."
        ),
    )

    # The language the person last chose with the switcher ("" until they do): the site speaks
    # it to them on any device once they log in (amnesia_site.accounts.languages).
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, blank=True, default=""
    )

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()


def display_name(user) -> str:
    """The name to print for ``user``: their display name, or their username."""
    if user is None:
        return ""
    try:
        chosen = user.profile.display_name
    except (Profile.DoesNotExist, AttributeError):
        chosen = ""
    return " ".join(chosen.split()) or user.get_username()


def make_profile(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    """A new user's profile, in the transaction that creates the user (``post_save``)."""
    if created and not raw:
        Profile.objects.get_or_create(user_id=instance.pk)  # no cached profile on the user
