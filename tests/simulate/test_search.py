"""The search bot (games/simulate/search.py), its sampler of hidden information
(games/simulate/sampler.py), the skill figures and restricted play (games/simulate/skill.py).

Tiny budgets and few games: the strength figures belong in ``bench/simulate.py --search``."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from functools import partial

import pytest

from games import registry
from games.simulate import figures as F
from games.simulate.engine import run, setup_for
from games.simulate.restrict import Restricted, parse
from games.simulate.sampler import sample
from games.simulate.skill import restricted, skill
from tests.simulate import specs

GAMES = ("amnesia", "amnesia_stories", "contest")
# Each record keeps what every seat plays for: the search bot's figures read it.
spec = partial(specs.spec, values=True)


def _contest_state():
    """A contest of 4 with every hand dealt and cards left in the deck."""
    s = spec("contest", ["sensible"], options={})
    referee = s.referee
    state = referee.initial_state(setup_for(s, 0))
    bots = {p: s.classes["sensible"](None, i, p) for i, p in enumerate(state["seats"])}
    while not all(p["hand"] for p in state["players"].values()):
        seat = next(p for p in state["seats"] if referee.legal_moves(state, p))
        move = bots[seat].choose(referee.view(state, seat), referee.legal_moves(state, seat))
        state = referee.apply(state, {"by": seat, **move})
    assert state["deck"]
    return referee, state


def test_a_sampled_world_shows_the_seat_the_real_view_and_hides_the_rest_uniformly():
    """Over many worlds sampled for P1: P1's view is always the real one; the generator is
    fresh; a card P1 cannot see lands in the deck or another hand in proportion to their
    sizes, and every unseen card is as likely as any other to be in P2's hand (chi-squared
    tests, their p-values above 1%)."""
    from scipy.stats import chisquare

    referee, state = _contest_state()
    real_view = referee.view(state, "P1")
    others = ("P2", "P3", "P4")
    places = {"deck": state["deck"], **{s: state["players"][s]["hand"] for s in others}}
    pool = sorted(c for cards in places.values() for c in cards)
    watched = state["players"]["P2"]["hand"][0]
    landed: Counter = Counter()
    in_p2: Counter = Counter()
    rng = random.Random(5)
    samples = 2_000
    for i in range(samples):
        world = sample(referee, state, "P1", rng)
        if i < 200:  # the view, compared whole (a copy each): a tenth of the samples
            assert referee.view(world, "P1") == real_view
        assert world["players"]["P1"]["hand"] == state["players"]["P1"]["hand"]
        assert world["rng"] != state["rng"]
        where = "deck" if watched in world["deck"] else None
        for s in others:
            hand = world["players"][s]["hand"]
            assert len(hand) == len(places[s])
            in_p2.update(hand if s == "P2" else ())
            if watched in hand:
                where = s
        landed[where] += 1
        assert (
            sorted(world["deck"] + [c for s in others for c in world["players"][s]["hand"]]) == pool
        )
    sizes = {k: len(v) for k, v in places.items()}
    total = sum(sizes.values())
    observed = [landed[k] for k in sizes]
    expected = [samples * sizes[k] / total for k in sizes]
    p_place = chisquare(observed, expected).pvalue
    assert p_place > 0.01, (observed, expected, p_place)
    counts = [in_p2[c] for c in sorted(set(pool))]
    p_cards = chisquare(counts).pvalue  # uniform over the unseen cards
    assert p_cards > 0.01, p_cards


def test_a_sampled_world_leaves_the_real_state_alone():
    referee, state = _contest_state()
    before = referee.copy_state(state)
    sample(referee, state, "P2", random.Random(1))
    assert state == before


@pytest.mark.parametrize("game", GAMES)
def test_the_search_bot_plays_every_game_to_its_end_by_legal_moves(game):
    """Every kit has a search bot (made from its referee and its bots), documented with its
    budget; at a tiny budget it plays a whole game beside sensible bots with no stall."""
    kit = registry.kit(game)
    cls = kit.bots["search"]
    assert cls.params["budget"].default >= 8 and cls.params["budget"].help
    # The contest runs to hundreds of moves: two players, one playout a decision.
    players, budget = (2, 1) if game == "contest" else (4, 2)
    s = spec(
        game,
        ["search", "sensible"],
        players=players,
        games=1,
        seed=3,
        params={"budget": budget, "depth": 6},
    )
    record = run(s).records[0]
    assert record["finished"] and "stall" not in record
    assert set(record["seat_values"]) == set(record["seat_bots"])


def test_the_search_bot_reads_no_state_it_is_not_given():
    """Given a plain view (no world to sample from), it plays as its playout bot does."""
    kit = registry.kit("amnesia_stories")
    referee = kit.referee
    s = spec("amnesia_stories", ["sensible"])
    state = referee.initial_state(setup_for(s, 0))
    seat = next(p for p in state["seats"] if referee.legal_moves(state, p))
    legal = referee.legal_moves(state, seat)
    view = referee.view(state, seat)
    ours = kit.bots["search"](None, 11, seat)
    move = ours.choose(view, legal, False)
    assert move is not None and move["do"] in {t["do"] for t in legal}
    assert ours.searched == 0  # no world sampled: nothing searched


def test_the_search_bot_beats_random_in_the_marker_game(marker_game):
    """A game where a move decides: the search bot wins every game that ends (a random
    seat that never errs at the middle square and a search bot that never errs draw on,
    so the games are capped short)."""
    s = dataclasses.replace(
        spec("marker", ["search", "random"], players=2, games=30, seed=4),
        value=None,
        params={"budget": 8, "depth": 12},
        move_cap=40,
    )
    figure = F.summarize(run(s).records, 4)["bot.search.win_edge"]
    assert figure["n"] >= 10 and figure["low"] > 0, figure


def test_a_game_of_pure_chance_shows_no_skill(chance_game):
    """Neither the search bot against sensible nor sensible against random does better
    than the table in a game where no choice matters: 0 lies within each interval."""
    s = dataclasses.replace(
        spec("chance", ["sensible"], players=3, games=60, seed=8),
        value=None,
        params={"budget": 4},
    )
    found = skill(s)
    for strong in ("search", "sensible"):
        assert found[strong]["verdict"] == "none", found[strong]
        assert found[strong]["low"] <= 0 <= found[strong]["high"]


def test_restricted_play_finds_an_inert_choice_and_a_dominant_line(chance_game):
    """In the game of chance, never calling high costs nothing: inert. Loaded (high adds 3
    to a roll), a seat that may never call high loses nearly every game: a dominant line,
    kept as a rule hole with the script of a game the others won."""
    base = dataclasses.replace(
        spec("chance", ["sensible"], players=3, games=60, seed=8), value=None
    )
    inert = restricted(base, parse("high"))
    assert inert["kind"] == "inert", inert
    loaded = dataclasses.replace(base, options={**base.options, "loaded": True})
    line = restricted(loaded, parse("high"), ruleset="loaded")
    assert line["kind"] == "dominant", line
    hole = line["holes"][0]
    assert hole["bot"] == "sensible" and hole["script"]["moves"]
    assert hole["restriction"] == {"verb": "high"}


def test_a_restriction_takes_a_value_out_of_a_templates_choices():
    rule = parse("take_control:with=drinks")
    assert rule == {"verb": "take_control", "field": "with", "value": "drinks"}

    class Echo:
        seat = "P1"

        def choose(self, view, legal, may_wait=False):
            return {"do": legal[0]["do"], "with": legal[0]["choices"]["with"][-1]}

    bot = Restricted(Echo(), rule)
    template = {"do": "take_control", "choices": {"with": ["KH", "drinks"]}}
    assert bot.choose({}, [template], True) == {"do": "take_control", "with": "KH"}
    only = {"do": "take_control", "choices": {"with": ["drinks"]}}
    assert bot.choose({}, [only], True) is None


def test_search_bards_tell_the_stories_the_scoring_rewards():
    """The bard's story follows the rules when bards search: a scoring that pays the bard
    well for a step read by some but not all gets more such steps than one that pays
    nothing for it, while sensible bards (clarity fixed) tell the same stories under both."""

    def stories_and_some(bots, bard_points):
        s = spec(
            "amnesia_stories",
            bots,
            players=3,
            games=12,
            seed=21,
            options={"bard_points": bard_points},
            params={"budget": 8},
            keep_scripts=12,
        )
        records = run(s).records
        tells = [[m["story"] for m in r["script"]["moves"] if m["do"] == "tell"] for r in records]
        return tells, F.summarize(records, 21)["steps_some_matched"]["value"]

    plain_none, _ = stories_and_some(["sensible"], 0)
    plain_rich, _ = stories_and_some(["sensible"], 10)
    assert plain_none == plain_rich
    told_none, some_none = stories_and_some(["search"], 0)
    told_rich, some_rich = stories_and_some(["search"], 10)
    assert told_none != told_rich
    assert some_rich > some_none + 0.05, (some_none, some_rich)
