"""Contest: the moves a player may make now, as templates for the web page.

Each template is ``{"do": verb, ...fixed fields, "choices": {field: [legal values]}}``.
``choices`` (left out when empty) lists, for the fields a button can fill, the values that
make the move legal now; any combination of them is legal. Free fields (the contest's
description, a character's attributes, the voters' lists, physical card names) are for the
player to fill. Each candidate (``candidates``) is judged by ``allowed``, which asks what the
move's handler would ask (whose turn, which option, which cards in hand, whether the penalties
can be paid) without applying it: a page asks for every seat on every render, and a copy of the
state per candidate was most of a page's cost. The verbs a simulation meets at nearly every
step get their templates straight from the state (``offers``), without candidates.
``tests/games/contest/test_legal_moves.py`` holds this to what applying every candidate says,
over the golden scripts and seeded random games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.contest.rules.allowed import _FIELDS_FREE, _GATES, _fields_allowed
from games.contest.rules.candidates import _candidates
from games.contest.rules.core import ATTRIBUTES, State
from games.contest.rules.offers import (
    _OFFERS,
    Offer,
    PhaseOffers,
    Templates,
    _distinct,
    _offer_character,
    _offer_eat_pretzels,
)
from games.rules.base import Game

# For each verb, the fields listed in its template's choices.
CHOICE_FIELDS = {
    "challenge": ("target", "attribute"),
    "take_control": ("card", "reward"),
    "eat_pretzels": ("count",),
    "accept": ("attribute",),
    "refuse": ("penalty",),
    "forfeit": ("penalty",),
    "play": ("card",),
    "lose_card": ("card",),
    "swap_joker": ("card",),
    "heal": ("choice",),
    "vote_off": ("target",),
    "stay": ("penalty",),
}


def _judged_offer(verb: str, gate: Callable[[State, str], bool], judged: bool) -> Offer:
    """The offer of a verb without one of its own: its gate, then its candidates (each judged
    by ``_fields_allowed`` unless the verb is in ``_FIELDS_FREE``) gathered into templates."""

    def offer(state: State, player: str, out: Templates) -> None:
        if gate(state, player):
            out.extend(_judged_templates(state, player, verb, judged))

    return offer


# (the optional verbs turned on, virtual mode) -> (the game's moves, {phase: its offers}).
_OFFERS_IN: dict[tuple[bool, bool, bool, bool], tuple[dict[str, frozenset[str]], dict]] = {}
# The options and deck mode asked about last, the game's moves then, and their phases' offers:
# a game's options and deck mode never change, and a simulation asks with the same ones at
# every step, so their phases are found without reading them again. One tuple, replaced whole
# (a thread reads either the old one or the new one).
_LAST: tuple[Any, Any, Any, dict[str, PhaseOffers]] = (None, None, None, {})
# The verbs an option turns on: with it off, their gates always say no, so they are left out
# of the phase's list (the gates still ask).
_OPTION_VERBS = {"vote_off": "voting_off", "extra_point": "extra_points", "bribe": "extra_points"}


def _offers_in(game: Game, state: State) -> PhaseOffers:
    """The offers of the game's verbs the state's phase allows, in the game's order (worked
    out once per phase, options and deck mode: ``legal_moves`` runs for every seat at every
    step of a simulation)."""
    global _LAST
    options, mode, phase = state["options"], state["deck_mode"], state["phase"]
    virtual = mode == "virtual"
    plots = bool(options["plot_cards"])
    key = (bool(options["voting_off"]), bool(options["extra_points"]), plots, virtual)
    known = _OFFERS_IN.get(key)
    if known is None or known[0] is not game.moves:
        known = _OFFERS_IN[key] = (game.moves, {})
    by_phase = known[1]
    _LAST = (options, game.moves, mode, by_phase)
    known_offers = by_phase.get(phase)
    if known_offers is None:
        offers: list[Offer] = []
        for v, ps in game.moves.items():
            if phase not in ps or not options.get(_OPTION_VERBS.get(v, ""), True):
                continue
            if v == "character":
                offers.append(_offer_character)
                continue
            own, virtual_only = _OFFERS.get(v, (None, False))
            if v == "take_control" and plots:  # a plot card's rewards are judged
                own = None
            if own is not None and (virtual or not virtual_only):
                offers.append(own)
            else:
                offers.append(_judged_offer(v, _GATES[v], v not in _FIELDS_FREE))
        if _offer_eat_pretzels in offers:
            at = offers.index(_offer_eat_pretzels)
            known_offers = (offers[:at], True, offers[at + 1 :])
        else:
            known_offers = (offers, False, [])
        by_phase[phase] = known_offers
    return known_offers


def legal_moves(game: Game, state: State, player: str) -> list[dict[str, Any]]:
    # The players' records are the seats' (``player in state["seats"]``, without the scan).
    record = state["players"].get(player)
    if state["finished"] or record is None or record["out"]:
        return []
    # ``_offers_in``, its first look-up here (a call less for every seat asked at every step).
    last = _LAST
    offers = (
        last[3].get(state["phase"])
        if last[0] is state["options"] and last[1] is game.moves and last[2] == state["deck_mode"]
        else None
    )
    if offers is None:
        offers = _offers_in(game, state)
    before, eat, after = offers
    templates: list[dict[str, Any]] = []
    for offer in before:
        offer(state, player, templates)
    if eat and record["pretzels"] > 0:  # ``_offer_eat_pretzels``' first question
        _offer_eat_pretzels(state, player, templates)
    for offer in after:
        offer(state, player, templates)
    return templates


def _judged_templates(state: State, player: str, verb: str, judged: bool) -> Templates:
    """A verb's templates from its candidates (once its gate said yes): the fields a button
    fills, with their legal values (a physical card is named by the player, not chosen), one
    template per way of playing the verb ("with")."""
    legal = _candidates(state, player, verb)
    if judged:
        legal = [f for f in legal if _fields_allowed(state, player, verb, f)]
    if not legal:
        return []
    names = CHOICE_FIELDS.get(verb, ())
    if state["deck_mode"] != "virtual":
        names = tuple(n for n in names if n != "card")
    if verb != "take_control":  # one way of playing it: one template
        one: dict[str, Any] = {"do": verb}
        for field in names:
            found = _distinct([fields[field] for fields in legal if field in fields])
            if found:
                one.setdefault("choices", {})[field] = found
        if verb in ("challenge", "accept"):
            # The attribute never decides whether they are legal: any of the four.
            one["choices"]["attribute"] = list(ATTRIBUTES)
        return [one]
    templates: Templates = []
    groups: dict[Any, dict[str, Any]] = {}
    for fields in legal:
        key = fields.get("with")
        template = groups.get(key)
        if template is None:
            template = {"do": verb}
            if key is not None:
                template["with"] = key
            groups[key] = template
            templates.append(template)
        for field in names:
            if field in fields:
                values = template.setdefault("choices", {}).setdefault(field, [])
                if fields[field] not in values:
                    values.append(fields[field])
    return templates
