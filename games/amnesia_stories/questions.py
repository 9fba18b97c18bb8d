"""Amnesia Stories' design questions are the generic ones (``games.playtests.questions``):
it has winners, scores and a running score. Here, the figures they read that are its own."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.playtests.figures import COUNT, SHARE, Figure

FIGURES = (
    Figure(
        "lead_changes",
        _("Lead changes"),
        _("Times a game the lead passes from one player to another."),
        COUNT,
    ),
    Figure(
        "behind_at_half_wins",
        _("Won from behind at half-time"),
        _("The share of games won by a player not leading after half the turns."),
        SHARE,
    ),
)
