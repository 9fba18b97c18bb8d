"""What Amnesia Stories adds to the new-table form: the choice of a custom deck."""

from __future__ import annotations

from typing import Any

from django import forms
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from games.amnesia_stories.decks import table_extra
from games.amnesia_stories.models import CustomDeck
from games.registry import NoNewTableHooks


class NewTable(NoNewTableHooks):
    def add_fields(self, form, user) -> None:
        if user is None or not user.is_authenticated:
            return
        form.fields["custom_deck"] = forms.ModelChoiceField(
            label=_("Area cards"),
            queryset=CustomDeck.objects.filter(owner=user),
            required=False,
            empty_label=_("The built-in deck (48 illustrated cards)"),
            help_text=format_html(
                '{} <a href="{}">{}</a>',
                _("Your own decks appear here once uploaded."),
                reverse("amnesia_stories:decks"),
                _("Your decks"),
            ),
        )

    def extra_setup(self, form) -> dict[str, Any]:
        """A custom deck's ids and texts go into the script as top-level keys."""
        deck = form.cleaned_data.get("custom_deck")
        return table_extra(deck) if deck is not None else {}
