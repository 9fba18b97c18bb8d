"""One object to read a table through, for the length of one request.

The table page, the game's page context, the characters and the book all need the same few
things (the set-up, the live moves, the state, the legal moves, the readable story). A
``Snapshot`` loads each of them the first time somebody asks and keeps it, so a request reads
the log once however many consumers it has; nothing is loaded that nobody asks for.

It only reads: every write goes through ``games.services``. After a write, make a new one.
"""

from __future__ import annotations

import copy
from functools import cached_property
from typing import Any

from games import registry, services
from games.models import Move, Table
from games.registry import GameKit
from games.rules import Game, Setup


class Snapshot:
    def __init__(self, table: Table) -> None:
        self.table = table

    @property
    def kit(self) -> GameKit:
        return registry.kit(self.table.game)

    @property
    def referee(self) -> Game:
        return self.kit.referee

    @cached_property
    def setup(self) -> Setup:
        return services.setup_of(self.table)

    @cached_property
    def moves(self) -> list[Move]:
        """The moves in force (undone ones taken out), oldest first."""
        return services.live_moves(self.table)

    @cached_property
    def script_moves(self) -> list[dict[str, Any]]:
        return [m.as_script_move() for m in self.moves]

    @cached_property
    def state(self) -> dict[str, Any]:
        """The current state: the cache when it is current, else a replay of ``moves``."""
        table = self.table
        if table.state is not None and table.state_seq == table.last_seq:
            return table.state
        return services.rebuild_state(table, self.moves, self.setup)

    @cached_property
    def view(self) -> dict[str, Any]:
        """The state as the game master's screen may show it (no hidden information)."""
        return self.referee.view(self.state, None)

    @cached_property
    def legal(self) -> dict[str, dict[str, dict]]:
        """Each seat's legal moves now, by verb (the templates the buttons are made from)."""
        return {
            name: {tpl["do"]: tpl for tpl in self.referee.legal_moves(self.state, name)}
            for name in self.state["seats"]
        }

    @cached_property
    def _narrative(self) -> list[dict[str, Any]]:
        moves = self.moves
        entries = self.referee.narrative(self.setup, self.script_moves)
        for entry in entries:
            entry["seqs"] = [moves[i].seq for i in entry.get("moves", []) if i < len(moves)]
        return entries

    def narrative(self) -> list[dict[str, Any]]:
        """The game's readable story; each caller gets its own copy to arrange."""
        return copy.deepcopy(self._narrative)
