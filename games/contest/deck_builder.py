"""The physical deck's builder box: a move whose cards are tapped in one by one (a play and
its chain, taking control, the joker swap, a card lost), with what has been tapped so far
and the grid for the next card. The referee says when the move is complete
(``games.contest.cards``).
"""

from __future__ import annotations

import json
from typing import Any

from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _g

from games.contest.cards import attribute_info, card, drop_pick, grid, next_fill, picked
from games.contest.characters import drinks_as
from games.contest.rules.core import ATTR_SUIT, side_total, visible_cards
from games.contest.story import drink_words, penalty_label
from games.models import Table
from games.rules import cards as C


def pending_context(
    table: Table,
    state: dict[str, Any],
    move: dict[str, Any],
    names: dict[str, str],
    text: str = "",
) -> dict[str, Any]:
    """The builder box: what has been tapped so far and the grid for the next card."""
    fill = next_fill(move)
    by = move.get("by", "")
    verb = move.get("do")
    contest = state.get("contest") or {}
    attr = (contest.get("attributes") or {}).get(by) if verb == "play" else None
    chain_suit = ATTR_SUIT.get(attr) if attr else None
    who = names.get(by, by)
    only = None
    if verb == "take_control":
        only = "major" if move.get("with") == "plot_card" else "face"
    if verb == "play" and fill == "card":
        prompt = _g("%(who)s plays: tap the card they put down.") % {"who": who}
    elif verb == "play":
        prompt = _g(
            "%(who)s’s chain goes on: tap the next card drawn from the deck (a %(suit)s keeps "
            "it going)."
        ) % {"who": who, "suit": C.SUIT_SYMBOLS.get(chain_suit or "", "")}
    elif verb == "take_control":
        prompt = _g("%(who)s takes control: tap the card they play.") % {"who": who}
    elif verb == "swap_joker":
        prompt = _g("%(who)s takes the joker: tap the card they give up for it.") % {"who": who}
    else:
        prompt = _g("Tap the card %(who)s loses (face up).") % {"who": who}
    shown = [card(c) for c in picked(move)]
    for i, c in enumerate(shown):
        c["drawn"] = verb == "play" and i > 0
    total = None
    if verb == "play" and attr and move.get("card"):
        value = state["players"][by]["attributes"][attr]
        total = side_total(value, [c["code"] for c in shown], bool(move.get("word")))
    disabled = visible_cards(state) | set(picked(move))
    back = ""
    if picked(move):
        url = reverse("contest:build", args=[table.pk])
        back = f"{url}?{urlencode({'move': json.dumps(drop_pick(move))})}"
    return {
        "pending": {
            "back_url": back,
            "text": text,
            "move": move,
            "json": json.dumps(move),
            "fill": fill,
            "by": by,
            "who": who,
            "do": verb,
            "prompt": prompt,
            "picked": shown,
            "attribute": attribute_info(attr),
            "total": total,
            "penalty": penalty_label(move["penalty"], drink_words(drinks_as(table)))
            if verb in ("refuse", "forfeit", "stay") and move.get("penalty")
            else "",
            "grid": grid(state["options"], disabled, only, chain_suit),
        }
    }
