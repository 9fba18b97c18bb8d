"""Contest: a readable record of a game for the story archive and the web page."""

from __future__ import annotations

import copy
from typing import Any

from games.rules.base import Game, IllegalMove, Setup


def narrative(game: Game, setup: Setup, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Replay ``moves`` and list what happened, in order.

    Each entry has ``index`` (the move it came from), ``type`` and ``summary`` (a sentence).
    ``type`` is ``move`` for the move itself (with ``by``, ``do``, ``text`` and ``at``), then
    the events it caused: ``challenge``, ``play`` (card, draws, total), ``result``,
    ``penalty``, ``contest`` (the whole contest once it is over: who, kind, attributes,
    every card, draws, totals, winner, loser, penalties), ``control`` (each change of
    narrator), ``pretzel``, ``out``, ``end`` and so on. An illegal move ends the list with an
    ``error`` entry.
    """
    state = game.initial_state(setup)
    entries: list[dict[str, Any]] = []
    for index, move in enumerate(moves):
        try:
            state = game.apply(state, move)
        except IllegalMove as exc:
            entries.append(
                {"index": index, "type": "error", "code": exc.code, "summary": exc.message}
            )
            break
        by, verb = move.get("by"), move.get("do")
        entries.append(
            {
                "index": index,
                "type": "move",
                "by": by,
                "do": verb,
                "text": move.get("text") or "",
                "at": move.get("at"),
                "summary": f"{by}: {verb}",
            }
        )
        for ev in state.get("events", []):
            entries.append({"index": index, **copy.deepcopy(ev)})
    return entries
