"""What the contest adds to the new-table form: saved characters brought to each seat."""

from __future__ import annotations

from typing import Any

from games.contest import characters
from games.registry import NoNewTableHooks


class NewTable(NoNewTableHooks):
    def add_fields(self, form, user) -> None:
        characters.add_table_fields(form, user)

    def clean(self, form, cleaned: dict[str, Any]) -> None:
        characters.clean_table_fields(form, cleaned)

    def extra_setup(self, form) -> dict[str, Any]:
        return characters.table_extra(form.cleaned_data)

    def after_create(self, form, table, user) -> None:
        characters.bring_from_form(form, table, user)
