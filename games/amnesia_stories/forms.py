"""What Amnesia Stories adds to the new-table form: the answer timer, how the players answer
(pass the laptop, or each on their own phone) and the choice of a custom deck."""

from __future__ import annotations

from typing import Any

from django import forms
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from games.amnesia_stories import timer as answer_timer
from games.amnesia_stories.decks import table_extra
from games.amnesia_stories.models import CustomDeck
from games.amnesia_stories.modes import ANSWER_MODE, LAPTOP, PHONES
from games.registry import NoNewTableHooks


class NewTable(NoNewTableHooks):
    def add_fields(self, form, user) -> None:
        form.fields["answer_seconds"] = forms.IntegerField(
            label=_("Answer timer (seconds)"),
            min_value=0,
            max_value=answer_timer.MAX_SECONDS,
            initial=answer_timer.DEFAULT_SECONDS,
            required=False,
            help_text=_(
                "Shown to everyone while the players answer, with a quiet signal at the end; "
                "it never answers for anyone. 0 for no timer; the table page can change it."
            ),
        )
        form.fields["answer_mode"] = forms.ChoiceField(
            label=_("How the players answer"),
            choices=[
                (LAPTOP, _("Pass the laptop (or number cards, entered after the reveal)")),
                (PHONES, _("Each on their own phone, all at once (seat links on the join screen)")),
            ],
            initial=LAPTOP,
            required=False,
        )
        if user is None or not user.is_authenticated:
            return
        form.fields["custom_deck"] = forms.ModelChoiceField(
            label=_("Area cards"),
            queryset=CustomDeck.objects.filter(owner=user, status=CustomDeck.Status.READY),
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
        extra = table_extra(deck) if deck is not None else {}
        if form.cleaned_data.get("answer_mode") == PHONES:
            extra[ANSWER_MODE] = PHONES
        return extra

    def after_create(self, form, table, user) -> None:
        seconds = form.cleaned_data.get("answer_seconds")
        if seconds is not None and seconds != answer_timer.DEFAULT_SECONDS:
            answer_timer.set_seconds(table, seconds)
