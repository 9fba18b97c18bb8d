"""Amnesia Stories referee, properties over random games: every game scores by the rules and
hides its picks."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from games.amnesia_stories.rules import GAME
from games.rules.script import parse_script, replay
from tests.games.amnesia_stories.states import new_state

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
