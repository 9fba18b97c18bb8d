"""What Amnesia Stories's views show, as the referee contract says (shared/referee/amnesia_stories.md):
the deck and the generator's state are nobody's; an answer to the turn
being answered is its player's only until the turn is judged. Checked after every move of the game's golden scripts and demos, for a
spectator and each player."""

from __future__ import annotations

from games import registry
from tests.games.script_states import states

KIT = registry.kit("amnesia_stories")


def test_each_view_shows_what_the_contract_says():
    seen = 0
    for state in states(KIT.slug):
        for viewer in [None, *state["seats"]]:
            assert KIT.referee.view(state, viewer) == expected(state, viewer)
            seen += 1
    assert seen > 100


def expected(state, viewer):
    seen = {k: v for k, v in state.items() if k not in ("_deck", "rng")}
    picks = state["_picks"]
    seen["_picks"] = {viewer: picks[viewer]} if viewer in picks else {}
    return seen
