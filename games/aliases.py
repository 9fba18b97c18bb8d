"""Players' names as a table's stories, exports and reports show them.

A player (often someone with no account here) may ask to be left out of what a table leaves
behind. The table's owner then gives their seat a neutral label, "Player 2" (``Seat.alias``).

The move log is not rewritten: it stays the truth, every row the move the referee accepted.
Whatever shows or exports the table reads it through the table's :class:`Aliases` instead:
the exported script, the story (the referee replays the renamed script, so chapter titles,
summaries and scores say "Player 2" on their own), the playtest figures and impressions.
Narration is prose: there the name is replaced wherever it stands as a word. Before a label
is kept, the renamed script is replayed: it must give the same game, the label where the
name was (a label that is another player's name, or that the rules would read differently,
is refused).

Free text typed outside the log (the table's name, a story's title) cannot be read through
the labels everywhere it is shown, so it is rewritten once, when the name is replaced:
``signals.names_changed`` lets the story archive and the playtests catch up.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from games import registry, signals
from games.messages import referee_message
from games.models import Seat, Table
from games.rules.errors import BadScript
from games.rules.script import replay, rules_part
from games.rules.setup import Setup
from games.services import reading

# Script keys that hold no player's name (the rules' set-up); the others are read as data.
SETUP_KEYS = ("game", "options", "deck_mode", "seed", "deck")


def _spaced(char: str) -> bool:
    """Whether words of this letter's script are separated by spaces (Latin, Greek,
    Cyrillic...): there a name only counts as a whole word. Japanese and Chinese text has no
    spaces, so there a name counts wherever it stands."""
    return char.isalnum() and ord(char) < 0x2E80


class Aliases:
    """A table's ``{name: label}``, and how to read names, prose and scripts through it."""

    def __init__(self, labels: Mapping[str, str] | None = None, keep: tuple[str, ...] = ()):
        self.labels = dict(labels or {})
        # Move fields that never hold a name: the verb, the time, the card codes.
        self.keep = frozenset(("do", "at", *keep))
        self._pattern = None
        if self.labels:
            parts = []
            for name in sorted(self.labels, key=len, reverse=True):
                left = r"(?<!\w)" if _spaced(name[0]) else ""
                right = r"(?!\w)" if _spaced(name[-1]) else ""
                parts.append(left + re.escape(name) + right)
            self._pattern = re.compile("|".join(parts))

    def __bool__(self) -> bool:
        return bool(self.labels)

    def name(self, name: Any) -> Any:
        return self.labels.get(name, name) if isinstance(name, str) else name

    def text(self, text: str) -> str:
        """Prose with every name replaced where it stands as a word."""
        if self._pattern is None or not text:
            return text
        return self._pattern.sub(lambda m: self.labels[m.group(0)], text)

    def data(self, value: Any) -> Any:
        """Any JSON value with the names replaced in its strings and its keys."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.data(item) for item in value]
        if isinstance(value, dict):
            return {self.data(k): self.data(v) for k, v in value.items()}
        return value

    def move(self, move: dict[str, Any]) -> dict[str, Any]:
        if not self:
            return move
        return {k: v if k in self.keep else self.data(v) for k, v in move.items()}

    def setup(self, setup: Setup) -> Setup:
        if not self:
            return setup
        return replace(
            setup,
            players=[self.name(p) for p in setup.players],
            start=self.name(setup.start),
            extra=self.data(setup.extra),
        )

    def script(self, script: dict[str, Any]) -> dict[str, Any]:
        if not self:
            return script
        out: dict[str, Any] = {}
        for key, value in script.items():
            if key in SETUP_KEYS:
                out[key] = value
            elif key == "moves":
                out[key] = [self.move(m) for m in value]
            else:  # players, start, and whatever informational keys the script carries
                out[key] = self.data(value)
        return out


def aliases_of(table: Table) -> Aliases:
    """The labels of the table's seats (its prefetched seats when it has them)."""
    labels = {seat.name: seat.alias for seat in table.seats.all() if seat.alias}
    return _aliases(table.game, labels)


def everyone_labelled(table: Table) -> Aliases:
    """Every player under a label: their seat's own, else "Player N" after their place (for
    a playtest report its owner shares without the players' names). Only read through, never
    kept: the free labels are checked against the names, not replayed like ``set_alias``."""
    seats = list(table.seats.all())
    return _aliases(table.game, {s.name: s.alias or free_label(s, seats) for s in seats})


def _aliases(game: str, labels: dict[str, str]) -> Aliases:
    return Aliases(labels, keep=tuple(registry.kit(game).referee.card_fields))


# -- replacing a name ---------------------------------------------------------------------------
def set_alias(table: Table, position: int, label: str) -> Seat:
    """Show the player of seat ``position`` as ``label`` from now on (ValidationError when
    the label would be read as somebody else, or would change the game)."""
    label = " ".join(label.split())
    if not label:
        raise ValidationError(_("Write the label the player is shown as."))
    if len(label) > Seat._meta.get_field("alias").max_length:
        raise ValidationError(_("The label is limited to 60 characters."))
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        seats = list(locked.seats.all())
        seat = next((s for s in seats if s.position == position), None)
        if seat is None:
            raise Seat.DoesNotExist(f"No seat {position} at table {table.pk}.")
        others = {s.name.casefold() for s in seats} | {
            s.alias.casefold() for s in seats if s.alias and s.pk != seat.pk
        }
        if label.casefold() in others:
            raise ValidationError(
                _("“%(label)s” is already a name or a label at this table.") % {"label": label}
            )
        if Aliases({s.name: "" for s in seats}).text(label) != label:
            raise ValidationError(_("A label cannot hold a player's name."))
        labels = {s.name: s.alias for s in seats if s.alias and s.pk != seat.pk}
        labels[seat.name] = label
        _check_replay(locked, _aliases(locked.game, labels))
        seat.alias = label
        seat.save(update_fields=["alias"])
        renamed = _aliases(locked.game, {seat.name: label})
        new_name = renamed.text(locked.name)
        if new_name != locked.name:
            locked.name = new_name
            locked.save(update_fields=["name"])
            table.name = new_name
        signals.names_changed.send(sender=Table, table=locked, renamed={seat.name: label})
    return seat


def free_label(seat: Seat, seats: list[Seat]) -> str:
    """The label a form offers for ``seat``: "Player N" after its place at the table, or the
    next one free when a player is really called that ("" when none is)."""
    taken = {s.name.casefold() for s in seats} | {s.alias.casefold() for s in seats if s.alias}
    names = Aliases({s.name: "" for s in seats})
    for template in (_("Player %(n)s"), _("Seat %(n)s")):
        for number in range(seat.position + 1, seat.position + 1 + 10 * len(seats), len(seats)):
            label = template % {"n": number}
            if label.casefold() not in taken and names.text(label) == label:
                return label
    return ""


def clear_alias(table: Table, position: int) -> Seat:
    """Show the player's own name again (what was rewritten at the removal stays so)."""
    with transaction.atomic():
        seat = Seat.objects.select_for_update().get(table=table, position=position)
        if seat.alias:
            seat.alias = ""
            seat.save(update_fields=["alias"])
            signals.names_changed.send(sender=Table, table=table, renamed={})
    return seat


def _check_replay(table: Table, aliases: Aliases) -> None:
    """The renamed script must replay move for move, as the log does."""
    setup = reading.setup_of(table)
    moves = [rules_part(m.as_script_move()) for m in reading.live_moves(table)]
    try:
        renamed_setup = aliases.setup(setup)
        registry.kit(table.game).referee.check_setup(renamed_setup)
        result = replay(renamed_setup, [aliases.move(m) for m in moves])
    except BadScript as exc:
        raise ValidationError(
            _("With that label the game would not replay: %(e)s") % {"e": referee_message(exc)}
        ) from exc
    if result.error is not None:
        raise ValidationError(
            _("With that label the game would not replay (move %(i)s: %(e)s).")
            % {"i": result.error_index + 1, "e": referee_message(result.error)}
        )
