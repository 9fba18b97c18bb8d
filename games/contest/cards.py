"""Contest cards on the page: how a card looks, the tappable grid of a physical deck, and
the builder that lets a physical move be tapped in card by card.

Whether a half-tapped move is complete is never decided here: the referee is asked, by
trying the move (and the move with stand-in cards added) on the current state.
"""

from __future__ import annotations

import copy
from typing import Any

from django.utils.translation import gettext as _g
from django.utils.translation import gettext_lazy as _

from games.contest.characters import ATTRIBUTE_LABELS
from games.contest.rules import GAME
from games.contest.rules.core import ATTR_SUIT, card_value, full_deck, is_face, visible_cards
from games.rules import IllegalMove
from games.rules import cards as C

SUIT_COLOURS = {"S": "black", "C": "black", "H": "red", "D": "red"}
SUIT_ATTRIBUTE = {suit: attr for attr, suit in ATTR_SUIT.items()}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
TAROT_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "P", "N", "Q", "K")
# Moves whose cards a physical table taps one by one, and the field each tap fills.
BUILD_VERBS = ("play", "refuse", "forfeit", "stay", "lose_card", "take_control", "swap_joker")


def attribute_info(attr: str | None, value: int | None = None) -> dict[str, Any] | None:
    if not attr:
        return None
    suit = ATTR_SUIT[attr]
    return {
        "key": attr,
        # The word in the language in force (every caller draws it now): plain text, so a
        # page's kept parts are keyed by it in one pass ({% memo %}), not by a lazy's lookup.
        "label": str(ATTRIBUTE_LABELS[attr]),
        "suit": C.SUIT_SYMBOLS[suit],
        "colour": SUIT_COLOURS[suit],
        "value": value,
    }


def card(code: str) -> dict[str, Any]:
    if code in C.JOKERS:
        return {
            "code": code,
            "rank": "★",
            "suit": "",
            "colour": "black",
            "label": _g("Joker"),
            "value": 0,
            "face": False,
            "special": True,
        }
    if code in C.TAROT_MAJOR:
        return {
            "code": code,
            "rank": code[1:],
            "suit": "✶",
            "colour": "black",
            "label": _g("Major arcana %(n)s") % {"n": code[1:]},
            "value": 0,
            "face": False,
            "special": True,
        }
    rank, suit = C.split(code)
    return {
        "code": code,
        "rank": rank,
        "suit": C.SUIT_SYMBOLS.get(suit, suit),
        "colour": SUIT_COLOURS.get(suit, "black"),
        "label": C.label(code),
        "value": card_value(code),
        "face": is_face(code),
        "special": False,
    }


def card_label(code: str) -> str:
    return str(card(code)["label"])


# -- the card grid (physical deck) ----------------------------------------------------------
def grid(
    options: dict[str, Any],
    disabled: set[str],
    only: str | None = None,
    chain_suit: str | None = None,
) -> list[dict[str, Any]]:
    """Rows of tappable cards, one per suit (plus jokers and major arcana when in the deck).
    ``only``: "face" or "major" to offer just those."""
    deck = set(full_deck(options))
    ranks = TAROT_RANKS if options["tarot"] else RANKS
    rows = []
    if only != "major":
        for suit in C.SUITS:
            codes = [r + suit for r in ranks if r + suit in deck]
            if only == "face":
                codes = [c for c in codes if is_face(c)]
            attr = SUIT_ATTRIBUTE[suit]
            rows.append(
                {
                    "label": ATTRIBUTE_LABELS[attr],
                    "symbol": C.SUIT_SYMBOLS[suit],
                    "colour": SUIT_COLOURS[suit],
                    "chain": suit == chain_suit,
                    "cards": [dict(card(c), used=c in disabled) for c in codes],
                }
            )
    if only in (None, "major") and options["tarot"] and options["plot_cards"]:
        rows.append(
            {
                "label": _("Major arcana"),
                "symbol": "✶",
                "colour": "black",
                "chain": False,
                "cards": [dict(card(c), used=c in disabled) for c in C.TAROT_MAJOR],
            }
        )
    if only is None and options["jokers"]:
        rows.append(
            {
                "label": _("Jokers"),
                "symbol": "★",
                "colour": "black",
                "chain": False,
                "cards": [dict(card(c), used=c in disabled) for c in C.JOKERS],
            }
        )
    return rows


# -- the builder: a physical move whose cards are tapped one at a time ----------------------
def next_fill(move: dict[str, Any]) -> str:
    if move.get("do") == "play":
        return "draws" if "card" in move else "card"
    if move.get("do") in ("refuse", "forfeit", "stay"):
        return "cards"
    return "card"


def picked(move: dict[str, Any]) -> list[str]:
    out = [move["card"]] if isinstance(move.get("card"), str) else []
    for key in ("draws", "cards"):
        out += [c for c in move.get(key) or [] if isinstance(c, str)]
    return out


def add_pick(move: dict[str, Any], fill: str, code: str) -> dict[str, Any]:
    new = copy.deepcopy(move)
    if fill in ("draws", "cards"):
        new[fill] = list(new.get(fill) or []) + [code]
    else:
        new[fill] = code
    return new


def drop_pick(move: dict[str, Any]) -> dict[str, Any]:
    """The move before its last tapped card."""
    new = copy.deepcopy(move)
    for key in ("draws", "cards"):
        if new.get(key):
            new[key] = new[key][:-1]
            return new
    if new.get("do") == "play" and "card" in new and not new.get("draws"):
        new.pop("card")
        new.pop("draws", None)
    elif new.get("do") != "play":
        new.pop("card", None)
    return new


def _fillers(state: dict[str, Any], move: dict[str, Any]) -> list[str]:
    """Stand-in cards for 'would more cards complete it?': unseen and unpicked; for a play,
    not of the chain's suit (so each stand-in ends a chain); for taking control, the kind
    of card that takes it."""
    taken = visible_cards(state) | set(picked(move))
    pool = [c for c in full_deck(state["options"]) if c not in taken]
    if move.get("do") == "take_control":
        if move.get("with") == "plot_card":
            return [c for c in pool if c in C.TAROT_MAJOR][:1]
        return [c for c in pool if c not in C.JOKERS and is_face(c)][:1]
    pool = [c for c in pool if c not in C.JOKERS and c not in C.TAROT_MAJOR and not is_face(c)]
    if move.get("do") == "play":
        contest = state.get("contest") or {}
        attr = (contest.get("attributes") or {}).get(move.get("by"))
        avoid = ATTR_SUIT.get(attr) if attr else None
        pool = [c for c in pool if C.suit(c) != avoid]
    return pool[:24]


def evaluate(state: dict[str, Any], move: dict[str, Any]) -> tuple[str, IllegalMove | None]:
    """'complete' (legal as it stands), 'more' (more tapped cards would make it legal) or
    'error' (no number of further cards helps), by asking the referee."""
    try:
        GAME.apply(state, move)
        return "complete", None
    except IllegalMove as exc:
        error = exc
    fill = next_fill(move)
    fillers = _fillers(state, move)
    tries = 1 if fill == "card" else min(len(fillers), 12)
    trial = move
    for code in fillers[:tries]:
        trial = add_pick(trial, fill, code)
        if fill == "draws" and "card" not in trial:
            break
        try:
            GAME.apply(state, trial)
            return "more", error
        except IllegalMove:
            continue
    if fill == "card" and move.get("do") == "play":
        # No card yet: any unseen card of another suit would do as the played one.
        return "more", error
    return "error", error
