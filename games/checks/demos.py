"""The kit's demo tables, replayed through the referee with moves that keep to the declared
fields (``games.E007``, ``E005``): what the figures' and the secrets' checks play through."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from games.checks.report import Report, takes
from games.rules.base import Game
from games.rules.errors import BadScript, IllegalMove
from games.rules.script import misfit_field, parse_script, undeclared_fields

# The moment the demos are built for (a fixed one: the check must say the same every time).
DEMO_NOW = datetime(2026, 1, 2, 12, 0, tzinfo=UTC)


class Demo:
    """One demo table replayed: its set-up, its moves and the state after each."""

    def __init__(self, name: str, setup, moves: list[dict[str, Any]], states: list) -> None:
        self.name = name
        self.setup = setup
        self.moves = moves
        self.states = states  # the initial state, then the state after each move


def check_demos(report: Report) -> list[Demo]:
    kit = report.kit
    game = kit.referee
    if kit.demos is None or not isinstance(game, Game) or not takes(kit.demos, 1):
        return []
    demos = kit.demos(DEMO_NOW)
    if not demos:
        report.error("E007", "demos", "gives no demo table.", "Return at least one (name, script).")
        return []
    played = []
    for name, script in demos:
        if not isinstance(script, Mapping) or script.get("game") != kit.slug:
            report.error(
                "E007", "demos", f"the demo {name!r} is not a script of this game.", "Fix it."
            )
            continue
        try:
            setup, moves = parse_script(dict(script))
        except BadScript as exc:
            report.error(
                "E007", "demos", f"the demo {name!r} is malformed: {exc.message}", "Fix it."
            )
            continue
        state = game.initial_state(setup)
        states = [state]
        for index, move in enumerate(moves):
            extra = undeclared_fields(game, move) if move.get("do") in game.moves else []
            misfit = misfit_field(game, move)
            if extra or misfit:
                report.error(
                    "E005",
                    "referee",
                    f"move {index} of the demo {name!r} ({move.get('do')!r}) carries "
                    f"{', '.join(extra) or misfit!r}, which its fields do not declare (or "
                    "declare otherwise): the write path would refuse it.",
                    "Declare every field each verb reads in Game.fields.",
                )
            rules = {k: v for k, v in move.items() if k not in ("text", "at")}
            try:
                state = game.apply(state, rules)
            except IllegalMove as exc:
                report.error(
                    "E007",
                    "demos",
                    f"move {index} of the demo {name!r} is refused: {exc.message}",
                    "Make every demo move legal (referee replay shows where it stops).",
                )
                break
            states.append(state)
        played.append(Demo(name, setup, moves, states))
    return played
