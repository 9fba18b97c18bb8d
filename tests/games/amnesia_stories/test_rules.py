"""Amnesia Stories referee: unit tests and properties over random games."""

from __future__ import annotations

import inspect
import json
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.amnesia_stories.area_texts import AREA_IDS
from games.amnesia_stories.rules import GAME
from games.amnesia_stories.rules.scoring import judge_step, judge_turn
from games.rules import get_game
from games.rules.base import IllegalMove
from games.rules.script import parse_script, replay, replay_script

PLAYERS = ["Ana", "Bruno", "Caio"]


def new_state(**script):
    base = {"game": "amnesia_stories", "players": PLAYERS, "seed": 1}
    base.update(script)
    setup, _ = parse_script(base)
    return GAME.initial_state(setup)


def play(state, *moves):
    for move in moves:
        state = GAME.apply(state, move)
    return state


def tell_first(state):
    q = state["options"]["questions"]
    return GAME.apply(
        state, {"by": state["bard"], "do": "tell", "story": state["journey"][:q], "text": "x"}
    )


def test_registered_and_pure():
    assert get_game("amnesia_stories") is GAME
    assert GAME.card_fields == ("story", "slots", "journey")
    src = inspect.getsource(sys.modules[GAME.__class__.__module__])
    assert "django" not in src.lower()
    assert "import random" not in src


def test_initial_state_deals_slots_then_journey():
    state = new_state(deck=list(AREA_IDS))
    assert state["phase"] == "tell"
    assert state["bard"] == "Ana"
    assert state["selection"] == {str(i): f"A{i:02d}" for i in range(1, 6)}
    assert state["journey"] == [f"A{i:02d}" for i in range(6, 11)]
    assert state["deck_count"] == 38
    assert state["turns"] == 6
    assert json.loads(json.dumps(state)) == state


def test_seeded_shuffle_is_deterministic_and_seed_dependent():
    a, b, c = new_state(seed=5), new_state(seed=5), new_state(seed=6)
    assert a == b
    assert a["journey"] != c["journey"] or a["selection"] != c["selection"]
    cards = list(a["selection"].values()) + a["journey"] + a["_deck"]
    assert sorted(cards) == sorted(AREA_IDS)


def test_start_player_and_clockwise_bards():
    state = new_state(start="Bruno", options={"rounds": 1})
    bards = []
    while not state["finished"]:
        bards.append(state["bard"])
        state = tell_first(state)
        for p in PLAYERS:
            state = GAME.apply(state, {"by": p, "do": "answer", "picks": [1, 2, 3]})
    assert bards == ["Bruno", "Caio", "Ana"]


def test_next_turn_moves_journey_to_slots_and_discards_selection():
    state = new_state(deck=list(AREA_IDS))
    first_selection = list(state["selection"].values())
    journey = list(state["journey"])
    state = tell_first(state)
    for p in PLAYERS:
        state = GAME.apply(state, {"by": p, "do": "answer", "picks": [3, 4, 5]})
    assert list(state["selection"].values()) == journey
    assert state["discard"] == first_selection
    assert state["journey"] == [f"A{i:02d}" for i in range(11, 16)]
    assert state["story"] == [] and state["answered"] == []


def test_apply_does_not_mutate():
    state = new_state()
    before = json.dumps(state, sort_keys=True)
    tell_first(state)
    assert json.dumps(state, sort_keys=True) == before


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


def test_legal_moves_physical_deal():
    state = new_state(deck_mode="physical", options={"choices": 3, "questions": 2})
    assert state["phase"] == "deal"
    assert GAME.legal_moves(state, "Ana") == [{"do": "deal", "journey": 3, "slots": 3}]
    assert GAME.legal_moves(state, "Bruno") == []
    state = play(
        state,
        {
            "by": "Ana",
            "do": "deal",
            "slots": ["A01", "A02", "A03"],
            "journey": ["A04", "A05", "A06"],
        },
        {"by": "Ana", "do": "tell", "story": ["A04", "A05"]},
        *({"by": p, "do": "answer", "picks": [1, 2]} for p in PLAYERS),
    )
    assert state["phase"] == "deal" and state["bard"] == "Bruno"
    assert GAME.legal_moves(state, "Bruno") == [{"do": "deal", "journey": 3}]
    # Naming the slots again is allowed only if they are the previous journey, in order.
    with pytest.raises(IllegalMove) as exc:
        GAME.apply(
            state,
            {
                "by": "Bruno",
                "do": "deal",
                "slots": ["A06", "A05", "A04"],
                "journey": ["A07", "A08", "A09"],
            },
        )
    assert exc.value.code == "rule_violation"
    ok = GAME.apply(
        state,
        {
            "by": "Bruno",
            "do": "deal",
            "slots": ["A04", "A05", "A06"],
            "journey": ["A07", "A08", "A09"],
        },
    )
    assert ok["selection"] == {"1": "A04", "2": "A05", "3": "A06"}


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


def test_a_physical_table_refills_its_deck_from_the_discard():
    ids = [f"c{i}" for i in range(1, 7)]  # 2 x 3 choices: the smallest deck
    state = new_state(
        area_ids=ids, deck_mode="physical", options={"choices": 3, "questions": 2, "rounds": 1}
    )
    state = GAME.apply(state, {"by": "Ana", "do": "deal", "slots": ids[:3], "journey": ids[3:]})
    state = tell_first(state)
    for p in PLAYERS:
        state = GAME.apply(state, {"by": p, "do": "answer", "picks": [1, 2]})
    assert state["phase"] == "deal" and state["deck_count"] == 0
    # a card now in the slots (the previous journey) cannot come back
    with pytest.raises(IllegalMove) as info:
        GAME.apply(state, {"by": "Bruno", "do": "deal", "journey": ["c1", "c2", "c4"]})
    assert info.value.code == "rule_violation"
    # the old selection, shuffled by the table, is the new journey
    state = GAME.apply(state, {"by": "Bruno", "do": "deal", "journey": ["c3", "c1", "c2"]})
    assert state["journey"] == ["c3", "c1", "c2"]
    assert state["selection"] == {"1": "c4", "2": "c5", "3": "c6"}
    assert (state["discard"], state["deck_count"]) == ([], 0)


def test_a_seeded_refill_replays_exactly_and_uses_the_states_generator():
    script = {
        "options": {"choices": 3, "questions": 2, "rounds": 2},
        "area_ids": [f"c{i}" for i in range(1, 8)],
    }
    state = new_state(**script)
    rngs = [state["rng"]]
    while not state["finished"]:
        state = tell_first(state)
        for p in PLAYERS:
            state = GAME.apply(state, {"by": p, "do": "answer", "picks": [1, 2]})
        rngs.append(state["rng"])
        cards = [*state["selection"].values(), *state["journey"], *state["discard"]]
        assert len(set(cards)) == len(cards) == 7 - state["deck_count"]
    assert len(set(rngs)) > 1  # the refills drew from the state's own generator
    again = new_state(**script)
    while not again["finished"]:
        again = tell_first(again)
        for p in PLAYERS:
            again = GAME.apply(again, {"by": p, "do": "answer", "picks": [1, 2]})
    assert again == state


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


def test_custom_deck_is_shuffled_from_its_ids():
    ids = [f"card-{i}" for i in range(40)]
    state = new_state(
        area_ids=ids,
        players=["A", "B", "C", "D", "E", "F"],
        options={"choices": 3, "questions": 2, "rounds": 1},
    )
    shown = list(state["selection"].values()) + state["journey"] + state["_deck"]
    assert sorted(shown) == sorted(ids)
    assert GAME.is_card(
        "card-3", parse_script({"game": "amnesia_stories", "players": PLAYERS, "area_ids": ids})[0]
    )


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


# -- properties over random games -------------------------------------------------------


def expected_turn(options, bard, picks):
    """The judging rules, written out again independently of the referee."""
    gains = dict.fromkeys(picks, 0)
    red = 0
    others = sorted(set(picks) - {bard})
    for i in range(len(picks[bard])):
        hits = sum(picks[p][i] == picks[bard][i] for p in others)
        for p in others:
            if picks[p][i] == picks[bard][i]:
                gains[p] += options["audience_points"]
        if hits == len(others):
            last = i == len(picks[bard]) - 1
            if options["all_matched"] == "zero_at_climax" and not last:
                gains[bard] += options["bard_points"]
        elif hits:
            gains[bard] += options["bard_points"]
        elif options["red_card_on_all_wrong"]:
            red += 1
    for p in others:
        if sorted(picks[p]) == sorted(picks[bard]):
            gains[p] += options["set_bonus"]
    return gains, red


@st.composite
def games(draw):
    # the deck refills from the discard: more players than the 48 cards would last for
    n = draw(st.integers(3, 6))
    players = ["Ana", "Bruno", "Caio", "Duda", "Edu", "Fia"][:n]
    choices = draw(st.integers(3, 5))
    questions = draw(st.integers(2, choices))
    options = {
        "choices": choices,
        "questions": questions,
        "rounds": draw(st.integers(1, 2)),
        "bard_points": draw(st.integers(0, 3)),
        "audience_points": draw(st.integers(0, 3)),
        "set_bonus": draw(st.integers(0, 3)),
        "red_card_on_all_wrong": draw(st.booleans()),
        "starting_vp": draw(st.integers(-2, 2)),
        "all_matched": draw(st.sampled_from(["zero", "zero_at_climax"])),
    }
    seed = draw(st.integers(0, 2**32))
    turns = options["rounds"] * n
    # the picks of each player on each turn (permutations keep them distinct) and answer order
    numbers = list(range(1, choices + 1))
    plan = []
    for _ in range(turns):
        picks = {p: draw(st.permutations(numbers))[:questions] for p in players}
        order = draw(st.permutations(players))
        story_at = draw(st.permutations(list(range(choices))))[:questions]
        plan.append((picks, order, story_at))
    start = draw(st.sampled_from(players))
    return {"players": players, "options": options, "seed": seed, "start": start}, plan


@given(games())
def test_random_games_score_by_the_rules_and_hide_picks(game):
    script, plan = game
    options = script["options"]
    players = script["players"]
    state = new_state(**script)
    moves = []
    expected_vp = dict.fromkeys(players, options["starting_vp"])
    expected_red = dict.fromkeys(players, 0)
    for picks, order, story_at in plan:
        bard = state["bard"]
        tell = {"by": bard, "do": "tell", "story": [state["journey"][i] for i in story_at]}
        state = GAME.apply(state, tell)
        moves.append(tell)
        for k, p in enumerate(order):
            move = {"by": p, "do": "answer", "picks": list(picks[p])}
            state = GAME.apply(state, move)
            moves.append(move)
            if k < len(order) - 1:
                for viewer in [*players, None]:
                    seen = GAME.view(state, viewer)
                    assert set(seen["_picks"]) <= {viewer}
                    assert "_deck" not in seen
                    seen.pop("last_turn")
                    seen.pop("history")
                    text = json.dumps(seen)
                    for other in players:
                        if other != viewer:
                            assert json.dumps({other: list(picks[other])})[1:-1] not in text
        gains, red = expected_turn(options, bard, picks)
        assert state["last_turn"]["gains"] == gains
        assert state["last_turn"]["red_cards"][bard] == red
        for p in players:
            expected_vp[p] += gains[p]
        expected_red[bard] += red
    assert state["finished"] and state["phase"] == "ended"
    assert state["red_cards"] == expected_red
    worst = max(expected_red.values())
    for p in players:
        if worst and expected_red[p] == worst:
            expected_vp[p] -= worst
    assert state["vp"] == expected_vp
    best = max(expected_vp.values())
    assert state["winners"] == [p for p in players if expected_vp[p] == best]
    # sum of all gains equals the VP movement before the penalty
    total_gain = sum(sum(t["gains"].values()) for t in state["history"])
    assert (
        total_gain
        == sum(state["vp"].values())
        + sum(state["penalty"].values())
        - len(players) * options["starting_vp"]
    )
    # no card is in two places
    cards = list(state["selection"].values()) + state["journey"] + state["discard"] + state["_deck"]
    assert len(cards) == len(set(cards)) == 48
    # the game replays exactly from its script
    setup, _ = parse_script({"game": "amnesia_stories", **script})
    assert replay(setup, moves).state == state
    assert len(GAME.narrative(setup, moves)) == len(plan)
