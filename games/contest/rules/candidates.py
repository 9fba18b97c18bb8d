"""Contest: the concrete moves to try for a verb (the slow path of ``moves.legal_moves``,
each judged by ``allowed``): every target, card in hand, count, penalty mix a button could
send; physical card names are placeholders of cards nobody has seen."""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from games.contest.rules.core import ATTR_SUIT, State, active, full_deck, is_face, visible_cards
from games.rules import cards as C


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
