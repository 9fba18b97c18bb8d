"""What the contest adds to the new-table form: saved characters brought to each seat, and
whether the server keeps the narrator's minute strictly (``games.contest.minute``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _

from games.contest import characters, minute
from games.registry import NoNewTableHooks


class NewTable(NoNewTableHooks):
    def add_fields(self, form, user) -> None:
        characters.add_table_fields(form, user)
        form.fields["strict_minute"] = forms.BooleanField(
            label=_("Keep the narrator’s minute strictly"),
            required=False,
            initial=False,
            help_text=_(
                "Off: the pages count the minute down and a phone asks before taking control "
                "early (the table judges). On: nobody can take control before it is up."
            ),
        )

    def clean(self, form, cleaned: dict[str, Any]) -> None:
        characters.clean_table_fields(form, cleaned)

    def extra_setup(self, form) -> dict[str, Any]:
        extra = characters.table_extra(form.cleaned_data)
        if form.cleaned_data.get("strict_minute"):
            extra[minute.KEY] = minute.STRICT
        return extra

    def after_create(self, form, table, user) -> None:
        characters.bring_from_form(form, table, user)
