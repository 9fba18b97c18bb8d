"""Contest referee: unit tests for the tricky rulings and property tests over random games."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.contest.rules import GAME
from games.contest.rules.core import card_to_lose, card_value, full_deck
from games.rules import cards as C
from games.rules.errors import IllegalMove
from games.rules.script import parse_script, replay, replay_script

CHARS = {
    "Ana": {"name": "Zed", "brains": 3, "muscle": 3, "moves": 3, "coolness": 3},
    "Bo": {"name": "Yum", "brains": 2, "muscle": 4, "moves": 3, "coolness": 3},
    "Cy": {"name": "Kit", "brains": 4, "muscle": 2, "moves": 2, "coolness": 4},
    "Di": {"name": "Rex", "brains": 1, "muscle": 5, "moves": 5, "coolness": 1},
}


def chars(players: list[str]) -> list[dict[str, Any]]:
    return [{"by": p, "do": "character", **CHARS[p]} for p in players]


def script(players=("Ana", "Bo"), moves=(), **extra) -> dict[str, Any]:
    players = list(players)
    return {
        "game": "contest",
        "players": players,
        "moves": chars(players) + list(moves),
        **extra,
    }


def run(s: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    return replay_script(json.loads(json.dumps(s)))


def state_of(s: dict[str, Any]) -> dict[str, Any]:
    code, out = run(s)
    assert code == 0, out
    return out


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


def test_stacked_deck_duplicates_are_bad_scripts() -> None:
    code, out = run(script(deck=["2S", "2S"]))
    assert code == 2 and out["error"]["code"] == "bad_script"
    code, out = run(script(options={"joker_swap": True}))
    assert code == 2


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


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**31),
    options=st.sampled_from(OPTION_SETS),
    n=st.integers(2, 4),
)
def test_random_games_keep_every_card(seed: int, options: dict, n: int) -> None:
    players = ["Ana", "Bo", "Cy", "Di"][:n]
    s, state = play_random(seed, options, players, 70)
    # The script survives a JSON round trip and replays to the very same state.
    text = json.dumps(s)
    code, out = replay_script(json.loads(text))
    assert code == 0, out
    assert out == state
    setup, moves = parse_script(json.loads(text))
    entries = GAME.narrative(setup, moves)
    assert len([e for e in entries if e["type"] == "move"]) == len(moves)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_long_games_end_with_one_winner(seed: int) -> None:
    options = {"hand_size": 4, "pretzel_limit": 2}
    s, state = play_random(seed, options, ["Ana", "Bo", "Cy"], 400)
    if state["finished"]:
        assert len(state["winners"]) == 1
        winner = state["winners"][0]
        assert state["earned_points"][winner] >= 1
        assert [n for n in state["seats"] if not state["players"][n]["out"]] == [winner]


def test_replay_keeps_states() -> None:
    s, state = play_random(5, {}, ["Ana", "Bo", "Cy"], 40)
    setup, moves = parse_script(s)
    result = replay(setup, moves, keep_states=True)
    assert result.error is None and result.states[-1] == state


def _containers(value: Any) -> list[Any]:
    """Every list and mapping inside ``value`` (itself included)."""
    found: list[Any] = []
    if isinstance(value, dict):
        found.append(value)
        for item in value.values():
            found += _containers(item)
    elif isinstance(value, list):
        found.append(value)
        for item in value:
            found += _containers(item)
    return found


def test_a_contests_snapshot_is_a_deep_copy_of_its_parts() -> None:
    """``snapshot`` copies each part by its shape: over every state of the golden scripts and
    the demos with a contest, the value copy_plain gives, and no list or mapping shared with
    the contest (which goes on changing after its result)."""
    from games.contest.rules.flow import SNAPSHOT_KEYS, snapshot
    from games.rules.plain import copy_plain
    from tests.games.script_states import states

    checked = 0
    kinds: set[str] = set()
    for state in states("contest"):
        for contest in (state["contest"], state.get("last_contest")):
            if not contest:
                continue
            made = snapshot(contest)
            assert made == copy_plain({k: contest[k] for k in SNAPSHOT_KEYS if k in contest})
            shared = {id(c) for c in _containers(contest)}
            assert not any(id(c) in shared for c in _containers(made))
            checked += 1
            kinds |= {k for k in ("teams", "rounds", "penalties") if contest.get(k)}
    assert checked > 50
    assert kinds == {"teams", "rounds", "penalties"}  # each kind of part met, not only empty
