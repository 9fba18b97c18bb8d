"""Random contests for the referee's properties (test_rules_random.py, test_legal_moves.py):
option sets, a move filled from a legal template (``fill``), a whole game played at random
(``play_random``) and the invariants each state keeps (``check_invariants``)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from games.contest.rules import GAME
from games.contest.rules.core import full_deck
from games.rules import cards as C
from games.rules.errors import IllegalMove
from games.rules.script import parse_script

# -- property tests --------------------------------------------------------------------------

OPTION_SETS = [
    {},
    {"hand_size": 4, "pretzel_limit": 2, "ties": "defender"},
    {"jokers": True, "joker_swap": True, "healing": True, "ties": "challenger"},
    {"teams": True, "extended_contests": True, "hand_size": 5},
    {"tarot": True, "plot_cards": True, "word_bonus": True, "hamming_it_up": True},
    {"voting_off": True, "extra_points": True, "pretzel_limit": 3, "eat_limit": 1},
    {"jokers": True, "healing": True, "extended_contests": True, "hand_size": 4},
]


def _partition(rng: C.Rng, names: list[str], parts: int) -> list[list[str]]:
    out: list[list[str]] = [[] for _ in range(parts)]
    for name in names:
        out[rng.below(parts)].append(name)
    return out


def fill(template: dict, state: dict, player: str, rng: C.Rng) -> dict[str, Any]:
    move: dict[str, Any] = {"by": player, "do": template["do"]}
    if "with" in template:
        move["with"] = template["with"]
    for field, values in template.get("choices", {}).items():
        move[field] = rng.choice(values)
    verb = template["do"]
    o = state["options"]
    others = [n for n in state["seats"] if not state["players"][n]["out"] and n != player]
    if verb == "character":
        attrs = dict.fromkeys(("brains", "muscle", "moves", "coolness"), o["attribute_min"])
        left = o["attribute_points"] - 4 * o["attribute_min"]
        while left:
            key = rng.choice(list(attrs))
            if attrs[key] < o["attribute_max"]:
                attrs[key] += 1
                left -= 1
        move.update(name=f"Hero of {player}", bfa=rng.below(2) == 1, **attrs)
    elif verb == "challenge":
        move["contest"] = "a duel"
        move["named"] = rng.below(8) != 0
        if o["extended_contests"]:
            move["extended"] = rng.below(3) == 0
        if o["teams"] and rng.below(2):
            rest = [n for n in others if n != move["target"]]
            mine, theirs, _ = _partition(rng, rest, 3)
            move["team"] = [player, *mine]
            move["target_team"] = [move["target"], *theirs]
    elif verb == "play":
        if o["hamming_it_up"]:
            move["ham"] = rng.below(2)
        if o["word_bonus"]:
            move["word"] = rng.below(2) == 1
    elif verb == "vote_off":
        voters = [n for n in others if n != move["target"]]
        move["up"], move["down"], move["pretzels"] = _partition(rng, voters, 3)
    elif verb == "extra_point":
        move["up"], move["down"] = _partition(rng, others, 2)
    elif verb == "bribe":
        move["accepted_by"] = [n for n in others if rng.below(3)]
    if rng.below(4) == 0:
        move["text"] = "And then..."
    return move


def check_invariants(state: dict, deck: list[str]) -> None:
    o = state["options"]
    places: list[str] = list(state["deck"]) + list(state["discard"])
    contest = state["contest"]
    if contest:
        for codes in contest["cards"].values():
            places += codes
        for codes in contest["extended_lost"].values():
            places += codes
    for name, p in state["players"].items():
        places += p["hand"] + p["lost"]
        ext = len(contest["extended_lost"].get(name, [])) if contest else 0
        assert p["hand_limit"] == o["hand_size"] - len(p["lost"]) - ext
        assert len(p["hand"]) <= p["hand_limit"], (name, p)
        assert p["hand_count"] == len(p["hand"])
        limit = max(6, o["eat_limit"]) if p["bfa"] else o["eat_limit"]
        assert 0 <= p["eaten"] <= limit
        assert p["pretzels"] >= 0
        if p["out"]:
            assert p["hand"] == []
        else:
            assert len(p["lost"]) < o["hand_size"]
            assert p["pretzels"] < o["pretzel_limit"]
    assert Counter(places) == Counter(deck), "a card was duplicated or lost"
    assert state["deck_count"] == len(state["deck"])
    assert state["discard_count"] == len(state["discard"])
    if state["phase"] not in ("characters", "ended"):
        assert state["controller"] in state["seats"]
        assert not state["players"][state["controller"]]["out"]
    assert json.loads(json.dumps(state)) == state


def play_random(seed: int, options: dict, players: list[str], steps: int):
    s = {"game": "contest", "players": players, "options": options, "seed": seed, "moves": []}
    setup, _ = parse_script(s)
    state = GAME.initial_state(setup)
    deck = sorted(state["deck"])
    assert Counter(deck) == Counter(full_deck(setup.options))
    rng = C.Rng(C.seed_state(seed * 7919 + 1))
    moves = []
    for _ in range(steps):
        if state["finished"]:
            break
        order = [p for p in players if not state["players"][p]["out"]]
        rng.shuffle(order)
        options_now = []
        for player in order:
            options_now = [(player, t) for t in GAME.legal_moves(state, player)]
            if options_now and (rng.below(3) or player == order[-1]):
                break
        if not options_now:
            options_now = [(p, t) for p in order for t in GAME.legal_moves(state, p)]
        assert options_now, f"nobody can move in phase {state['phase']}"
        player, template = rng.choice(options_now)
        move = fill(template, state, player, rng)
        try:
            state = GAME.apply(state, move)
        except IllegalMove as exc:  # pragma: no cover - a failure to report
            raise AssertionError(f"legal_moves offered an illegal move {move}: {exc}") from exc
        moves.append(move)
        check_invariants(state, deck)
    s["moves"] = moves
    return s, state
