"""Amnesia referee: the challenge's tricky rulings, and a view that hides the future draws."""

from __future__ import annotations

import copy

import pytest

from games.amnesia.rules import GAME
from games.rules import cards
from games.rules.errors import IllegalMove
from tests.games.amnesia.scripts import ABC, CHALLENGE, M, error, play


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
