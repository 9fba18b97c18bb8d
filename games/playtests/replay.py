"""One simulated game opened by its number: played again from the run's seed, then stepped
through move by move, as boardgame.io's debug panel steps through one game.

A game of a run is a pure function of the run's arguments and its index (``games.simulate``:
the seeds are derived from the run's seed and the index), so nothing but the run is stored:
the game is played again here with the kit's bots, its script kept, and replayed by the
referee to the step asked. What each seat saw is the referee's ``view`` for that seat (the
table's public view for nobody), never the state. Played again by today's code, a game can
differ from the one the run recorded (the rules or bots changed since): the page says so when
the recorded length differs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from amnesia_site import lists
from games import registry
from games.playtests import figures as P
from games.playtests import lab_chunks
from games.playtests.models import SimulationChunk, SimulationRun
from games.rules import cards
from games.rules.script import parse_setup
from games.simulate.engine import play_game


@dataclass
class Game:
    run: SimulationRun
    index: int  # 0-based, as the engine counts; people read index + 1
    record: dict[str, Any]
    setup: Any
    moves: list[dict[str, Any]]
    recorded_moves: int | None = None
    states: list[dict[str, Any]] = field(default_factory=list)

    @property
    def number(self) -> int:
        return self.index + 1

    @property
    def differs(self) -> bool:
        return self.recorded_moves is not None and self.recorded_moves != len(self.moves)


def recorded(run: SimulationRun, index: int) -> dict[str, Any] | None:
    """The run's own record of game ``index`` (in its chunk), if the run kept it."""
    chunk = (
        SimulationChunk.objects.filter(run=run, index=index // max(1, run.chunk_games))
        .values_list("records", flat=True)
        .first()
    )
    return next((r for r in chunk or [] if r.get("index") == index), None)


def open_game(run: SimulationRun, index: int) -> Game:
    """Game ``index`` of the run played again, with its script and every state."""
    spec = lab_chunks.spec_of(run)
    spec.keep_scripts = index + 1
    record = play_game(spec, index)
    script = record["script"]
    referee = registry.kit(run.game).referee
    setup = parse_setup(script)
    moves = [dict(m) for m in script["moves"]]
    states = [referee.initial_state(setup)]
    for move in moves:
        states.append(referee.apply(states[-1], move))
    kept = recorded(run, index)
    return Game(
        run=run,
        index=index,
        record=record,
        setup=setup,
        moves=moves,
        recorded_moves=kept["moves"] if kept else None,
        states=states,
    )


def extremes(run: SimulationRun) -> dict[str, Any]:
    """The games worth opening first: the longest, the shortest, and each stall's first game
    (a rule hole's script), as 1-based numbers."""
    records = lab_chunks.records_of(run)
    out: dict[str, Any] = {"longest": None, "shortest": None, "holes": []}
    if records:
        out["longest"] = max(records, key=lambda r: (r["moves"], -r["index"]))["index"] + 1
        out["shortest"] = min(records, key=lambda r: (r["moves"], r["index"]))["index"] + 1
    out["holes"] = [
        {"kind": f["kind"], "number": f["game_index"] + 1, "games": f["games"]}
        for f in run.findings
        if "game_index" in f
    ]
    return out


# -- a view in words ----------------------------------------------------------------------------
def view_rows(game: str, view: dict[str, Any]) -> list[dict[str, Any]]:
    """The referee's view as a designer reads it: the parts the game names
    (``GameKit.view_labels``), in its order, each ``{"label", "text"}``; for a part made of
    plain values (each seat's tokens) ``{"label", "pairs"}``, read on one line; for a part
    made of parts (a seat's figures, the challenge under way) ``{"label", "rows"}``. A part keyed by
    seat lists the seats by name; coded values read in the game's words (``view_values``);
    card codes as the cards; nothing the game does not name is shown."""
    kit = registry.kit(game)
    seats = set(view.get("seats") or [])
    return _rows(kit, view, seats, top=True)


def _rows(
    kit, part: dict[str, Any], seats: set[str], top: bool = False, parent: str = ""
) -> list[dict[str, Any]]:
    labels = kit.view_labels
    # A part keyed by seat (or by anything the game does not name: a hand's slots) lists
    # every entry under its own key.
    by_seat = not top and (set(part) <= seats or not set(part) & set(labels))
    keys = list(part) if by_seat else [k for k in labels if k in part]
    out = []
    for key in keys:
        value = part[key]
        if value is None or value == [] or value == {}:
            continue
        label = str(key) if by_seat else str(labels[key])  # a seat's name is its label
        # A seat's value reads in the words of the part it belongs to.
        words = parent if by_seat else key
        if isinstance(value, dict):
            rows = _rows(kit, value, seats, parent=words)
            if rows and not any(isinstance(v, list | dict) for v in value.values()):
                out.append({"label": label, "pairs": rows})  # read on one line
            elif rows:
                out.append({"label": label, "rows": rows})
            continue
        out.append({"label": label, "text": _value_text(kit, words, value)})
    return out


def _value_text(kit, key: str, value: Any) -> str:
    if isinstance(value, list):
        return lists.separator().join(_value_text(kit, key, v) for v in value)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int | float):
        return P.number(value, 0 if float(value).is_integer() else 1)
    words = kit.view_values.get(key, {})
    if value in words:
        return str(words[value])
    if cards.is_playing_card(value) or cards.is_joker(value):
        return cards.label(value)
    return str(value)
