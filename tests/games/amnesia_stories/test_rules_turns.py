"""Amnesia Stories referee: a turn told, answered and judged: field errors and their precedence,
legal moves, the view that hides pending picks, the judging and its options, bad scripts, the
narrative."""

from __future__ import annotations

import json

import pytest

from games.amnesia_stories.area_texts import AREA_IDS
from games.amnesia_stories.rules import GAME
from games.amnesia_stories.rules.scoring import judge_step, judge_turn
from games.rules.errors import IllegalMove
from games.rules.script import parse_script, replay_script
from tests.games.amnesia_stories.states import PLAYERS, new_state, tell_first


@pytest.mark.parametrize(
    ("picks", "code"),
    [
        ([1, 2], "bad_argument"),
        ([1, 2, "3"], "bad_argument"),
        ([1, 2, True], "bad_argument"),
        ([0, 1, 2], "bad_argument"),
        ([1, 2, 6], "bad_argument"),
        (None, "bad_argument"),
        ([1, 1, 2], "rule_violation"),
    ],
)
def test_answer_field_errors(picks, code):
    state = tell_first(new_state())
    with pytest.raises(IllegalMove) as exc:
        GAME.apply(state, {"by": "Bruno", "do": "answer", "picks": picks})
    assert exc.value.code == code
    assert exc.value.message


def test_tell_errors_and_precedence():
    state = new_state()
    journey = state["journey"]
    cases = [
        ({"by": "Bruno", "story": "nope"}, "not_your_turn"),
        ({"by": "Ana", "story": journey[:2]}, "bad_argument"),
        ({"by": "Ana", "story": [journey[0], journey[0], journey[1]]}, "rule_violation"),
        ({"by": "Ana", "story": journey[:3], "text": 5}, "bad_argument"),
    ]
    for move, code in cases:
        with pytest.raises(IllegalMove) as exc:
            GAME.apply(state, {"do": "tell", **move})
        assert exc.value.code == code, move


def test_legal_moves_templates():
    state = new_state(options={"choices": 6, "questions": 4})
    assert GAME.legal_moves(state, "Ana") == [
        {"do": "tell", "journey": state["journey"], "questions": 4}
    ]
    assert GAME.legal_moves(state, "Bruno") == []
    assert GAME.legal_moves(state, "Zed") == []
    state = tell_first(state)
    answer = {"do": "answer", "choices": 6, "questions": 4}
    assert all(GAME.legal_moves(state, p) == [answer] for p in PLAYERS)
    state = GAME.apply(state, {"by": "Caio", "do": "answer", "picks": [1, 2, 3, 4]})
    assert GAME.legal_moves(state, "Caio") == []
    assert GAME.legal_moves(state, "Ana") == [answer]


def test_view_hides_pending_picks_and_deck():
    state = tell_first(new_state())
    state = GAME.apply(state, {"by": "Bruno", "do": "answer", "picks": [5, 4, 3]})
    state = GAME.apply(state, {"by": "Ana", "do": "answer", "picks": [1, 2, 3]})
    assert GAME.view(state, "Bruno")["_picks"] == {"Bruno": [5, 4, 3]}
    assert GAME.view(state, "Caio")["_picks"] == {}
    for viewer in (None, "Zed"):
        seen = GAME.view(state, viewer)
        assert seen["_picks"] == {}
        assert "_deck" not in seen and "rng" not in seen
        assert seen["answered"] == ["Bruno", "Ana"]
    # the view is a copy
    GAME.view(state, "Bruno")["_picks"]["Bruno"].append(9)
    assert state["_picks"]["Bruno"] == [5, 4, 3]


def test_judge_turn_rules():
    opts = {
        "audience_points": 1,
        "bard_points": 2,
        "set_bonus": 2,
        "red_card_on_all_wrong": True,
    }
    gains, reds = judge_turn(opts, "B", {"B": [1, 2, 3], "X": [1, 3, 2], "Y": [4, 5, 1]})
    # step 1: X matches (some) -> B +2; step 2, 3: nobody -> 2 red cards; X set bonus.
    assert gains == {"B": 2, "X": 3, "Y": 0}
    assert reds == {"B": 2, "X": 0, "Y": 0}
    gains, reds = judge_turn(
        {**opts, "red_card_on_all_wrong": False}, "B", {"B": [1, 2], "X": [3, 4], "Y": [4, 3]}
    )
    assert gains == {"B": 0, "X": 0, "Y": 0} and reds == {"B": 0, "X": 0, "Y": 0}


def test_all_matched_option_pays_an_obvious_step_only_before_the_climax():
    opts = {"audience_points": 1, "bard_points": 2, "set_bonus": 0}
    opts["red_card_on_all_wrong"] = True
    everyone = {"B": [1, 2, 3], "X": [1, 2, 3], "Y": [1, 2, 3]}
    assert judge_turn(opts, "B", everyone)[0]["B"] == 0  # the default is draft 4's "zero"
    assert judge_turn({**opts, "all_matched": "zero"}, "B", everyone)[0]["B"] == 0
    draft3 = {**opts, "all_matched": "zero_at_climax"}
    gains, reds = judge_turn(draft3, "B", everyone)
    # steps 1 and 2 pay the bard; step 3, the climax, does not
    assert gains == {"B": 4, "X": 3, "Y": 3} and reds == {"B": 0, "X": 0, "Y": 0}
    step = {"B": 2, "X": 2, "Y": 2}
    assert judge_step(draft3, "B", step, climax=False) == (
        {"B": 2, "X": 1, "Y": 1},
        {"B": 0, "X": 0, "Y": 0},
        "all",
    )
    assert judge_step(draft3, "B", step, climax=True)[0]["B"] == 0
    # the other outcomes are the same under both values
    some = {"B": 2, "X": 2, "Y": 3}
    assert (
        judge_step(draft3, "B", some, climax=True)[:2]
        == judge_step(opts, "B", some, climax=True)[:2]
    )
    with pytest.raises(Exception, match="all_matched"):
        new_state(options={"all_matched": "always"})


def test_no_red_cards_option_and_starting_vp():
    state = new_state(
        options={"rounds": 1, "red_card_on_all_wrong": False, "starting_vp": 10},
        deck=list(AREA_IDS),
    )
    while not state["finished"]:
        state = tell_first(state)
        bard = state["bard"]
        for p in PLAYERS:
            picks = [1, 2, 3] if p == bard else [4, 5, 1]
            state = GAME.apply(state, {"by": p, "do": "answer", "picks": picks})
    assert state["red_cards"] == {p: 0 for p in PLAYERS}
    # nobody ever matched a step: every step would give a red card, but the option is off
    assert state["vp"] == {p: 10 for p in PLAYERS}
    assert state["winners"] == PLAYERS


@pytest.mark.parametrize(
    "script",
    [
        {"players": ["A", "B"]},
        {"players": ["A", "B", "C", "D", "E", "F", "G", "H", "I"]},
        {"options": {"choices": 9}},
        {"options": {"questions": 1}},
        {"options": {"choices": 3, "questions": 4}},
        {"options": {"red_card_on_all_wrong": 1}},
        {"options": {"surprise": 1}},
        # the deck holds fewer than 2 x choices cards: no first selection and journey
        {"options": {"choices": 8}, "area_ids": [f"c{i}" for i in range(15)]},
        {"area_ids": "A01"},
        {"area_ids": ["x", "x"] + [f"c{i}" for i in range(30)]},
        {"area_ids": [f"c{i}" for i in range(9)]},
        {"deck": ["A01", "A01"] + [f"A{i:02d}" for i in range(3, 30)]},
        {"deck": [f"A{i:02d}" for i in range(1, 10)]},
        {"deck": ["Z01"]},
        {"moves": [{"by": "Ana", "do": "tell", "story": ["A99", "A01", "A02"]}]},
        {"moves": ["tell"]},
    ],
)
def test_bad_scripts(script):
    full = {"game": "amnesia_stories", "players": PLAYERS, **script}
    code, out = replay_script(full)
    assert code == 2, out
    assert out["error"]["code"] == "bad_script"


def test_narrative():
    script = json.loads(
        open("tests/scripts/amnesia_stories/01_judging_branches.json", encoding="utf-8").read()
    )["script"]
    script["moves"] = script["moves"][:6]  # turn 2 told but not judged
    script["moves"][0]["at"] = "2025-01-01T20:00:00Z"
    stories = GAME.narrative(*parse_script(script))
    assert [s["bard"] for s in stories] == ["Ana", "Bruno"]
    first, second = stories
    assert first["story"] == ["A08", "A06", "A10"]
    assert [c["id"] for c in first["cards"]] == first["story"]
    assert all(c["texts"]["en"] and c["texts"]["pt"] and c["texts"]["ja"] for c in first["cards"])
    assert first["text"] == "The hero climbed, sailed, then got lost."
    assert first["at"] == "2025-01-01T20:00:00Z"
    assert first["judged"] is True
    assert first["picks"] == {"Ana": [2, 4, 1], "Bruno": [2, 1, 4], "Caio": [3, 4, 5]}
    assert first["gains"] == {"Ana": 4, "Bruno": 3, "Caio": 1}
    assert first["red_cards"] == {"Ana": 1, "Bruno": 0, "Caio": 0}
    assert first["turn"] == 1 and first["round"] == 1
    assert second["judged"] is False and second["picks"] is None
    assert second["selection"]["1"] == "A06"


def test_narrative_custom_texts():
    script = json.loads(
        open(
            "tests/scripts/amnesia_stories/05_custom_deck_five_players.json", encoding="utf-8"
        ).read()
    )["script"]
    setup, moves = parse_script(script)
    (story,) = GAME.narrative(setup, moves)
    assert story["bard"] == "Caio"
    assert story["text"] == "A mill, then a fox."
    assert [c["texts"] for c in story["cards"]] == [{}, {}]
    script["moves"][0]["story"] = ["S16", "S15"]  # not in the journey: the story is never told
    assert GAME.narrative(*parse_script(script)) == []
