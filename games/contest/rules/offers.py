"""Contest: templates built at once, straight from the state, for the verbs a simulation meets
at nearly every step (the fast path of ``moves.legal_moves``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.contest.rules.allowed import _is_voted, _pays
from games.contest.rules.candidates import _penalty_mixes
from games.contest.rules.core import ATTRIBUTES, FACE, State, hand_count
from games.contest.rules.flow import side

# The verbs a simulation meets at nearly every step get their templates straight from the state
# (what their candidates, judged one by one, would give), without a candidate to build and
# judge: a simulation asks for the legal moves of about two seats a move. Each is an offer:
# given the state, the player and the list of templates being built, it asks the verb's gate
# (``_GATES``: the same question, asked here without the call) and adds the verb's templates
# (none when there is no legal way to play it). One call per verb a phase allows, not a gate
# and a builder each, and no list per verb to add to the templates: the offers were most of
# ``legal_moves``' cost. ``tests/games/contest/test_legal_moves.py`` holds them to the oracle
# (every candidate applied) over the golden scripts and seeded games in both deck modes and
# with the optional rules.
Templates = list[dict[str, Any]]
Offer = Callable[[State, str, Templates], None]
# A phase's offers, in the game's order, split around eating pretzels (allowed in every phase
# and offered only to a player with pretzels: ``legal_moves`` asks that of the record it has
# read, without the call, for every seat at every step): (the offers before it, whether the
# phase allows it, the offers after it).
PhaseOffers = tuple[list[Offer], bool, list[Offer]]


def _offer_throw_pretzel(state: State, player: str, out: Templates) -> None:
    if player != state["controller"] and player not in state["throwers"]:
        out.append({"do": "throw_pretzel"})


def _offer_give_up(state: State, player: str, out: Templates) -> None:
    contest = state["contest"]  # ``_may_give_up``, without the call
    if (player == contest["challenger"] or player == contest["defender"]) and contest["extended"]:
        out.append({"do": "give_up"})


def _offer_drink(state: State, player: str, out: Templates) -> None:
    if player in state["owed"]:
        out.append({"do": "drink"})


def _offer_lose_card(state: State, player: str, out: Templates) -> None:
    """Virtual mode: the referee picks the card, so the bare verb."""
    if player in state["owed"] and hand_count(state, player) > 0:
        out.append({"do": "lose_card"})


def _offer_leave(state: State, player: str, out: Templates) -> None:
    if _is_voted(state, player):
        out.append({"do": "leave"})


def _offer_challenge(state: State, player: str, out: Templates) -> None:
    """Any other active player, with any attribute (it never decides whether it is legal)."""
    if player != state["controller"]:
        return
    players = state["players"]
    targets = [n for n in state["seats"] if n != player and not players[n]["out"]]
    if targets:
        out.append({"do": "challenge", "choices": {"target": targets, "attribute": [*ATTRIBUTES]}})


def _offer_accept(state: State, player: str, out: Templates) -> None:
    if player == state["contest"]["defender"]:
        out.append({"do": "accept", "choices": {"attribute": [*ATTRIBUTES]}})


def _offer_eat_pretzels(state: State, player: str, out: Templates) -> None:
    """Any count up to the pretzels they have, within what they may still eat: the counts
    ``k`` from 1 with ``k <= pretzels`` and ``eaten + k <= limit``."""
    p = state["players"][player]
    pretzels = p["pretzels"]
    if pretzels <= 0:
        return
    limit = state["options"]["eat_limit"]  # ``_eat_limit``, without the call
    if p["bfa"]:
        limit = max(6, limit)
    most = min(pretzels, limit - p["eaten"])
    if most >= 1:
        out.append({"do": "eat_pretzels", "choices": {"count": list(range(1, most + 1))}})


def _offer_take_control(state: State, player: str, out: Templates) -> None:
    """Virtual mode, without plot cards (``_offers_in`` asks): two drinks, or a face card in
    hand."""
    if player == state["controller"]:
        return
    out.append({"do": "take_control", "with": "drinks"})
    faces = [c for c in state["players"][player]["hand"] or [] if FACE[c]]
    if faces:
        out.append(
            {"do": "take_control", "with": "face_card", "choices": {"card": _distinct(faces)}}
        )


def _offer_play(state: State, player: str, out: Templates) -> None:
    """Virtual mode: any card in hand."""
    contest = state["contest"]  # ``_may_play``, without the call
    if (player != contest["challenger"] and player != contest["defender"]) or (
        player in contest["played"]
    ):
        return
    hand = state["players"][player]["hand"]
    if hand:
        out.append({"do": "play", "choices": {"card": list(dict.fromkeys(hand))}})


def _least_held(state: State, members: list[str]) -> int:
    """The fewest cards in hand on the side (0 for no one). A penalty of ``need`` cards
    or fewer each is paid for sure when every member holds as many: ``_pays`` says yes
    without its count (the forfeits and refusals offered at nearly every step of a
    simulated contest are judged by this alone)."""
    if not members:
        return 0
    return min([hand_count(state, name) for name in members])


def _offer_forfeit(state: State, player: str, out: Templates) -> None:
    """Virtual mode: a drink or a card, if the side can pay it (no card to name)."""
    contest = state["contest"]  # ``_may_forfeit``, without the call
    if player != contest["defender"] and (
        player != contest["challenger"] or state["phase"] == "response"
    ):
        return
    if state["phase"] == "contest" and (contest["extended"] or player in contest["played"]):
        return
    found = ["drink"]  # a drink asks for no card: always paid
    if not state["contest"].get("teams"):
        # The side is the player alone (in the game: ``legal_moves`` asked), who can pay a
        # card with one in hand (``_pays`` says no without one; in virtual mode the hand is
        # a list): the forfeit offered to each contestant at nearly every step of a
        # simulated contest, judged without the calls.
        if state["players"][player]["hand"]:
            found.append("card")
    else:
        members = side(state, player)
        if _least_held(state, members) >= 1 or _pays(state, members, ["card"]):
            found.append("card")
    out.append({"do": "forfeit", "choices": {"penalty": found}})


# The mixes of two penalties a refusal may pay, each with the cards it asks of each member.
_REFUSE_MIXES = tuple((tuple(mix), mix.count("card")) for mix in _penalty_mixes(2))


def _offer_refuse(state: State, player: str, out: Templates) -> None:
    """Virtual mode: the mixes of two penalties the side can pay (no card to name)."""
    contest = state["contest"]
    if player != contest["defender"]:
        return
    if contest.get("teams"):
        members = side(state, player)
        least = _least_held(state, members)
    else:
        # ``side``: the player alone, in the game (``legal_moves`` asked); the fewest cards
        # held, their hand's (a list in virtual mode): the refusal offered to the challenged
        # player at every step of a simulated answer, without the calls.
        members = [player]
        least = len(state["players"][player]["hand"])
    found = [
        list(mix)
        for mix, need in _REFUSE_MIXES
        if need <= least or _pays(state, members, list(mix))
    ]
    if found:
        out.append({"do": "refuse", "choices": {"penalty": found}})


# verb -> (its offer, whether only in virtual mode: the physical candidates name cards nobody
# has seen yet, judged one by one).
_OFFERS: dict[str, tuple[Offer, bool]] = {
    "throw_pretzel": (_offer_throw_pretzel, False),
    "give_up": (_offer_give_up, False),
    "drink": (_offer_drink, False),
    "leave": (_offer_leave, False),
    "challenge": (_offer_challenge, False),
    "accept": (_offer_accept, False),
    "eat_pretzels": (_offer_eat_pretzels, False),
    "lose_card": (_offer_lose_card, True),
    "take_control": (_offer_take_control, True),
    "play": (_offer_play, True),
    "forfeit": (_offer_forfeit, True),
    "refuse": (_offer_refuse, True),
}


def _offer_character(state: State, player: str, out: Templates) -> None:
    """No gate, no candidates: a player without a character makes one."""
    if state["players"][player]["character"] is None:
        out.append({"do": "character"})


def _distinct(values: list[Any]) -> list[Any]:
    """``values`` without repeats, in their order (a template's choices)."""
    if len(values) < 2:
        return values
    if not isinstance(values[0], list | dict):
        try:
            return list(dict.fromkeys(values))
        except TypeError:  # an unhashable value further on: compared one by one below
            pass
    found: list[Any] = []
    for value in values:
        if value not in found:
            found.append(value)
    return found
