"""What a seat's own page offers its player beyond the cards: the decisions the rules leave to
them (answer a challenge, forfeit, pay a penalty, heal), and their hand in a readable order.

Nothing is decided here: every button comes from the referee's ``legal_moves`` for that
player, and the move it posts goes through ``writing.play_many`` like any other. A decision that
needs cards named (a physical table's card penalty) is left to the game master's screen,
where the builder asks for the cards.
"""

from __future__ import annotations

import json
from typing import Any

from games.contest.cards import attribute_info
from games.contest.story import penalty_label
from games.rules import cards as C

# The hand's order: by suit (♠ ♥ ♦ ♣), then rank from the ace up to the king (the order the
# rules use to say which card a penalty takes); then the major arcana, then the jokers.
SUIT_ORDER = {s: i for i, s in enumerate(C.SUITS)}
RANK_ORDER = {
    r: i
    for i, r in enumerate(
        ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "P", "N", "Q", "K")
    )
}


def hand_order(code: str) -> tuple[int, int, int]:
    """Sort key of a card in a hand: suit, then rank."""
    if code in C.JOKERS:
        return (2, 0, C.JOKERS.index(code))
    if code in C.TAROT_MAJOR:
        return (1, 0, int(code[1:]))
    rank, suit = C.split(code)
    return (0, SUIT_ORDER.get(suit, len(SUIT_ORDER)), RANK_ORDER.get(rank, len(RANK_ORDER)))


def sorted_hand(hand: list[str]) -> list[str]:
    return sorted(hand, key=hand_order)


def _move(name: str, verb: str, **fields: Any) -> str:
    return json.dumps({"by": name, "do": verb, **fields})


def _penalties(
    name: str, verb: str, template: dict[str, Any] | None, words: dict, virtual: bool
) -> list[dict[str, Any]]:
    if template is None:
        return []
    out = []
    for mix in template.get("choices", {}).get("penalty", []):
        takes_card = "card" in ([mix] if isinstance(mix, str) else mix)
        if takes_card and not virtual:
            continue  # the lost cards are named on the game master's screen
        out.append({"json": _move(name, verb, penalty=mix), "label": penalty_label(mix, words)})
    return out


def decisions(
    name: str,
    legal: list[dict[str, Any]],
    attributes: dict[str, int],
    words: dict,
    virtual: bool,
) -> dict[str, Any]:
    """The decisions ``name`` may take now, from their legal moves (an empty dict: none)."""
    by_verb = {t["do"]: t for t in legal if "with" not in t}
    out: dict[str, Any] = {}
    accept = by_verb.get("accept")
    if accept:
        out["accept"] = [
            attribute_info(a, attributes.get(a))
            for a in accept.get("choices", {}).get("attribute", [])
        ]
    for verb in ("refuse", "forfeit"):
        buttons = _penalties(name, verb, by_verb.get(verb), words, virtual)
        if buttons:
            out[verb] = buttons
    if "drink" in by_verb:
        out["drink"] = _move(name, "drink")
    if "lose_card" in by_verb and virtual:
        out["lose_card"] = _move(name, "lose_card")
    if "give_up" in by_verb:
        out["give_up"] = _move(name, "give_up")
    heal = by_verb.get("heal")
    if heal:
        out["heal"] = [
            {"json": _move(name, "heal", choice=c), "choice": c}
            for c in heal.get("choices", {}).get("choice", [])
        ]
    return out
