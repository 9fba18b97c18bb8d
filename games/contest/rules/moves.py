"""Contest: the moves a player may make now, as templates for the web page.

Each template is ``{"do": verb, ...fixed fields, "choices": {field: [legal values]}}``.
``choices`` (left out when empty) lists, for the fields a button can fill, the values that
make the move legal now; any combination of them is legal. Free fields (the contest's
description, a character's attributes, the voters' lists, physical card names) are for the
player to fill. Each candidate is judged by ``_allowed``, which asks what the move's handler
would ask (whose turn, which option, which cards in hand, whether the penalties can be paid)
without applying it: a page asks for every seat on every render, and a copy of the state per
candidate was most of a page's cost. ``tests/games/contest/test_legal_moves.py`` holds this
to what applying every candidate says, over the golden scripts and seeded random games.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations_with_replacement
from typing import Any

from games.contest.rules.core import (
    ATTR_SUIT,
    ATTRIBUTES,
    active,
    card_suit,
    full_deck,
    hand_count,
    is_face,
    visible_cards,
)
from games.contest.rules.flow import side
from games.rules import cards as C
from games.rules.base import Game

State = dict[str, Any]

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


def _penalty_mixes(n: int) -> list[list[str]]:
    return [list(m) for m in combinations_with_replacement(("drink", "card"), n)]


def _unseen(state: State, n: int, avoid_suit: str | None = None) -> list[str]:
    seen = visible_cards(state)
    pool = [
        c
        for c in full_deck(state["options"])
        if c not in seen and c not in C.JOKERS and c not in C.TAROT_MAJOR
    ]
    if avoid_suit:
        pool = [c for c in pool if c[-1] != avoid_suit and not is_face(c)]
    return pool[:n]


def _candidates(state: State, player: str, verb: str) -> list[dict[str, Any]]:
    """Concrete moves to try (physical card names and free text are placeholders)."""
    if verb in _ONE_PLAIN:
        return [{}]
    p = state["players"][player]
    virtual = state["deck_mode"] == "virtual"
    hand = p["hand"] or []
    if verb == "play" and virtual:
        return [{"card": c} for c in hand]
    if verb == "lose_card" and virtual:
        return [{}]
    if verb == "challenge":
        # The attribute never decides whether a challenge is legal: try one, offer all.
        return [
            {"target": t, "contest": "a contest", "attribute": "brains"}
            for t in active(state)
            if t != player
        ]
    if verb == "take_control":
        out: list[dict[str, Any]] = [{"with": "drinks"}]
        faces = [c for c in hand if is_face(c)] if virtual else ["KS"]
        out += [{"with": "face_card", "card": c} for c in faces]
        if state["options"]["plot_cards"]:
            plots = [c for c in hand if c in C.TAROT_MAJOR] if virtual else ["M0"]
            out += [
                {"with": "plot_card", "card": c, "reward": r}
                for c in plots
                for r in (None, "card", "pretzels")
            ]
        return out
    if verb == "eat_pretzels":
        return [{"count": k} for k in range(1, p["pretzels"] + 1)]
    if verb == "accept":
        return [{"attribute": "brains"}]
    if verb in ("refuse", "stay"):
        n = 2 if verb == "refuse" else 3
        out = []
        for mix in _penalty_mixes(n):
            move: dict[str, Any] = {"penalty": mix}
            if not virtual:
                move["cards"] = _unseen(state, 24)[: mix.count("card") * _team_size(state, player)]
            out.append(move)
        return out
    if verb == "forfeit":
        out = [{"penalty": "drink"}, {"penalty": "card"}]
        if not virtual:
            out[1]["cards"] = _unseen(state, _team_size(state, player))
        return out
    if verb == "play":
        contest = state["contest"]
        attribute = contest["attributes"].get(player) if contest else None
        suit = ATTR_SUIT.get(attribute) if attribute else None
        return [{"card": c, "draws": []} for c in _unseen(state, 1, suit)]
    if verb == "lose_card":
        return [{"card": c} for c in _unseen(state, 1)]
    if verb == "swap_joker":
        return [{"card": c} for c in hand] if virtual else [{"card": "2S"}]
    if verb == "heal":
        return [{"choice": c} for c in ("pretzel", "card", "none")]
    others = [n for n in active(state) if n != player]
    if verb == "vote_off":
        return [
            {"target": t, "up": [n for n in others if n != t], "down": [], "pretzels": []}
            for t in others
        ]
    if verb == "extra_point":
        return [{"up": others, "down": []}]
    if verb == "bribe":
        return [{"accepted_by": others}]
    return [{}]


# The verbs whose one candidate is the bare verb.
_ONE_PLAIN = frozenset({"throw_pretzel", "give_up", "drink", "leave"})


def _team_size(state: State, player: str) -> int:
    contest = state["contest"]
    teams = contest.get("teams") if contest else None
    if not teams or player not in teams:
        return 1
    return len([m for m in teams[player] if not state["players"][m]["out"]])


# -- whether a candidate is legal, without applying it ------------------------------------------
# Each check asks what the verb's handler (``_do_<verb>``) asks of a candidate, in the state as
# it is: the candidates above already carry well-formed fields, names of active players, cards
# in the player's hand and, in physical mode, distinct cards nobody has seen. What is left is
# whose turn it is, the table's options, and whether a penalty the move pays asks a player for
# a card they do not hold.


def _pays(state: State, members: list[str], penalties: list[str]) -> bool:
    """Whether ``core.pay`` of ``penalties`` by each of ``members`` in turn (as refuse, forfeit
    and stay pay) asks no card of an empty hand: a lost card may put a player out, and the
    last one standing ends the game, after which nobody pays more."""
    need = penalties.count("card")
    for name in members:
        if need and hand_count(state, name) < need:
            break
    else:
        return True  # nobody can run out of cards to lose (the count below would agree)
    contest = state["contest"]
    aside = state["after_penalty"] == "round" and bool(contest) and bool(contest.get("extended"))
    limit = state["options"]["hand_size"]
    alive = len(active(state))
    finished = False
    out: set[str] = set()
    held = {name: hand_count(state, name) for name in members}
    lost = {name: len(state["players"][name]["lost"]) for name in members}
    for name in members:
        for penalty in penalties:
            if finished or name in out or state["players"][name]["out"]:
                break
            if penalty == "drink":
                continue
            if held[name] <= 0:
                return False  # core.lose_card: no card in hand to lose
            held[name] -= 1
            if not aside:
                lost[name] += 1
            if lost[name] >= limit:
                out.add(name)
                alive -= 1
                finished = alive == 1
    return True


def _cards_named(state: State, fields: dict[str, Any], count: int) -> bool:
    """Physical mode names the lost cards (``Checks._physical_cards``): as many as asked."""
    return state["deck_mode"] == "virtual" or len(fields.get("cards", [])) == count


def _allowed(state: State, player: str, verb: str, fields: dict[str, Any]) -> bool:
    """Whether ``{"by": player, "do": verb, **fields}`` is legal now (the player is active and
    the phase allows the verb: ``legal_moves`` checked that)."""
    return _verb_allowed(state, player, verb) and _fields_allowed(state, player, verb, fields)


def _may_forfeit(state: State, player: str) -> bool:
    contest = state["contest"]
    if player not in (contest["challenger"], contest["defender"]) or (
        state["phase"] == "response" and player != contest["defender"]
    ):
        return False
    return state["phase"] != "contest" or not (contest["extended"] or player in contest["played"])


def _may_play(state: State, player: str) -> bool:
    contest = state["contest"]
    return player in (contest["challenger"], contest["defender"]) and (
        player not in contest["played"]
    )


def _may_give_up(state: State, player: str) -> bool:
    contest = state["contest"]
    return player in (contest["challenger"], contest["defender"]) and bool(contest["extended"])


def _may_swap(state: State, player: str) -> bool:
    swap = state["swap"]
    return bool(swap) and player == swap["player"]


def _is_voted(state: State, player: str) -> bool:
    vote = state["vote"]
    return bool(vote) and player == vote["player"]


def _may_earn(state: State, player: str) -> bool:
    return (
        bool(state["options"]["extra_points"])
        and not (state["players"][player]["extra_point_earned"])
    )


# What a verb's handler asks before it reads the move's own fields: whose turn it is, the
# table's options, the contest's course (state, player) -> bool.
_GATES: dict[str, Callable[[State, str], bool]] = {
    "challenge": lambda state, player: player == state["controller"],
    "vote_off": lambda state, player: (
        player == state["controller"] and bool(state["options"]["voting_off"])
    ),
    "take_control": lambda state, player: player != state["controller"],
    "throw_pretzel": lambda state, player: (
        player != state["controller"] and player not in state["throwers"]
    ),
    "eat_pretzels": lambda state, player: state["players"][player]["pretzels"] > 0,
    "accept": lambda state, player: player == state["contest"]["defender"],
    "refuse": lambda state, player: player == state["contest"]["defender"],
    "forfeit": _may_forfeit,
    "play": _may_play,
    "give_up": _may_give_up,
    "drink": lambda state, player: player in state["owed"],
    "lose_card": lambda state, player: player in state["owed"] and hand_count(state, player) > 0,
    "swap_joker": _may_swap,
    "heal": lambda state, player: player == state["contest"]["winner"],
    "stay": _is_voted,
    "leave": _is_voted,
    "extra_point": _may_earn,
    "bribe": _may_earn,
}


def _verb_allowed(state: State, player: str, verb: str) -> bool:
    """What a verb's handler asks before it reads the move's own fields (``_GATES``):
    ``legal_moves`` asks it first, so a verb the player cannot play now costs no candidates."""
    gate = _GATES.get(verb)
    if gate is None:
        raise ValueError(f"no legality check for the contest's verb {verb!r}")
    return gate(state, player)


def _fields_allowed(state: State, player: str, verb: str, fields: dict[str, Any]) -> bool:
    """What a verb's handler asks of the move's own fields, once ``_verb_allowed`` said yes:
    a reward one can take, pretzels one can eat, penalties one can pay, a card one holds."""
    p = state["players"][player]
    if verb == "take_control":
        reward = fields.get("reward")
        return not (reward == "card" and not p["lost"]) and not (
            reward == "pretzels" and not p["pretzels"]
        )
    if verb == "eat_pretzels":
        return fields["count"] <= p["pretzels"] and p["eaten"] + fields["count"] <= _eat_limit(
            state, p
        )
    if verb == "refuse":
        members = side(state, player)
        penalties = fields["penalty"]
        return _cards_named(state, fields, penalties.count("card") * len(members)) and _pays(
            state, members, penalties
        )
    if verb == "forfeit":
        members = side(state, player)
        penalty = fields["penalty"]
        if not _cards_named(state, fields, len(members) if penalty == "card" else 0):
            return False
        return _pays(state, members, [penalty])
    if verb == "play":
        if state["deck_mode"] == "virtual":
            return fields["card"] in p["hand"]
        # Physical: a card in hand, not of the attribute's suit (its chain would need the
        # next cards drawn named, and the candidate names none).
        suit = ATTR_SUIT[state["contest"]["attributes"][player]]
        return hand_count(state, player) > 0 and card_suit(fields["card"]) != suit
    if verb == "heal":
        choice = fields["choice"]
        return not (choice == "pretzel" and not p["pretzels"]) and not (
            choice == "card" and not p["lost"]
        )
    if verb == "stay":
        penalties = fields["penalty"]
        return _cards_named(state, fields, penalties.count("card")) and _pays(
            state, [player], penalties
        )
    return True


# The verbs whose candidates, once the verb's gate said yes, are all legal as
# ``_candidates`` builds them (``_fields_allowed`` has nothing to ask of their fields): their
# candidates are not judged one by one.
_FIELDS_FREE = frozenset(_GATES) - {
    "take_control",
    "eat_pretzels",
    "refuse",
    "forfeit",
    "play",
    "heal",
    "stay",
}

# -- templates built at once ----------------------------------------------------------------
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


def _eat_limit(state: State, p: dict[str, Any]) -> int:
    """How many pretzels a player may eat in a game (more for a big fat appetite)."""
    limit: int = state["options"]["eat_limit"]
    return max(6, limit) if p["bfa"] else limit


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
    faces = [c for c in state["players"][player]["hand"] or [] if is_face(c)]
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
    if player != state["contest"]["defender"]:
        return
    members = side(state, player)
    least = _least_held(state, members)
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
