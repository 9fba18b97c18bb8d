"""Contest referee: a contest played out: legal moves in the story and after the end, the
narrative, jokers, ties, the pretzel vote, plot cards, the precedence of field checks."""

from __future__ import annotations

import pytest

from games.contest.rules import GAME
from games.rules.errors import IllegalMove
from games.rules.script import parse_script
from tests.games.contest.scripts import run, script, state_of


def test_legal_moves_in_story() -> None:
    state = state_of(script(players=("Ana", "Bo", "Cy")))
    verbs = {t["do"] for t in GAME.legal_moves(state, "Ana")}
    assert verbs == {"challenge"}
    challenge = next(t for t in GAME.legal_moves(state, "Ana") if t["do"] == "challenge")
    assert challenge["choices"]["target"] == ["Bo", "Cy"]
    bo = GAME.legal_moves(state, "Bo")
    assert {"do": "take_control", "with": "drinks"} in bo
    assert {"do": "throw_pretzel"} in bo


def test_narrative_records_a_contest() -> None:
    deck = ["5C", "3S", "9C", "KH", "2D", "4H", "6D", "8H", "10S", "7C"]
    moves = [
        {"by": "Ana", "do": "challenge", "target": "Bo", "contest": "arm", "attribute": "muscle"},
        {"by": "Bo", "do": "accept", "attribute": "muscle", "text": "I flex."},
        {"by": "Ana", "do": "play", "card": "5C"},
        {"by": "Bo", "do": "play", "card": "3S"},
        {"by": "Bo", "do": "drink"},
    ]
    s = script(deck=deck, options={"hand_size": 4}, moves=moves)
    setup, parsed = parse_script(s)
    entries = GAME.narrative(setup, parsed)
    assert any(e["type"] == "move" and e["text"] == "I flex." for e in entries)
    contest = [e for e in entries if e["type"] == "contest"]
    assert len(contest) == 1
    record = contest[0]["contest"]
    assert record["winner"] == "Ana" and record["penalties"] == {"Bo": ["drink"]}
    assert any(e["type"] == "control" for e in entries)


def test_legal_moves_empty_after_the_end() -> None:
    moves = [
        {"by": "Ana", "do": "challenge", "target": "Bo", "contest": "x", "attribute": "muscle"},
        {"by": "Bo", "do": "refuse", "penalty": ["card", "card"]},
    ]
    state = state_of(script(options={"hand_size": 4}, moves=moves[:1]))
    state["players"]["Bo"]["lost"] = ["2S", "3S"]
    state["players"]["Bo"]["hand"] = state["players"]["Bo"]["hand"][:2]
    state = GAME.apply(state, moves[1])
    assert state["finished"] and state["winners"] == ["Ana"]
    assert GAME.legal_moves(state, "Ana") == []
    with pytest.raises(IllegalMove) as exc:
        GAME.apply(state, {"by": "Ana", "do": "eat_pretzels", "count": 1})
    assert exc.value.code == "game_over"


def test_two_jokers_play_again() -> None:
    deck = ["X1", "X2", "2S", "5H", "3S", "6H", "4S", "7H", "8C", "9C"]
    moves = [
        {"by": "Ana", "do": "challenge", "target": "Bo", "contest": "x", "attribute": "muscle"},
        {"by": "Bo", "do": "accept", "attribute": "muscle"},
        {"by": "Ana", "do": "play", "card": "X1"},
        {"by": "Bo", "do": "play", "card": "X2"},
        {"by": "Ana", "do": "play", "card": "2S"},
        {"by": "Bo", "do": "play", "card": "5H"},
    ]
    s = script(deck=deck, options={"hand_size": 4, "jokers": True}, moves=moves)
    state = state_of(s)
    last = state["last_contest"]
    assert last["rounds"][0]["outcome"] == "jokers"
    assert last["totals"] == {"Ana": 5, "Bo": 9}
    assert (last["winner"], last["how"]) == ("Bo", "play")
    assert state["discard_count"] == 2  # the two jokers


def test_tied_replay_without_cards_loses() -> None:
    deck = ["9H", "4D", "8H", "3D", "4S", "2C", "3S", "JC", "5C", "6C"]
    moves = [
        {"by": "Bo", "do": "take_control", "with": "drinks"},
        {"by": "Bo", "do": "challenge", "target": "Ana", "contest": "x", "attribute": "coolness"},
        {"by": "Ana", "do": "refuse", "penalty": ["card", "card"]},
        {"by": "Bo", "do": "challenge", "target": "Ana", "contest": "x", "attribute": "coolness"},
        {"by": "Ana", "do": "accept", "attribute": "coolness"},
        {"by": "Ana", "do": "play", "card": "4S"},
        {"by": "Bo", "do": "play", "card": "4D"},
        {"by": "Ana", "do": "play", "card": "3S"},
        {"by": "Bo", "do": "play", "card": "3D"},
    ]
    s = script(deck=deck, options={"hand_size": 4}, moves=moves)
    state = state_of(s)
    assert state["players"]["Ana"]["lost"] == ["9H", "8H"]
    assert state["last_contest"]["how"] == "no_card"
    assert state["last_contest"]["loser"] == "Ana"
    assert [r["outcome"] for r in state["last_contest"]["rounds"]] == ["tie", "tie"]
    assert state["owed"] == {"Ana": 1}
    lose = dict(s, moves=s["moves"] + [{"by": "Ana", "do": "lose_card"}])
    assert run(lose)[1]["error"]["code"] == "rule_violation"
    paid = dict(s, moves=s["moves"] + [{"by": "Bo", "do": "drink"}])
    assert run(paid)[1]["error"]["code"] == "not_your_turn"
    paid = dict(s, moves=s["moves"] + [{"by": "Ana", "do": "drink"}])
    state = state_of(paid)
    assert state["phase"] == "story" and state["controller"] == "Bo"
    assert len(state["players"]["Ana"]["hand"]) == 2


def test_vote_pretzels_can_put_the_caller_out() -> None:
    moves = [
        {
            "by": "Ana",
            "do": "vote_off",
            "target": "Bo",
            "up": [],
            "down": [],
            "pretzels": ["Cy", "Di"],
        }
    ]
    s = script(
        players=("Ana", "Bo", "Cy", "Di"),
        options={"voting_off": True, "pretzel_limit": 2},
        moves=moves,
    )
    state = state_of(s)
    assert state["players"]["Ana"]["out"]
    assert state["controller"] == "Bo" and state["phase"] == "story" and state["vote"] is None


def test_vote_needs_every_voter_once() -> None:
    moves = [{"by": "Ana", "do": "vote_off", "target": "Bo", "up": ["Cy"], "down": ["Cy"]}]
    s = script(players=("Ana", "Bo", "Cy"), options={"voting_off": True}, moves=moves)
    assert run(s)[1]["error"]["code"] == "rule_violation"
    s["options"] = {}
    moves[0]["down"] = []
    assert run(s)[1]["error"]["code"] == "rule_violation"  # the option is off


def test_plot_card_gives_a_lost_card_back() -> None:
    deck = ["9H", "M0", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]
    moves = [
        {"by": "Ana", "do": "challenge", "target": "Bo", "contest": "x", "attribute": "moves"},
        {"by": "Bo", "do": "forfeit", "penalty": "card"},
        {"by": "Bo", "do": "take_control", "with": "plot_card", "card": "M0", "reward": "card"},
    ]
    opts = {"hand_size": 4, "tarot": True, "plot_cards": True}
    state = state_of(script(deck=deck, options=opts, moves=moves))
    bo = state["players"]["Bo"]
    # Bo lost 7S, played M0, drew 8S in its place and took 7S back.
    assert bo["lost"] == [] and bo["hand_limit"] == 4
    assert sorted(bo["hand"]) == sorted(["3S", "5S", "8S", "7S"])
    assert state["controller"] == "Bo"


def test_precedence_field_checks() -> None:
    moves = [{"by": "Ana", "do": "challenge", "target": "Nobody", "contest": "", "attribute": "x"}]
    assert run(script(moves=moves))[1]["error"]["code"] == "bad_argument"
    moves = [
        {
            "by": "Ana",
            "do": "challenge",
            "target": "Nobody",
            "contest": "duel",
            "attribute": "moves",
        }
    ]
    assert run(script(moves=moves))[1]["error"]["code"] == "unknown_player"
    moves[0]["target"] = "Ana"
    assert run(script(moves=moves))[1]["error"]["code"] == "rule_violation"
    moves[0]["extended"] = "yes"
    assert run(script(moves=moves))[1]["error"]["code"] == "bad_argument"
