"""Card codes as the pages show cards everywhere: ``{{ "6C"|card_label }}`` is "6♣"."""

from __future__ import annotations

from django import template

from games.presenters import shown_value

register = template.Library()


@register.filter
def card_label(code: str | None) -> str:
    """A playing card's code as rank and suit symbol; anything else as it is."""
    if not code:
        return ""
    return str(shown_value("card", code))
