"""What the contest's views show, as the referee contract says (shared/referee/contest.md):
the deck and the generator's state are nobody's; each hand is its
player's (None in everyone else's view). Checked after every move of the game's golden scripts and demos, for a
spectator and each player."""

from __future__ import annotations

from games import registry
from tests.games.script_states import states

KIT = registry.kit("contest")


def test_each_view_shows_what_the_contract_says():
    seen = 0
    for state in states(KIT.slug):
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
