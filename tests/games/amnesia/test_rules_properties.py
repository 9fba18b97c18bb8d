"""Amnesia referee, properties over random games: tokens conserved and never negative, a JSON
round trip and any prefix replayed, legal_moves against apply, narrative() never raising."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.amnesia.rules import GAME
from games.rules import cards
from games.rules.errors import IllegalMove
from games.rules.script import parse_script, replay, replay_script
from tests.games.amnesia.scripts import VERBS, M, conserved


# -- random play -------------------------------------------------------------------------
def fill(template: dict, player: str, state: dict, rnd: random.Random) -> dict:
    """A concrete move from a legal_moves template."""
    move = {"by": player, "do": template["do"]}
    verb = template["do"]
    if verb == "pass":
        move["take"] = rnd.randint(0, template["max_take"])
    elif verb == "flashback":
        move["abilities"] = rnd.sample(["surgery", "flight", "French", "locks"], rnd.randint(0, 2))
    elif verb == "end_story":
        move["agreed"] = list(template["agreed"])
    elif verb in ("open", "higher", "lower") and state["deck_mode"] == "physical":
        drawn = state["challenge"]["drawn"]
        move["card"] = rnd.choice([c for c in cards.standard_deck() if c not in drawn])
    if rnd.random() < 0.3:
        move["text"] = rnd.choice(["She runs.", "Blood.", "Sirens", "ção ✓"])
    return move


def options_for(move: dict, state: dict) -> list[dict]:
    """Plausible field values for a verb that legal_moves did not list."""
    verb = move["do"]
    if verb == "pass":
        return [{**move, "take": 0}]
    if verb == "end_story":
        return [{**move, "agreed": list(state["seats"])}]
    if verb in ("open", "higher", "lower") and state["deck_mode"] == "physical":
        drawn = state["challenge"]["drawn"] if state["challenge"] else []
        return [{**move, "card": next(c for c in cards.standard_deck() if c not in drawn)}]
    return [move]


def random_game(seed: int, n_players: int, opts: dict, physical: bool, length: int):
    """A random legal game: (script, states after each move)."""
    rnd = random.Random(seed)
    players = ["Ana", "Bruno", "Caio", "Dora", "Edu", "Fê"][:n_players]
    scr = {
        "game": "amnesia",
        "players": players,
        "start": rnd.choice(players),
        "options": opts,
        "deck_mode": "physical" if physical else "virtual",
        "seed": seed,
        "moves": [],
    }
    if rnd.random() < 0.3:
        scr["deck"] = rnd.sample(cards.standard_deck(), rnd.randint(1, 8))
    setup, _ = parse_script(scr)
    state = GAME.initial_state(setup)
    states = []
    for _ in range(length):
        options = [(p, t) for p in players for t in GAME.legal_moves(state, p)]
        if not options:
            break
        # pick a verb first so that the many "suggest" options do not swamp the game
        verbs = sorted({t["do"] for _, t in options})
        verb = rnd.choice(verbs)
        if verb == "end_story" and rnd.random() < 0.7:
            verb = rnd.choice(verbs)
        player, template = rnd.choice([(p, t) for p, t in options if t["do"] == verb])
        move = fill(template, player, state, rnd)
        state = GAME.apply(state, move)
        scr["moves"].append(move)
        states.append(state)
    return scr, states


game_params = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32),
        "n_players": st.integers(2, 6),
        "opts": st.fixed_dictionaries(
            {
                "start_tokens": st.integers(1, 6),
                "token_cap": st.integers(1, 10),
                "finale_factor": st.integers(0, 2),
                "tie_loses": st.booleans(),
            }
        ),
        "physical": st.booleans(),
        "length": st.integers(1, 80),
    }
)


@given(game_params)
def test_tokens_conserved_and_never_negative(params):
    scr, states = random_game(**params)
    total = params["opts"]["start_tokens"] * params["n_players"]
    for state in states:
        assert conserved(state) == total
        assert min(state["tokens"].values()) >= 0
        assert min(state["bank"], state["discard"], state["pot"]) >= 0
        if state["challenge"] is None:
            assert state["pot"] == 0
        else:
            ch = state["challenge"]
            assert ch["participants"] == [p for p in state["seats"] if p in ch["participants"]]
            assert len(ch["participants"]) >= 2


@given(game_params)
def test_json_round_trip_and_prefix_replay(params):
    scr, states = random_game(**params)
    code, out = replay_script(scr)
    assert code == 0, out
    if states:
        assert out == states[-1]
    again = json.loads(json.dumps(scr))
    assert replay_script(again) == (code, out)
    setup, moves = parse_script(again)
    k = len(moves) // 2
    prefix = replay(setup, moves[:k]).state
    # the state itself survives JSON too, and play goes on from it
    state = json.loads(json.dumps(prefix))
    for move in moves[k:]:
        state = GAME.apply(state, move)
    assert state == out


@given(game_params)
def test_legal_moves_match_apply(params):
    scr, states = random_game(**params)
    rnd = random.Random(params["seed"] + 1)
    for state in states:
        for player in state["seats"]:
            templates = GAME.legal_moves(state, player)
            listed = {t["do"] for t in templates}
            for template in templates:
                if template["do"] == "pass":
                    for take in range(template["max_take"] + 1):
                        GAME.apply(state, M(player, "pass", take=take))
                    with pytest.raises(IllegalMove):
                        GAME.apply(state, M(player, "pass", take=template["max_take"] + 1))
                else:
                    GAME.apply(state, fill(template, player, state, rnd))
            for verb in VERBS:
                if verb in listed:
                    continue
                for move in options_for(M(player, verb), state):
                    with pytest.raises(IllegalMove):
                        GAME.apply(state, move)


@given(game_params, st.booleans())
def test_narrative_never_raises_and_matches_challenges(params, garbage):
    scr, states = random_game(**params)
    setup, moves = parse_script(scr)
    if garbage:
        moves = moves + [M("Zed", "dance"), "not a move", {}]
    entries = GAME.narrative(setup, moves)
    winners = [
        (ch["winner"], ch["pot"])
        for e in entries
        if e["kind"] in ("scene", "flashback", "room")
        for ch in e["challenges"]
        if ch["winner"] is not None
    ]
    expected = []
    for before, after in zip([None] + states, states, strict=False):
        done = 0 if before is None else before["challenges"]
        if after["challenges"] > done:
            expected.append((after["last_challenge"]["winner"], after["last_challenge"]["pot"]))
    assert winners == expected
    # every move is shown by exactly one entry
    shown = sorted(i for e in entries for i in e["moves"])
    assert shown == list(range(len(states)))
    json.dumps(entries)
