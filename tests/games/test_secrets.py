"""Secrets hidden by default (games.rules.base.Game.view, like boardgame.io's STRIP_SECRETS):
the framework's (the deck, the generator's state) and the game's own (``secret_keys``,
``private``); and the game contract's check (games/checks/) refusing a view that shows them."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from games import checks, registry
from games.checks.secrets import SECRET_IDS
from games.rules import cards
from games.rules.setup import Setup
from tests.games.toy.rules import Toy


class Dealt(Toy):
    """The toy with a shuffled deck, the generator's state and two cards in each hand."""

    private = ("hands.*",)

    def setup_state(self, setup: Setup) -> dict:
        state = super().setup_state(setup)
        rng = cards.Rng(cards.seed_state(setup.seed))
        deck = rng.shuffle([f"c{i}" for i in range(12)])
        hands = {p: [deck.pop(), deck.pop()] for p in setup.players}
        state.update(deck=deck, rng=rng.state, hands=hands, mats={p: {} for p in setup.players})
        return state


class ShowsTheDeck(Dealt):
    def view(self, state, player):
        return copy.deepcopy(state)


class ShowsTheDeckUnderAnotherName(Dealt):
    def view(self, state, player):
        seen = super().view(state, player)
        seen["draw_pile"] = list(state["deck"])
        return seen


class ShowsTheHands(Dealt):
    def view(self, state, player):
        seen = super().view(state, player)
        seen["hands"] = copy.deepcopy(state["hands"])
        return seen


class HandsInTheRecords(Dealt):
    """Each player's hand kept in their record, and not declared private."""

    private = ()

    def setup_state(self, setup: Setup) -> dict:
        state = super().setup_state(setup)
        state["players"] = {p: {"hand": hand} for p, hand in state.pop("hands").items()}
        return state


def play(referee) -> tuple[dict, dict]:
    setup = Setup(game="toy", players=["Ana", "Bruno"], start="Ana", options={}, seed=4)
    setup.options = {name: option.default for name, option in referee.options.items()}
    state = referee.initial_state(setup)
    return state, referee.apply(state, {"by": "Ana", "do": "say"})


def test_the_base_view_hides_the_deck_the_generator_and_other_hands():
    _, state = play(Dealt())
    assert state["deck"] and state["rng"] and state["hands"]["Bruno"]
    spectator = Dealt().view(state, None)
    assert "deck" not in spectator and "rng" not in spectator
    assert spectator["hands"] == {}
    ana = Dealt().view(state, "Ana")
    assert ana["hands"] == {"Ana": state["hands"]["Ana"]}
    assert ana["lines"] == 1 and ana["turn"] == "Bruno"
    # The view is a copy: changing it changes nothing of the state.
    ana["hands"]["Ana"].append("c99")
    assert "c99" not in state["hands"]["Ana"]


def test_a_field_in_each_record_is_blanked_for_the_others():
    referee = HandsInTheRecords()
    referee.private = ("players.*.hand",)
    _, state = play(referee)
    seen = referee.view(state, "Bruno")
    assert seen["players"]["Ana"] == {"hand": None}
    assert seen["players"]["Bruno"] == state["players"]["Bruno"]
    assert referee.view(state, None)["players"] == {"Ana": {"hand": None}, "Bruno": {"hand": None}}


def test_a_game_opts_out_explicitly():
    class FaceUp(Dealt):
        public_keys = ("deck",)

    _, state = play(FaceUp())
    seen = FaceUp().view(state, None)
    assert seen["deck"] == state["deck"] and "rng" not in seen


def test_every_registered_game_hides_its_secrets():
    """Each game's own view keeps what it shows today (tests/games/<slug>/test_view.py); here,
    that none overrides view to show more, which the check would refuse."""
    for kit in registry.kits():
        messages = [m for m in checks.check_kit(kit) if m.id in SECRET_IDS]
        assert messages == [], kit.slug


def check(toy_game, referee) -> list:
    return checks.check_kit(dataclasses.replace(toy_game, referee=referee))


def test_the_check_passes_a_game_that_keeps_its_secrets(toy_game):
    assert check(toy_game, Dealt()) == []


def test_the_check_catches_a_view_that_shows_the_deck(toy_game):
    messages = check(toy_game, ShowsTheDeck())
    assert {m.id for m in messages} == {"games.E020", "games.E021"}
    deck = next(m for m in messages if "'deck'" in m.msg)
    assert deck.id == "games.E020"
    assert "view(state, None) shows a spectator the state's 'deck'" in deck.msg
    assert "in the demo 'Toy: a finished game' after 0 move(s)" in deck.msg
    assert any("'rng'" in m.msg for m in messages if m.id == "games.E020")


def test_the_check_catches_the_deck_under_another_name(toy_game):
    [message] = check(toy_game, ShowsTheDeckUnderAnotherName())
    assert message.id == "games.E020" and "'deck'" in message.msg


def test_the_check_catches_a_view_that_shows_another_players_hand(toy_game):
    [message] = check(toy_game, ShowsTheHands())
    assert message.id == "games.E021"
    assert "view(state, None) shows a spectator 'Ana''s secret 'hands.*'" in message.msg
    assert "private" in message.hint


class CardsShownToAll(Dealt):
    """Each player's hand under a name no guess would take for a hand (``cards``), declared
    ``private`` by path; and a view that shows them all the same."""

    private = ("players.*.cards",)

    def setup_state(self, setup: Setup) -> dict:
        state = super().setup_state(setup)
        state["players"] = {p: {"cards": hand} for p, hand in state.pop("hands").items()}
        return state

    def view(self, state, player):
        seen = super().view(state, player)
        seen["players"] = copy.deepcopy(state["players"])
        return seen


def test_a_hand_is_what_the_referee_declares_whatever_its_key(toy_game):
    """The check guesses nothing from a key's name (it once knew only "hand" and "hands"):
    a hand kept as ``cards`` and declared by path is held to its path."""
    [message] = check(toy_game, CardsShownToAll())
    assert message.id == "games.E021" and "'players.*.cards'" in message.msg
    # Not declared, the same state is public: no message guesses otherwise.
    assert check(toy_game, HandsInTheRecords()) == []


@pytest.mark.parametrize("slug", [kit.slug for kit in registry.kits()])
def test_the_check_plays_the_kits_own_demos(slug, monkeypatch):
    """The check looks at the views of the kit's demo tables: a game whose view showed
    everything would be refused (here, its view swapped for the whole state)."""
    kit = registry.kit(slug)
    referee = copy.copy(kit.referee)
    monkeypatch.setattr(referee, "view", lambda state, player: copy.deepcopy(state))
    leaks = [m for m in checks.check_kit(dataclasses.replace(kit, referee=referee))]
    assert leaks and all(m.id in SECRET_IDS for m in leaks)
