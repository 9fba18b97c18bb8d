"""What a game's page receives: one viewer's side of a table, never the state.

A table page (the owner's screen), a projector and a seat's phone each show a table to
someone; what they may show is the referee's view for that someone (``Game.view``) and the
table's public facts (its row, its story so far, the log's last rows). A :class:`Facing` is
that, and only that: it has no ``state``, and its legal moves are the ones its viewer may
enter, with every choice drawn from a part of the state their view does not hold left out
(a hand's cards on the owner's screen, another seat's answer). A page that has nothing else
cannot show a secret by mistake; the deep check (``games.leaks``) proves it for every page
of every demo table.

The viewers:

- the owner (``Facing.owner``): the game master's screen, which enters moves for every seat
  at a physical table; it sees what a spectator sees;
- a spectator (``Facing.spectator``): a projector, a join screen; it enters nothing;
- a seat (``Facing.seat``): that player's view and their own moves.
"""

from __future__ import annotations

import copy
from functools import cached_property
from typing import Any

from games.registry import GameKit
from games.rules import Game
from games.snapshot import Snapshot

# Who looks (``Facing.viewer``): a seat's name, or one of these.
OWNER = "owner"
SPECTATOR = "spectator"


def secret_parts(referee: Game, state: dict[str, Any], seat: str | None) -> list[tuple[str, Any]]:
    """The parts of ``state`` that ``seat``'s view leaves out (None: a spectator's and the
    owner's), as (path, value): the hidden keys (the deck, the generator's state, the game's
    ``secret_keys``) and the other seats' ``private`` paths, each seat's name in its path."""
    found: list[tuple[str, Any]] = []
    for key in referee.hidden_keys():
        if key in state:
            found.append((key, state[key]))
    for private in referee.private:
        found.extend(_walk(state, private.split("."), seat, []))
    return found


def _walk(value: Any, path: list[str], seat: str | None, done: list[str]) -> list[tuple[str, Any]]:
    """Every (path, value) ``path`` names in ``value`` that ``seat`` may not see: ``*`` is
    any entry but the seat's own, as ``Game.view`` hides them."""
    if not path:
        return [(".".join(done), value)]
    if not isinstance(value, dict):
        return []
    key, rest = path[0], path[1:]
    keys = [k for k in value if k != seat] if key == "*" else [key]
    found: list[tuple[str, Any]] = []
    for name in keys:
        if name in value:
            found.extend(_walk(value[name], rest, seat, [*done, str(name)]))
    return found


def leaves(value: Any) -> list[Any]:
    """The plain values (texts, numbers) anywhere in ``value``."""
    out: list[Any] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, (str, int, float)) and not isinstance(item, bool):
            out.append(item)
    return out


def hidden_values(
    referee: Game,
    state: dict[str, Any],
    seat: str | None,
    view: dict[str, Any],
    among: set[Any] | None = None,
) -> set[Any]:
    """The plain values of the parts ``seat`` may not see that their view does not hold
    either (a card in another player's hand; not a count the view shows too); only those
    ``among`` the values asked about, when given (the view is then read only if one is)."""
    hidden = {v for _path, part in secret_parts(referee, state, seat) for v in leaves(part)}
    if among is not None:
        hidden &= among
    if hidden:
        hidden -= set(leaves(view))
    return hidden


def _list_choices(tpl: dict[str, Any]) -> list[Any]:
    """The plain values a move template offers in lists (its ``choices``)."""
    choices = tpl.get("choices")
    if not isinstance(choices, dict):
        return []
    return [
        c
        for v in choices.values()
        if isinstance(v, list)
        for c in v
        if isinstance(c, (str, int, float)) and not isinstance(c, bool)
    ]


def without_hidden(templates: list[dict[str, Any]], hidden: set[Any]) -> list[dict[str, Any]]:
    """The move templates with every choice in ``hidden`` left out (the template is copied
    where it loses one; the referee's own lists are never changed)."""
    if not hidden:
        return templates
    out = []
    for tpl in templates:
        choices = tpl.get("choices")
        if isinstance(choices, dict) and any(
            isinstance(v, list) and any(_is_hidden(c, hidden) for c in v) for v in choices.values()
        ):
            kept = {
                k: [c for c in v if not _is_hidden(c, hidden)] if isinstance(v, list) else v
                for k, v in choices.items()
            }
            tpl = {**tpl, "choices": kept}
        out.append(tpl)
    return out


def _is_hidden(choice: Any, hidden: set[Any]) -> bool:
    try:
        return choice in hidden
    except TypeError:  # an unhashable choice (a list): a value of its own, never a secret's
        return False


# The table row's fields a page never gets (``Facing.table``): the seed and a stacked deck say
# every hidden card, and the kept state holds them.
SECRET_FIELDS = ("seed", "deck", "state")


def public_row(table):
    """A copy of the table's row with ``SECRET_FIELDS`` blanked: still a row (its pk, its
    name, its seats' query), but one a page cannot deal again from."""
    row = copy.copy(table)
    for name in SECRET_FIELDS:
        setattr(row, name, None)
    return row


class Facing:
    """One viewer's side of a table for one request (see the module's docstring). Built on
    a :class:`Snapshot`, whose loading it shares; it hands on only what the viewer may see."""

    def __init__(self, snap: Snapshot, viewer: str) -> None:
        self._snap = snap
        self.viewer = viewer

    @classmethod
    def owner(cls, snap: Snapshot) -> Facing:
        return cls(snap, OWNER)

    @classmethod
    def spectator(cls, snap: Snapshot) -> Facing:
        return cls(snap, SPECTATOR)

    @classmethod
    def seat(cls, snap: Snapshot, name: str) -> Facing:
        return cls(snap, name)

    def __getattr__(self, name: str) -> Any:
        if name in ("state", "setup", "moves", "script_moves", "narrative"):
            raise AttributeError(
                f"A page gets what its viewer ({self.viewer}) may see, not the table's "
                f"{name}: read `view` (and `legal`, `story_tail`, ...), games.facing.Facing"
            )
        raise AttributeError(name)

    # -- who looks ---------------------------------------------------------------------------
    @property
    def seat_name(self) -> str | None:
        """The seat looking, or None for the owner and a spectator."""
        return None if self.viewer in (OWNER, SPECTATOR) else self.viewer

    @property
    def table(self):
        """The table's row without what would give a secret away (its seed, its stacked deck,
        its kept state): a page that dealt again from the seed showed every hand."""
        return self._public_row

    @cached_property
    def _public_row(self):
        return public_row(self._snap.table)

    @property
    def kit(self) -> GameKit:
        return self._snap.kit

    @property
    def referee(self) -> Game:
        return self._snap.referee

    # -- what the viewer sees ----------------------------------------------------------------
    @cached_property
    def view(self) -> dict[str, Any]:
        """The referee's view for this viewer (a copy: a page may arrange it)."""
        if self.seat_name is None:
            return self._snap.view
        return self.referee.view(self._snap.state, self.seat_name)

    @property
    def public(self) -> dict[str, Any]:
        """What everyone may see (a spectator's view): a seat page that shows its player
        nothing of their own before its time (an answer not judged yet) draws from it."""
        return self._snap.view

    @cached_property
    def options(self) -> dict[str, Any]:
        """The table's options (public: the rules page shows them)."""
        return dict(self._snap.setup.options)

    @cached_property
    def expected_turn(self) -> Any:
        """The turn marker the forms of independent moves carry (public: the turn's number)."""
        return self.referee.turn_marker(self._snap.state)

    # -- what the viewer may enter ------------------------------------------------------------
    @cached_property
    def legal_moves(self) -> dict[str, list[dict[str, Any]]]:
        """The moves this viewer may enter, by seat, as the referee lists them: every seat's
        for the owner, their own for a seat, none for a spectator; a choice drawn from a part
        the viewer's view does not hold is left out."""
        if self.viewer == SPECTATOR:
            return {}
        raw = self._snap.legal_moves
        names = list(raw) if self.viewer == OWNER else [n for n in raw if n == self.viewer]
        if not names:
            return {}
        offered = {c for name in names for tpl in raw[name] for c in _list_choices(tpl)}
        if not offered:  # most moves offer no list to choose from: nothing to look through
            return {name: raw[name] for name in names}
        hidden = hidden_values(
            self.referee, self._snap.state, self.seat_name, self.view, among=offered
        )
        return {name: without_hidden(raw[name], hidden) for name in names}

    @cached_property
    def legal(self) -> dict[str, dict[str, dict[str, Any]]]:
        """``legal_moves`` by seat and verb (the templates the buttons are made from)."""
        return {
            name: {tpl["do"]: tpl for tpl in templates}
            for name, templates in self.legal_moves.items()
        }

    @property
    def mine(self) -> list[dict[str, Any]]:
        """A seat's own moves (empty for the owner and a spectator)."""
        return self.legal_moves.get(self.seat_name or "", [])

    # -- the table's public facts ------------------------------------------------------------
    @property
    def story_tail(self):
        return self._snap.story_tail

    def story_before(self, position: int):
        return self._snap.story_before(position)

    @property
    def story_facts(self) -> dict[str, Any]:
        return self._snap.story_facts

    @property
    def can_undo(self) -> bool:
        return self._snap.can_undo

    @property
    def last_move(self):
        return self._snap.last_move

    @property
    def recent_rows(self):
        return self._snap.recent_rows
