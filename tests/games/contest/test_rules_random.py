"""Contest referee, properties over random games: every card kept, long games ending with one
winner, a replay keeping its states, a snapshot a deep copy of its parts."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.contest.rules import GAME
from games.rules.script import parse_script, replay, replay_script
from tests.games.contest.random_games import OPTION_SETS, play_random


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
