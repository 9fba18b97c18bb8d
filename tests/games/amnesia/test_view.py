"""What Amnesia's views show, as the referee contract says (shared/referee/amnesia.md):
nothing in hand is secret; only the future draws are (the stacked deck
and the generator's state). Checked after every move of the game's golden scripts and demos, for a
spectator and each player."""

from __future__ import annotations

from games import registry
from tests.games.script_states import states

KIT = registry.kit("amnesia")


def test_each_view_shows_what_the_contract_says():
    seen = 0
    for state in states(KIT.slug):
        for viewer in [None, *state["seats"]]:
            assert KIT.referee.view(state, viewer) == expected(state, viewer)
            seen += 1
    assert seen > 100


def expected(state, viewer):
    return {k: v for k, v in state.items() if k not in ("stack", "rng")}
