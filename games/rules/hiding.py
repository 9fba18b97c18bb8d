"""What a view hides: the framework's secrets (``FRAMEWORK_SECRETS``), a ``private`` path
hidden from every player but its own (``hide``), and the same worked out as it is read
(``Blanked``). ``games.rules.base.Game.view`` is built on them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

# What the framework knows to be secret in any game's state: the cards yet to be drawn and the
# generator's state (which says every draw to come). ``Game.view`` leaves them out for everyone
# unless a game says they are public (``Game.public_keys``).
FRAMEWORK_SECRETS = ("deck", "rng")


def hide(value: Any, path: list[str], player: str | None) -> Any:
    """``value`` with what ``path`` names that ``player`` may not see hidden: ``*`` is any
    seat's name but the player's own; a path ending with ``*`` (a mapping of seats to their
    secret) keeps only the player's entry, any other path blanks the field (None). Copy on
    write: each mapping on the way to a hidden part is a new one, the rest is ``value``'s."""
    if not isinstance(value, dict) or not path:
        return value
    key, rest = path[0], path[1:]
    if key == "*":
        if len(rest) == 1 and rest[0] != "*":
            # One field of each other seat's record ("players.*.hand"), the common case:
            # blanked without a call per seat.
            field = rest[0]
            return {
                name: item
                if name == player or not isinstance(item, dict) or field not in item
                else {**item, field: None}
                for name, item in value.items()
            }
        if rest:
            return {
                name: item if name == player else hide(item, rest, player)
                for name, item in value.items()
            }
        return {name: item for name, item in value.items() if name == player}
    if key not in value:
        return value
    return {**value, key: hide(value[key], rest, player) if rest else None}


class Blanked(Mapping[str, Any]):
    """``hide(seats, ["*", field], player)`` worked out as it is read: each other seat's
    record with ``field`` blanked, made when that seat is read (a reader only reads it), and
    once: a record read again is the one made before (a simulation's bot reads each target's
    record twice when it picks whom to challenge)."""

    __slots__ = ("_seats", "_player", "_field", "_made")

    def __init__(self, seats: dict[str, Any], player: str | None, field: str) -> None:
        self._seats, self._player, self._field = seats, player, field
        # The records made so far, once one is (a reader mostly reads only its own).
        self._made: dict[str, Any] | None = None

    def __getitem__(self, name: str) -> Any:
        if name == self._player:  # the reader's own record, as it is (read most)
            return self._seats[name]
        made = self._made
        if made is None:
            made = self._made = {}
        elif name in made:
            return made[name]
        item = self._seats[name]
        if not isinstance(item, dict) or self._field not in item:
            return item
        record = made[name] = {**item, self._field: None}
        return record

    def __iter__(self) -> Iterator[str]:
        return iter(self._seats)

    def __len__(self) -> int:
        return len(self._seats)
