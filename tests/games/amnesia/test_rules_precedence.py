"""Amnesia referee: which error a move that breaks several rules gets (precedence)."""

from __future__ import annotations

from games.amnesia.rules import GAME
from tests.games.amnesia.scripts import AB, BROKE, M, error, play


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
