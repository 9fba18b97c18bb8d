"""Contest: a readable record of a game for the story archive and the web page."""

from __future__ import annotations

from typing import Any

from games.rules.base import Game, Narrator, Story
from games.rules.errors import IllegalMove
from games.rules.plain import copy_plain
from games.rules.setup import Setup


def narrative(game: Game, setup: Setup, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Replay ``moves`` and list what happened, in order.

    Each entry has ``index`` (the move it came from), ``type`` and ``summary`` (a sentence).
    ``type`` is ``move`` for the move itself (with ``by``, ``teller``: whose its narration
    is, see ``teller``, ``do``, ``text`` and ``at``), then
    the events it caused: ``challenge``, ``play`` (card, draws, total), ``result``,
    ``penalty``, ``contest`` (the whole contest once it is over: who, kind, attributes,
    every card, draws, totals, winner, loser, penalties), ``control`` (each change of
    narrator), ``pretzel``, ``out``, ``end`` and so on. An illegal move ends the list with an
    ``error`` entry.
    """
    return ContestNarrator(game, setup).tell(moves)


def teller(entry: dict[str, Any]) -> str:
    """Whose narration a ``move`` entry carries: whoever held the story when it was typed
    (``ContestNarrator`` says so in ``teller``; an entry kept before it did: the mover)."""
    return str(entry.get("teller") or entry.get("by") or "")


def said_once(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``entries`` without the drinks a take-over paid: its change of control says them
    (entries without ``index``, one move's events, count as one move)."""
    paid = {
        e.get("index") for e in entries if e.get("type") == "control" and e.get("how") == "drinks"
    }
    return [
        e
        for e in entries
        if not (
            e.get("type") == "penalty" and e.get("penalty") == "drink" and e.get("index") in paid
        )
    ]


class ContestNarrator(Narrator):
    """Every entry is told once and never changed: nothing left open. The cursor keeps the
    facts the table page shows from anywhere in the story: why each player went out, when
    control last changed hands (the move's time), and the narrator's clock of this turn of
    control: ``[index, at, phase after]`` for the move that gave control and each move since,
    so the countdown can leave contests out without a replay (``games.contest.clock``)."""

    def step(
        self,
        story: Story,
        index: int,
        move: dict[str, Any],
        before: dict[str, Any],
        after: dict[str, Any],
    ) -> None:
        by, verb = move.get("by"), move.get("do")
        events = after.get("events", [])
        # The narration goes with the next move, so a take-over carries what was typed while
        # the one before still held the story: it is theirs (the book and the page read it).
        handed = [ev for ev in events if ev.get("type") == "control" and ev.get("previous")]
        story.append(
            {
                "index": index,
                "type": "move",
                "by": by,
                "teller": handed[0]["previous"] if handed else by,
                "do": verb,
                "text": move.get("text") or "",
                "at": move.get("at"),
                "summary": f"{by}: {verb}",
            }
        )
        control_changed = False
        for ev in events:
            story.append({"index": index, **copy_plain(ev)})
            if ev.get("type") == "out":
                self.cursor.setdefault("out", {})[ev.get("player")] = ev.get("reason")
            elif ev.get("type") == "control":
                self.cursor["control_at"] = move.get("at")
                control_changed = True
        tick = [index, move.get("at"), after.get("phase")]
        if control_changed:
            self.cursor["control_clock"] = [tick]
        elif self.cursor.get("control_clock"):
            self.cursor["control_clock"].append(tick)

    def refused(self, story: Story, index: int, move: dict[str, Any], exc: IllegalMove) -> None:
        story.append({"index": index, "type": "error", "code": exc.code, "summary": exc.message})
