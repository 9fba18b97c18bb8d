"""Amnesia Stories referee: registered and pure, the deal (slots, then the journey), the seeded
shuffle, the bards in turn, the next turn, a physical deal and its deck refilled, a custom deck
shuffled from its ids."""

from __future__ import annotations

import inspect
import json
import sys

import pytest

from games.amnesia_stories.area_texts import AREA_IDS
from games.amnesia_stories.rules import GAME
from games.rules import get_game
from games.rules.errors import IllegalMove
from games.rules.script import parse_script
from tests.games.amnesia_stories.states import PLAYERS, new_state, play, tell_first


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
