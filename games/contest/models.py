"""Contest characters kept between games (their tables keep the names they had in the games app)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import Seat


class Character(models.Model):
    """A contest character kept between games: its owner brings it to new tables."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        on_delete=models.CASCADE,
        related_name="characters",
    )
    name = models.CharField(_("name"), max_length=60)
    brains = models.PositiveSmallIntegerField(_("brains"), default=3)
    muscle = models.PositiveSmallIntegerField(_("muscle"), default=3)
    moves = models.PositiveSmallIntegerField(pgettext_lazy("contest attribute", "moves"), default=3)
    coolness = models.PositiveSmallIntegerField(_("coolness"), default=3)
    # Points won in earlier games (each win earns one), already spent on the attributes.
    extra_points = models.PositiveSmallIntegerField(_("extra points"), default=0)
    # A win's point not yet spent on an attribute.
    unspent_points = models.PositiveSmallIntegerField(_("unspent points"), default=0)
    bfa = models.BooleanField(_("big appetite (eats up to 6 pretzels)"), default=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("character")
        verbose_name_plural = _("characters")
        db_table = "games_character"
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="character_name_per_owner"),
        ]

    def __str__(self) -> str:
        return self.name


class SeatCharacter(models.Model):
    """Which saved character a seat brought to a contest table."""

    seat = models.OneToOneField(
        Seat, verbose_name=_("seat"), on_delete=models.CASCADE, related_name="character_link"
    )
    character = models.ForeignKey(
        Character, verbose_name=_("character"), on_delete=models.CASCADE, related_name="seats"
    )
    # Set once the table's result has been credited to the character (a win's point).
    credited = models.BooleanField(_("credited"), default=False)

    class Meta:
        verbose_name = _("seat's character")
        verbose_name_plural = _("seats' characters")
        db_table = "games_seatcharacter"

    def __str__(self) -> str:
        return f"{self.seat} as {self.character}"
