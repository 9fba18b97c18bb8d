"""Contest: whether a move is legal now, without applying it: what the verb's handler
(``_do_<verb>``) would ask of it: whose turn it is, the table's options, a card one holds,
whether the penalties it pays can be paid."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.contest.rules.core import ATTR_SUIT, State, active, card_suit, hand_count
from games.contest.rules.flow import side

# Each check asks what the verb's handler (``_do_<verb>``) asks of a candidate, in the state as
# it is: the candidates (``candidates``) already carry well-formed fields, names of active
# players, cards in the player's hand and, in physical mode, distinct cards nobody has seen.
# What is left is whose turn it is, the table's options, and whether a penalty the move pays
# asks a player for a card they do not hold.


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


def _eat_limit(state: State, p: dict[str, Any]) -> int:
    """How many pretzels a player may eat in a game (more for a big fat appetite)."""
    limit: int = state["options"]["eat_limit"]
    return max(6, limit) if p["bfa"] else limit
