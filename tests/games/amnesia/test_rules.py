"""Amnesia referee: tricky rulings, legal_moves against apply, properties and narrative()."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.amnesia.rules import GAME
from games.rules import cards
from games.rules.errors import IllegalMove
from games.rules.script import parse_script, replay, replay_script

VERBS = tuple(GAME.moves)
AB = ["Ana", "Bruno"]
ABC = ["Ana", "Bruno", "Caio"]


def M(by: str, do: str, **fields: Any) -> dict[str, Any]:
    return {"by": by, "do": do, **fields}


def script(moves: list[dict], players: list[str] | None = None, **extra: Any) -> dict:
    return {"game": "amnesia", "players": players or list(AB), "moves": moves, **extra}


def play(moves: list[dict], players: list[str] | None = None, **extra: Any) -> dict:
    code, out = replay_script(script(moves, players, **extra))
    assert code == 0, out
    return out


def error(moves: list[dict], players: list[str] | None = None, **extra: Any) -> tuple[str, int]:
    code, out = replay_script(script(moves, players, **extra))
    assert code == 1, out
    return out["error"]["code"], out["error"]["index"]


def conserved(state: dict) -> int:
    return sum(state["tokens"].values()) + state["bank"] + state["discard"] + state["pot"]


# Ana narrates, Bruno insists, Ana refuses: a challenge waiting for its first card.
CHALLENGE = [M("Ana", "continue"), M("Bruno", "insist"), M("Ana", "refuse")]
# With start_tokens 1: Ana continues and holds 0 tokens.
BROKE = {"options": {"start_tokens": 1}}


# -- error precedence ------------------------------------------------------------------------
class TestPrecedence:
    def test_wrong_turn_with_no_tokens_is_not_your_turn(self):
        moves = [M("Ana", "continue"), M("Ana", "end_scene"), M("Ana", "flashback")]
        assert error(moves, **BROKE) == ("not_your_turn", 2)

    def test_first_move_by_another_player_is_not_your_turn(self):
        assert error([M("Bruno", "continue")]) == ("not_your_turn", 0)
        assert error([M("Bruno", "pass", take=0)], start="Ana") == ("not_your_turn", 0)

    def test_first_move_by_the_start_player(self):
        state = play([M("Bruno", "continue")], start="Bruno")
        assert state["narrator"] == "Bruno"
        assert error([M("Ana", "continue")], start="Bruno") == ("not_your_turn", 0)
        assert error([M("Bruno", "flashback")], start="Bruno") == ("rule_violation", 0)
        assert error([M("Bruno", "room_flashback")], start="Bruno") == ("rule_violation", 0)

    def test_game_over_beats_unknown_player(self):
        moves = [
            M("Ana", "continue"),
            M("Ana", "end_scene"),
            M("Bruno", "flashback"),
            M("Bruno", "end_scene"),
            M("Ana", "room_flashback"),
            M("Ana", "end_scene"),
            M("Ana", "end_story", agreed=AB),
            M("Nobody", "nothing"),
        ]
        assert error(moves, options={"finale_factor": 0}) == ("game_over", 7)

    def test_unknown_player_beats_unknown_move(self):
        assert error([M("Zed", "dance")]) == ("unknown_player", 0)
        assert error([{"do": "continue"}]) == ("unknown_player", 0)

    def test_unknown_move_beats_wrong_phase(self):
        assert error([M("Ana", "continue"), M("Bruno", "shuffle")]) == ("unknown_move", 1)
        assert error([{"by": "Ana"}]) == ("unknown_move", 0)

    def test_wrong_phase_beats_not_your_turn(self):
        # Bruno is not the narrator, but end_story is not a scene move at all.
        moves = [M("Ana", "continue"), M("Bruno", "end_story", agreed=AB)]
        assert error(moves) == ("wrong_phase", 1)
        assert error([M("Ana", "accept")]) == ("wrong_phase", 0)

    def test_roles_in_a_scene(self):
        assert error([M("Ana", "continue"), M("Ana", "suggest")]) == ("not_your_turn", 1)
        assert error([M("Ana", "continue"), M("Bruno", "end_scene")]) == ("not_your_turn", 1)
        # the narrator insisting with no tokens: the role check comes first
        moves = [M("Ana", "continue"), M("Ana", "insist")]
        assert error(moves, **BROKE) == ("not_your_turn", 1)
        # a non-narrator with no tokens
        moves = [M("Ana", "continue"), M("Ana", "end_scene"), M("Bruno", "continue")]
        assert error(moves + [M("Ana", "insist")], **BROKE) == ("insufficient_tokens", 3)
        # only the narrator answers a paid suggestion
        moves = [M("Ana", "continue"), M("Bruno", "insist"), M("Bruno", "accept")]
        assert error(moves) == ("not_your_turn", 2)
        moves = [M("Ana", "continue"), M("Bruno", "insist"), M("Bruno", "refuse")]
        assert error(moves, **BROKE) == ("not_your_turn", 2)

    def test_accept_with_no_tokens_is_fine(self):
        moves = [M("Ana", "continue"), M("Bruno", "insist"), M("Ana", "accept")]
        state = play(moves, **BROKE)
        assert state["tokens"] == {"Ana": 1, "Bruno": 0}
        assert state["phase"] == "scene"

    def test_field_checks_come_in_order(self):
        # bad abilities (bad_argument) before "no flashback after the room" (rule_violation)
        room = [
            M("Ana", "continue"),
            M("Ana", "end_scene"),
            M("Bruno", "flashback"),
            M("Bruno", "end_scene"),
            M("Ana", "room_flashback"),
            M("Ana", "end_scene"),
        ]
        opts = {"options": {"finale_factor": 0}}
        assert error(room + [M("Bruno", "flashback", abilities="x")], **opts) == (
            "bad_argument",
            6,
        )
        assert error(room + [M("Bruno", "flashback", abilities=[""])], **opts)[0] == (
            "bad_argument"
        )
        assert error(room + [M("Bruno", "flashback")], **opts)[0] == "rule_violation"
        # a second room flashback
        assert error(room + [M("Bruno", "room_flashback")], **opts)[0] == "rule_violation"
        # a flashback by the wrong player after the room: the turn comes first
        assert error(room + [M("Ana", "flashback")], **opts)[0] == "not_your_turn"
        # pass: take out of range (bad_argument) before the first-move rule
        assert error([M("Ana", "pass", take=1)]) == ("bad_argument", 0)
        assert error([M("Ana", "pass")]) == ("bad_argument", 0)
        assert error([M("Ana", "pass", take=True)]) == ("bad_argument", 0)
        assert (
            error([M("Ana", "continue"), M("Ana", "end_scene"), M("Bruno", "pass", take=-1)])[0]
            == "bad_argument"
        )

    def test_end_story_fields(self):
        # the room not told: bad agreed (bad_argument), unknown target (unknown_player) first
        assert error([M("Ana", "end_story", agreed="everyone")]) == ("bad_argument", 0)
        assert error([M("Ana", "end_story", agreed=["Ana", "Zed"])]) == ("unknown_player", 0)
        assert error([M("Ana", "end_story", agreed=AB)]) == ("rule_violation", 0)

    def test_room_flashback_with_no_tokens(self):
        # finale_factor 0: the first flashback opens the room; Bruno spends his last token on it
        moves = [
            M("Ana", "continue"),
            M("Ana", "end_scene"),
            M("Bruno", "flashback"),
            M("Bruno", "end_scene"),
            M("Ana", "pass", take=0),
            M("Bruno", "room_flashback"),
        ]
        opts = {"options": {"finale_factor": 0, "start_tokens": 1}}
        assert error(moves, **opts) == ("insufficient_tokens", 5)

    def test_a_pass_at_the_cap_is_refused_unless_the_table_allows_it(self):
        # start_tokens 12 is above token_cap 10: a pass refills, so by default it is refused
        base = [M("Ana", "continue"), M("Ana", "end_scene")]
        assert error(base + [M("Bruno", "pass", take=0)], options={"start_tokens": 12}) == (
            "bad_argument",
            2,
        )
        assert error(base + [M("Bruno", "pass", take=0)], options={"start_tokens": 10}) == (
            "bad_argument",
            2,
        )
        # ... and no pass button is offered then
        state = play(base, options={"start_tokens": 10})
        assert "pass" not in {m["do"] for m in GAME.legal_moves(state, "Bruno")}
        # "allow" (the first version's reading): passing takes nothing, taking is refused
        allow = {"start_tokens": 12, "pass_at_cap": "allow"}
        state = play(base + [M("Bruno", "pass", take=0)], options=allow)
        assert state["turn"] == "Ana"
        assert error(base + [M("Bruno", "pass", take=1)], options=allow) == ("bad_argument", 2)
        # below the cap a pass may take up to one less than the cap
        state = play(base + [M("Bruno", "pass", take=0)], options={"start_tokens": 9})
        assert state["tokens"]["Bruno"] == 9
        # take more than the bank
        assert error(base + [M("Bruno", "pass", take=2)], options={"start_tokens": 5})[0] == (
            "bad_argument"
        )


class TestChallengeRules:
    def test_join_by_a_side_is_not_your_turn(self):
        assert error(CHALLENGE + [M("Ana", "join")]) == ("not_your_turn", 3)
        assert error(CHALLENGE + [M("Bruno", "join")]) == ("not_your_turn", 3)

    def test_join_twice_or_late(self):
        moves = CHALLENGE + [M("Caio", "join"), M("Caio", "join")]
        assert error(moves, ABC) == ("rule_violation", 4)
        moves = CHALLENGE + [M("Ana", "open"), M("Caio", "join")]
        assert error(moves, ABC) == ("rule_violation", 4)

    def test_join_with_no_tokens(self):
        # start_tokens 2: Caio spends both tokens on scenes, Ana spends hers on a scene and on
        # insisting in Bruno's scene; Bruno refuses.
        moves = [
            M("Ana", "continue"),
            M("Ana", "end_scene"),
            M("Bruno", "pass", take=0),
            M("Caio", "continue"),
            M("Caio", "end_scene"),
            M("Ana", "pass", take=0),
            M("Bruno", "pass", take=0),
            M("Caio", "continue"),
            M("Caio", "end_scene"),
            M("Ana", "pass", take=0),
            M("Bruno", "continue"),
            M("Ana", "insist"),
            M("Bruno", "refuse"),
        ]
        opts = {"options": {"start_tokens": 2}}
        state = play(moves, ABC, **opts)
        assert state["tokens"] == {"Ana": 0, "Bruno": 1, "Caio": 0}
        assert state["bank"] == 4 and state["pot"] == 1
        assert [m["do"] for m in GAME.legal_moves(state, "Caio")] == []
        assert error(moves + [M("Caio", "join")], ABC, **opts) == ("insufficient_tokens", 13)
        # after the first card, joining is refused for being late before being unaffordable
        late = moves + [M("Bruno", "open"), M("Caio", "join")]
        assert error(late, ABC, **opts) == ("rule_violation", 14)

    def test_stake_roles(self):
        assert error(CHALLENGE + [M("Caio", "stake")], ABC) == ("not_your_turn", 3)
        state = play(CHALLENGE + [M("Caio", "join"), M("Bruno", "stake")], ABC)
        assert state["pot"] == 2
        moves = CHALLENGE + [M("Ana", "open"), M("Ana", "stake")]
        assert error(moves) == ("rule_violation", 4)

    def test_open_and_guess_roles(self):
        assert error(CHALLENGE + [M("Bruno", "open")]) == ("not_your_turn", 3)
        assert error(CHALLENGE + [M("Bruno", "higher")]) == ("not_your_turn", 3)
        assert error(CHALLENGE + [M("Bruno", "quit")]) == ("not_your_turn", 3)
        assert error(CHALLENGE + [M("Ana", "higher")]) == ("rule_violation", 3)
        assert error(CHALLENGE + [M("Ana", "quit")]) == ("rule_violation", 3)
        moves = CHALLENGE + [M("Ana", "open"), M("Ana", "open")]
        assert error(moves) == ("rule_violation", 4)
        assert error(moves[:-1] + [M("Ana", "lower")]) == ("not_your_turn", 4)

    def test_physical_missing_card_is_bad_argument_first(self):
        phys = {"deck_mode": "physical"}
        # a second open without a card: the missing field comes before "already opened"
        moves = CHALLENGE + [M("Ana", "open", card="5S"), M("Ana", "open")]
        assert error(moves, **phys) == ("bad_argument", 4)
        # the narrator guessing before the first card, without a card
        assert error(CHALLENGE + [M("Ana", "higher")], **phys) == ("bad_argument", 3)
        assert error(CHALLENGE + [M("Ana", "higher", card="5S")], **phys) == (
            "rule_violation",
            3,
        )
        # a card that is not a string
        assert error(CHALLENGE + [M("Ana", "open", card=7)], **phys) == ("bad_argument", 3)

    def test_zero_tokens_on_a_go_can_only_quit(self):
        # start_tokens 2: Bruno insists (1 left), joins nothing; Ana opens; Bruno guesses
        # higher (0 left) and ties under tie_loses false: he must go again but cannot pay.
        moves = CHALLENGE + [M("Ana", "open"), M("Bruno", "higher")]
        opts = {
            "options": {"start_tokens": 2, "tie_loses": False},
            "deck": ["7H", "7S"],
        }
        state = play(moves, **opts)
        assert state["challenge"]["to_act"] == "Bruno"
        assert state["tokens"] == {"Ana": 0, "Bruno": 0}
        assert [m["do"] for m in GAME.legal_moves(state, "Bruno")] == ["quit"]
        assert error(moves + [M("Bruno", "lower")], **opts) == ("insufficient_tokens", 5)
        # the pot holds 3; quitting gives Bruno back half of his 2 bets: Ana takes the other 2
        state = play(moves + [M("Bruno", "quit")], **opts)
        assert state["tokens"] == {"Ana": 2, "Bruno": 1}
        assert state["last_challenge"] == {"winner": "Ana", "pot": 2, "drawn": ["7H", "7S"]}

    def test_virtual_named_card_and_stack(self):
        # in virtual mode a named card is used as is and leaves the stack alone
        moves = CHALLENGE + [M("Ana", "open", card="2S")]
        state = play(moves, deck=["KH", "QH"])
        assert state["challenge"]["reference"] == "2S"
        assert state["stack"] == ["KH", "QH"]
        # a stacked card already turned in this challenge is skipped
        moves = CHALLENGE + [M("Ana", "open", card="KH"), M("Bruno", "lower")]
        state = play(moves, deck=["KH", "QH"])
        assert state["challenge"]["drawn"] == ["KH", "QH"]
        assert state["stack"] == []

    def test_stack_spans_challenges_then_seeded(self):
        one = [M("Ana", "open"), M("Bruno", "quit")]
        two = [M("Bruno", "insist"), M("Ana", "refuse"), M("Ana", "open"), M("Bruno", "quit")]
        state = play(CHALLENGE + one + two, deck=["4C"], seed=5)
        assert state["last_challenge"]["drawn"] != ["4C"]
        rng = cards.Rng(cards.seed_state(5))
        assert state["last_challenge"]["drawn"] == [rng.choice(cards.standard_deck())]
        first = play(CHALLENGE + one, deck=["4C"], seed=5)
        assert first["last_challenge"]["drawn"] == ["4C"]

    def test_same_seed_same_cards_other_seed_other_state(self):
        moves = CHALLENGE + [M("Ana", "open"), M("Bruno", "higher")]
        a, b = play(moves, seed=99), play(moves, seed=99)
        assert a == b
        c = play(moves, seed=100)
        assert c["rng"] != a["rng"]

    def test_whole_deck_drawn(self):
        # A state built by hand: all 52 cards turned in this challenge. Drawing is refused
        # (rule_violation) and quitting is the only way on.
        state = copy.deepcopy(play(CHALLENGE + [M("Ana", "open")]))
        state["challenge"]["drawn"] = cards.standard_deck()
        with pytest.raises(IllegalMove) as exc:
            GAME.apply(state, M("Bruno", "higher"))
        assert exc.value.code == "rule_violation"
        assert [m["do"] for m in GAME.legal_moves(state, "Bruno")] == ["quit"]


def test_view_hides_future_draws():
    state = play(CHALLENGE + [M("Ana", "open")], deck=["5H", "6H"], seed=3)
    before = copy.deepcopy(state)
    for who in (None, "Ana", "Bruno"):
        seen = GAME.view(state, who)
        assert "rng" not in seen and "stack" not in seen
        assert seen["challenge"] == state["challenge"]
        assert seen["tokens"] == state["tokens"]
    assert state == before


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


# -- narrative() -----------------------------------------------------------------------------
def test_narrative_of_a_small_game():
    moves = [
        M("Ana", "continue", text="I wake up."),  # 0
        M("Bruno", "suggest", text="A knife on the floor."),  # 1
        M("Caio", "insist", text="The police break in."),  # 2
        M("Ana", "accept", text="They break in."),  # 3
        M("Ana", "end_scene", text="I run."),  # 4
        M("Bruno", "flashback", abilities=["surgery"], text="Med school."),  # 5
        M("Ana", "insist", text="You failed the exam."),  # 6
        M("Bruno", "refuse"),  # 7
        M("Bruno", "stake", text="I graduated."),  # 8
        M("Ana", "stake", text="I failed."),  # 9
        M("Caio", "join", text="I was expelled."),  # 10
        M("Bruno", "open"),  # 11 8H
        M("Caio", "higher"),  # 12 QS hit
        M("Ana", "lower"),  # 13 2D hit
        M("Bruno", "lower"),  # 14 2C tie: miss
        M("Caio", "higher"),  # 15 5H hit
        M("Ana", "quit"),  # 16 2 bets, 1 back
        M("Bruno", "end_scene"),  # 17
        M("Caio", "pass", take=0),  # 18
        M("Ana", "room_flashback", text="The room."),  # 19
        M("Ana", "end_scene"),  # 20
        M("Bruno", "pass", take=1, text="I wait."),  # 21
        M("Caio", "end_story", agreed=ABC, text="Fin."),  # 22
    ]
    scr = script(
        moves,
        ABC,
        options={"finale_factor": 0, "pass_at_cap": "allow"},
        deck=["8H", "QS", "2D", "2C", "5H"],
        seed=1,
    )
    code, final = replay_script(scr)
    assert code == 0, final
    assert final["last_challenge"]["winner"] == "Caio"
    assert final["last_challenge"]["pot"] == 6
    assert final["tokens"] == {"Ana": 8, "Bruno": 8, "Caio": 12}
    assert final["finished"] is True

    setup, parsed = parse_script(scr)
    entries = GAME.narrative(setup, parsed)
    assert [e["kind"] for e in entries] == ["scene", "flashback", "pass", "room", "pass", "end"]

    scene, flash, pass1, room, pass2, end = entries
    assert scene["number"] == 1 and scene["narrator"] == "Ana"
    assert scene["abilities"] == []
    assert scene["narration"] == [
        {"by": "Ana", "text": "I wake up.", "move": 0},
        {"by": "Ana", "text": "They break in.", "move": 3},
        {"by": "Ana", "text": "I run.", "move": 4},
    ]
    assert scene["suggestions"] == [
        {
            "by": "Bruno",
            "text": "A knife on the floor.",
            "paid": False,
            "outcome": "free",
            "move": 1,
        },
        {
            "by": "Caio",
            "text": "The police break in.",
            "paid": True,
            "outcome": "accepted",
            "move": 2,
        },
    ]
    assert scene["challenges"] == []
    assert scene["moves"] == [0, 1, 2, 3, 4]

    assert flash["number"] == 1 and flash["narrator"] == "Bruno"
    assert flash["abilities"] == ["surgery"]
    assert flash["narration"] == [{"by": "Bruno", "text": "Med school.", "move": 5}]
    assert flash["suggestions"] == [
        {"by": "Ana", "text": "You failed the exam.", "paid": True, "outcome": "refused", "move": 6}
    ]
    assert flash["moves"] == list(range(5, 18))
    (duel,) = flash["challenges"]
    assert duel["narrator"] == "Bruno" and duel["insister"] == "Ana"
    assert duel["suggestion"] == "You failed the exam."
    assert duel["stakes"] == [
        {"by": "Bruno", "text": "I graduated.", "move": 8},
        {"by": "Ana", "text": "I failed.", "move": 9},
    ]
    assert duel["joined"] == [{"by": "Caio", "text": "I was expelled.", "move": 10}]
    assert duel["reference"] == "8H"
    assert duel["cards"] == [
        {"by": "Bruno", "guess": "open", "card": "8H", "result": "reference"},
        {"by": "Caio", "guess": "higher", "card": "QS", "against": "8H", "result": "hit"},
        {"by": "Ana", "guess": "lower", "card": "2D", "against": "QS", "result": "hit"},
        {"by": "Bruno", "guess": "lower", "card": "2C", "against": "2D", "result": "miss"},
        {"by": "Caio", "guess": "higher", "card": "5H", "against": "2D", "result": "hit"},
    ]
    assert duel["quits"] == [{"by": "Ana", "refund": 1}]
    assert duel["winner"] == "Caio" and duel["pot"] == 6
    assert duel["moves"] == list(range(7, 17))

    assert pass1 == {"kind": "pass", "by": "Caio", "take": 0, "text": "", "moves": [18]}
    assert room["number"] == 1 and room["narrator"] == "Ana"
    assert room["narration"] == [{"by": "Ana", "text": "The room.", "move": 19}]
    assert room["moves"] == [19, 20]
    assert pass2 == {"kind": "pass", "by": "Bruno", "take": 1, "text": "I wait.", "moves": [21]}
    assert end == {"kind": "end", "agreed": ABC, "text": "Fin.", "moves": [22]}

    # an illegal move ends the readable story there
    assert GAME.narrative(setup, parsed[:5] + [M("Ana", "open")] + parsed[5:]) == entries[:1]


def test_narrative_tie_guess_again():
    moves = CHALLENGE + [M("Ana", "open"), M("Bruno", "higher"), M("Bruno", "higher")]
    scr = script(moves, options={"tie_loses": False}, deck=["9C", "9D", "JH"])
    setup, parsed = parse_script(scr)
    (scene,) = GAME.narrative(setup, parsed)
    results = [c["result"] for c in scene["challenges"][0]["cards"]]
    assert results == ["reference", "again", "hit"]
    assert scene["challenges"][0]["winner"] is None
