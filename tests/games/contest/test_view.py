"""What the contest's views show, as the referee contract says (/work/shared/referee/contest.md):
the deck and the generator's state are nobody's; each hand is its
player's (None in everyone else's view). Checked after every move of the game's golden scripts and demos, for a
spectator and each player."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from games import registry
from games.rules.base import IllegalMove
from games.rules.script import BadScript, parse_script, rules_part

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts" / "contest"
KIT = registry.kit("contest")


def states():
    scripts = [json.loads(p.read_text())["script"] for p in sorted(SCRIPTS.glob("*.json"))]
    scripts += [s for _n, s in KIT.demos(datetime(2026, 1, 2, tzinfo=UTC))]
    for script in scripts:
        try:
            setup, moves = parse_script(script)
        except BadScript:
            continue
        state = KIT.referee.initial_state(setup)
        yield state
        for move in moves:
            try:
                state = KIT.referee.apply(state, rules_part(move))
            except IllegalMove:
                break
            yield state


def test_each_view_shows_what_the_contract_says():
    seen = 0
    for state in states():
        for viewer in [None, *state["seats"]]:
            assert KIT.referee.view(state, viewer) == expected(state, viewer)
            seen += 1
    assert seen > 100


def expected(state, viewer):
    seen = {k: v for k, v in state.items() if k not in ("deck", "rng")}
    seen["players"] = {
        name: {**record, "hand": record["hand"] if name == viewer else None}
        for name, record in state["players"].items()
    }
    return seen
