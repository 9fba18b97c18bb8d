"""Contest referee: what a game starts from and what it deals: card values and the order of
cards lost, characters and their points, the deal, the deck reshuffled, a physical chain, a
stacked deck, and the view that hides hands and the deck."""

from __future__ import annotations

from games.contest.rules import GAME
from games.contest.rules.core import card_to_lose, card_value
from tests.games.contest.scripts import run, script, state_of

# -- cards ----------------------------------------------------------------------------------


def test_card_values() -> None:
    assert [card_value(c) for c in ("AS", "2H", "10D", "JC", "QS", "KH", "X1", "PS", "M3")] == [
        1,
        2,
        10,
        0,
        0,
        0,
        0,
        0,
        0,
    ]


def test_card_to_lose_order() -> None:
    assert card_to_lose(["3S", "10C", "10H", "9S"]) == "10H"
    assert card_to_lose(["KS", "JS", "QH"]) == "JS"
    assert card_to_lose(["X1", "KC", "JD"]) == "JD"
    assert card_to_lose(["KS", "AS"]) == "AS"
    assert card_to_lose(["X2", "X1"]) == "X1"
    assert card_to_lose(["NS", "PS", "KS"]) == "PS"


# -- rulings --------------------------------------------------------------------------------


def test_character_name_clashes_are_rule_violations() -> None:
    s = script(moves=[])
    s["moves"][1]["name"] = "zed"
    code, out = run(s)
    assert code == 1 and out["error"]["code"] == "rule_violation"
    s["moves"][1]["name"] = "ana"
    assert run(s)[1]["error"]["code"] == "rule_violation"


def test_character_points_and_extra_points() -> None:
    s = script(moves=[])
    s["moves"][0].update(brains=6, muscle=2, moves=2, coolness=2)
    assert run(s)[1]["error"] == {
        "index": 0,
        "code": "bad_argument",
        "message": run(s)[1]["error"]["message"],
    }
    s["moves"][0]["extra_points"] = 1
    s["moves"][0].update(brains=6, muscle=3, moves=2, coolness=2)
    state = state_of(s)
    assert state["players"]["Ana"]["attributes"]["brains"] == 6


def test_deal_is_round_robin_from_first_seat() -> None:
    deck = [f"{r}S" for r in ("A", "2", "3", "4", "5", "6", "7", "8")]
    s = script(deck=deck, options={"hand_size": 4}, start="Bo")
    state = state_of(s)
    assert state["players"]["Ana"]["hand"] == ["AS", "3S", "5S", "7S"]
    assert state["players"]["Bo"]["hand"] == ["2S", "4S", "6S", "8S"]
    assert state["controller"] == "Bo"
    assert state["deck_count"] == 0


def test_empty_deck_reshuffles_discard_with_seed() -> None:
    deck = ["2H", "3H", "4H", "5H", "6D", "7D", "8D", "9D", "JS", "10C"]
    s = script(
        deck=deck,
        seed=11,
        options={"hand_size": 4},
        moves=[{"by": "Bo", "do": "take_control", "with": "face_card", "card": "JS"}],
    )
    # Ana: 2H 4H 6D 8D; Bo: 3H 5H 7D 9D; deck JS 10C -> Bo has no face card.
    code, out = run(s)
    assert code == 1 and out["error"]["code"] == "rule_violation"


def test_physical_chain_must_be_complete() -> None:
    moves = [
        {"by": "Ana", "do": "challenge", "target": "Bo", "contest": "race", "attribute": "moves"},
        {"by": "Bo", "do": "accept", "attribute": "moves"},
        {"by": "Ana", "do": "play", "card": "5D", "draws": ["6D"]},
    ]
    code, out = run(script(moves=moves, deck_mode="physical"))
    assert code == 1 and out["error"]["code"] == "rule_violation"
    moves[2]["draws"] = ["6D", "2C", "3C"]
    assert run(script(moves=moves, deck_mode="physical"))[1]["error"]["code"] == "rule_violation"
    moves[2]["draws"] = ["6D", "2C"]
    state = state_of(script(moves=moves, deck_mode="physical"))
    assert state["contest"]["totals"]["Ana"] == 3 + 5 + 6 + 2
    assert state["players"]["Ana"]["hand_count"] == 7


def test_view_hides_hands_and_deck() -> None:
    state = state_of(script())
    ana = GAME.view(state, "Ana")
    assert ana["players"]["Ana"]["hand"] == state["players"]["Ana"]["hand"]
    assert ana["players"]["Bo"]["hand"] is None
    assert ana["players"]["Bo"]["hand_count"] == 8
    assert "deck" not in ana and "rng" not in ana
    gm = GAME.view(state, None)
    assert all(p["hand"] is None for p in gm["players"].values())
    assert state["players"]["Bo"]["hand"]  # the view never touches the state


def test_stacked_deck_duplicates_are_bad_scripts() -> None:
    code, out = run(script(deck=["2S", "2S"]))
    assert code == 2 and out["error"]["code"] == "bad_script"
    code, out = run(script(options={"joker_swap": True}))
    assert code == 2
