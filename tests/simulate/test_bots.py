"""The bots of every game: they play only legal moves, decide only from what their seat may
see, and the sensible one does better than the random one by a stated measure. Plus the
simulator's private apply path, proved equal to the referee's ``apply``.

Small seeded samples (long runs belong in bench/simulate.py)."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping
from functools import partial
from pathlib import Path

import pytest

from games import registry
from games.rules import IllegalMove, get_game
from games.rules.errors import BadScript
from games.rules.script import parse_script, replay_script
from games.simulate import figures as F
from games.simulate.bots import BadParam, check_params
from games.simulate.engine import Spec, apply_private, draw_below, play_game, run
from tests.simulate.specs import spec

GAMES = ("amnesia", "amnesia_stories", "contest")
SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


@pytest.mark.parametrize("game", GAMES)
def test_every_kit_has_a_random_and_a_sensible_bot_with_documented_params(game):
    kit = registry.kit(game)
    assert {"random", "sensible"} <= set(kit.bots)
    for cls in kit.bots.values():
        assert cls.__doc__ and len(cls.__doc__.split()) > 8  # the heuristic, in words
        for name, param in cls.params.items():
            assert param.help and param.min <= param.default <= param.max, name
    with pytest.raises(BadParam, match="Unknown parameter"):
        check_params(list(kit.bots.values()), {"no_such_param": 1})


@pytest.mark.parametrize("game", GAMES)
def test_every_bot_move_is_one_the_referee_accepts(game):
    """Seeded games of every bot against the other, each replayed from its script by the
    referee's own ``replay``: every move legal, every game over."""
    players, games = {"amnesia": (4, 8), "amnesia_stories": (4, 20), "contest": (3, 6)}[game]
    s = spec(game, ["random", "sensible"], players=players, games=games, seed=11, keep_scripts=20)
    for record in run(s).records:
        assert "stall" not in record
        code, state = replay_script(json.loads(json.dumps(record["script"])))
        assert code == 0, state
        assert state["finished"]
        assert len(record["script"]["moves"]) == record["moves"]


@pytest.mark.parametrize("game", GAMES)
def test_the_sensible_bots_play_legally_at_the_most_seats(game):
    """At the table's largest size too (the contest's sensible bot refused a challenge at
    eight players with a card nobody held): each game replayed by the referee, every move
    legal, every game over."""
    players = get_game(game).max_players
    # Every option at its default (the contest's full hands: its refusals come late in a game).
    s = spec(game, ["sensible"], players=players, games=2, seed=3, keep_scripts=2, options={})
    for record in run(s).records:
        assert "stall" not in record
        code, state = replay_script(json.loads(json.dumps(record["script"])))
        assert code == 0, state
        assert state["finished"]


def _golden(game: str):
    for path in sorted((SCRIPTS / game).glob("*.json")):
        try:
            setup, moves = parse_script(json.loads(path.read_text("utf-8")))
        except BadScript:
            continue
        yield path.name, setup, moves


@pytest.mark.parametrize("game", GAMES)
def test_apply_in_place_gives_the_states_and_errors_of_apply(game):
    """The simulation's fast path, one state changed in place move after move, over the
    golden scripts and seeded bot games: after every move the state ``apply`` gives (and
    the view of every seat ``view`` gives), and for an illegal move the same error (code and
    message). ``apply_private`` (a copy, then the in-place path) leaves its state alone."""
    referee = get_game(game)
    checked = 0
    scripts = list(_golden(game))
    s = spec(game, ["random", "sensible"], players=3, games=3, seed=5, keep_scripts=3)
    for record in run(s).records:
        setup, moves = parse_script(record["script"])
        scripts.append((f"game {record['index']}", setup, moves))
    for name, setup, moves in scripts:
        state = referee.initial_state(setup)
        live = referee.copy_state(state)
        for move in moves:
            try:
                expected = referee.apply(state, move)
            except IllegalMove as exc:
                for path in (apply_private, referee.apply_in_place):
                    with pytest.raises(IllegalMove) as got:
                        path(referee.copy_state(live), move)
                    assert (got.value.code, got.value.message) == (exc.code, exc.message), name
                break
            before = copy.deepcopy(state)
            assert apply_private(referee, state, move) == expected, name
            assert state == before, name  # the state it was given is untouched
            referee.apply_in_place(live, move)
            assert live == expected, (name, move)
            # ``is_active``, asked at every move, is ``active_players`` without the list.
            actives = [p for p in setup.players if referee.is_active(live, p)]
            assert actives == referee.active_players(live), name
            special = referee.view_special_keys()
            for seat in [*setup.players, None]:
                view = referee.view(expected, seat)
                assert referee.shared_view(live, seat) == view
                assert {key: referee.view_part(live, seat, key) for key in view} == view
                # The parts a bot reads lazily (each seat's record made when read, and kept):
                # the same, read once and read again.
                for key in view:
                    part = referee.view_part(live, seat, key, lazy=True)
                    for _again in range(2):
                        assert (dict(part) if isinstance(part, Mapping) else part) == view[key]
                # What the simulation's bots read straight from the live state.
                plain = [k for k in view if special is not None and k not in special]
                assert plain and all(live[k] == view[k] for k in plain)
            state = expected
            checked += 1
    assert checked > 60


@pytest.mark.parametrize("game", GAMES)
def test_the_fast_path_plays_the_same_games_as_apply(game):
    """The same seeded games played on one state in place (bots reading shared views, the
    figures reading traces) and with ``apply``'s copies (bots reading ``view``'s copies,
    the figures every state whole): the same records, figures and all."""
    s = spec(game, ["random", "sensible"], players=3, games=4, seed=8, keep_scripts=4)
    assert s.trace is not None
    fast = run(s).records
    slow = run(Spec(**{**s.__dict__, "fast": False})).records
    assert fast == slow


def _states(game: str, seed: int, players: int = 4):
    """Every state of a seeded game of sensible bots, with its setup."""
    s = spec(game, ["sensible"], players=players, games=1, seed=seed, keep_scripts=1)
    record = play_game(s, 0)
    setup, moves = parse_script(record["script"])
    referee = get_game(game)
    state = referee.initial_state(setup)
    out = [state]
    for move in moves:
        state = referee.apply(state, move)
        out.append(state)
    return setup, out


def _hide_differently(game: str, state: dict, seat: str) -> dict:
    """The same position with what ``seat`` cannot see changed: the deck's order and the
    generator, the other hands, the answers not judged yet."""
    other = copy.deepcopy(state)
    other["rng"] = (state["rng"] * 7 + 3) % (2**61)
    if game == "amnesia":
        other["stack"] = ["AS", "2C", "KH"]
    elif game == "amnesia_stories":
        other["_deck"] = list(reversed(state["_deck"]))
        for name, picks in other["_picks"].items():
            if name != seat:
                other["_picks"][name] = list(reversed(picks))
    else:
        other["deck"] = list(reversed(state["deck"] or []))
        hands = [p["hand"] for n, p in other["players"].items() if n != seat and p["hand"]]
        if len(hands) >= 2:  # the other players' hands swapped round
            for (_n, p), hand in zip(
                [(n, p) for n, p in other["players"].items() if n != seat and p["hand"]],
                hands[1:] + hands[:1],
                strict=True,
            ):
                p["hand"] = hand
                p["hand_count"] = len(hand)
    return other


@pytest.mark.parametrize("game", GAMES)
def test_a_bot_decides_only_from_what_its_seat_may_see(game):
    """Changing what a seat cannot see (deck order, the generator, other hands, answers not
    judged yet) changes none of its bot's choices: the same seed, the same move."""
    kit = registry.kit(game)
    referee = kit.referee
    setup, states = _states(game, seed=3, players=3)
    compared = 0
    for state in states[:: max(1, len(states) // 40)]:
        if state["finished"]:
            continue
        for i, seat in enumerate(setup.players):
            legal = referee.legal_moves(state, seat)
            if not legal:
                continue
            other = _hide_differently(game, state, seat)
            assert other != state
            assert referee.legal_moves(other, seat) == legal
            for name, cls in kit.bots.items():
                for may_wait in (True, False):
                    a = cls(None, 100 + i, seat).choose(referee.view(state, seat), legal, may_wait)
                    b = cls(None, 100 + i, seat).choose(
                        referee.view(other, seat), referee.legal_moves(other, seat), may_wait
                    )
                    assert a == b, (name, seat, state["phase"])
                    compared += 1
    assert compared > 40


# Each game's measure of doing better, with the fair share it must beat.
MEASURES = {
    # Amnesia has no winner: the share of the challenges won above what equal skill gives
    # (1/participants each), and the share of the tokens kept above the share of the seats.
    "amnesia": ("bot.sensible.challenge_edge", "bot.sensible.tokens_edge"),
    # Amnesia Stories and the contest: the share of the wins above the share of the seats.
    "amnesia_stories": ("bot.sensible.win_edge",),
    "contest": ("bot.sensible.win_edge",),
}


@pytest.mark.parametrize("game", GAMES)
def test_sensible_does_better_than_random(game):
    """Half the seats sensible, half random (each seat held by each in turn): the measure's
    95% interval lies wholly above the fair share (an edge of 0)."""
    players, games = (2, 12) if game == "contest" else (4, 16)
    s = spec(game, ["sensible", "random"], players=players, games=games, seed=2024)
    summary = F.summarize(run(s).records, 2024)
    for measure in MEASURES[game]:
        figure = summary[measure]
        assert figure["n"] >= 10
        assert figure["low"] > 0, (measure, figure)


def test_bot_parameters_change_the_play_and_are_checked():
    """A parameter is no hidden constant: the table's agreement moves the share of steps
    everyone matched; a value out of its range is refused with a sentence."""
    a = spec("amnesia_stories", ["sensible"], games=8, seed=9, params={"agreement": 1.0})
    b = spec("amnesia_stories", ["sensible"], games=8, seed=9, params={"agreement": 0.0})
    all_a = F.summarize(run(a).records, 9)["steps_all_matched"]["value"]
    all_b = F.summarize(run(b).records, 9)["steps_all_matched"]["value"]
    assert all_a > all_b
    kit = registry.kit("amnesia_stories")
    with pytest.raises(BadParam, match="between 0 and 1"):
        check_params([kit.bots["sensible"]], {"agreement": 1.5})


def test_the_tables_draw_is_randrange():
    """The table's draw of who is asked first: the numbers ``randrange`` gives, from the
    same generator, for every count of seats (and the same refusal of an empty table)."""
    for seed in range(20):
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in [1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 100] * 20:
            assert draw_below(ours, n) == theirs.randrange(n)
    with pytest.raises(ValueError):
        draw_below(random.Random(1), 0)


def test_the_bards_best_assignment_is_the_search_of_every_permutation():
    """Amnesia Stories' best assignment of steps to slots (found set by set of slots taken) is
    what trying every permutation finds, ties included (the first in permutation order), for
    every size the options allow; and at the largest (8 slots, 8 steps) it answers at once."""
    import itertools  # the oracle's only: the bots no longer try every permutation

    from games.amnesia_stories.bots import affinity, best_assignment

    def searched(story, slots, noise):
        numbers = sorted(int(k) for k in slots)
        rows = [[affinity(card, slots[str(n)]) + noise() for n in numbers] for card in story]
        best, best_score = None, None
        for perm in itertools.permutations(range(len(numbers)), len(story)):
            score = 0.0
            for row, j in zip(rows, perm, strict=True):
                score += row[j]
            if best_score is None or score > best_score:
                best, best_score = perm, score
        return [numbers[j] for j in best]

    rng = random.Random(11)
    cards = [f"x{i}" for i in range(40)]
    for trial in range(300):
        choices = rng.randint(2, 7)
        questions = rng.randint(1, choices)
        slots = {str(n): rng.choice(cards) for n in range(1, choices + 1)}
        if trial % 3 == 0:  # the same picture twice or more: sums that tie exactly
            slots = {n: slots["1"] for n in slots}
        story = rng.sample(cards, questions)
        seed = rng.random()
        spread = rng.choice([0.0, 0.1])
        one, two = (random.Random(seed).gauss for _ in range(2))
        assert best_assignment(story, slots, partial(one, 0, spread)) == (
            searched(story, slots, partial(two, 0, spread))
        ), (story, slots, spread)
    widest = {str(n): cards[n] for n in range(1, 9)}
    assert sorted(best_assignment(cards[10:18], widest, lambda: 0.0)) == list(range(1, 9))
