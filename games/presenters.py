"""What the table pages show, derived from the referee's state and legal moves.

No rule is decided here: the buttons come from ``legal_moves`` and the figures from the
state; this module only arranges them for the templates.
"""

from __future__ import annotations

import copy
from typing import Any

from games import registry, services
from games.models import Table
from games.rules import cards, get_game

SUIT_COLOURS = {"S": "black", "C": "black", "H": "red", "D": "red"}


def gm_view(table: Table, state: dict[str, Any]) -> dict[str, Any]:
    """The state as the game master's screen may show it (no hidden information)."""
    return get_game(table.game).view(state, None)


def card_info(code: str | None) -> dict[str, Any] | None:
    if not code:
        return None
    if code in cards.JOKERS:
        return {"code": code, "rank": "★", "suit": "", "colour": "black", "label": "Joker"}
    rank, suit = cards.split(code)
    return {
        "code": code,
        "rank": rank,
        "suit": cards.SUIT_SYMBOLS.get(suit, suit),
        "colour": SUIT_COLOURS.get(suit, "black"),
        "label": cards.label(code),
    }


def card_grid(used: list[str] | None = None) -> list[list[dict[str, Any]]]:
    """The 52 playing cards as four rows (one per suit), each marked used or not."""
    used_set = set(used or [])
    return [
        [dict(card_info(rank + suit), used=(rank + suit) in used_set) for rank in cards.RANKS]
        for suit in cards.SUITS
    ]


def narrative(table: Table) -> list[dict[str, Any]]:
    """The game's readable story (scenes, challenges, ...) from the referee's narrative().

    A page asks for it more than once while it renders (the shared context and the game's
    own); the replay runs once per table and log position, and each caller gets a copy.
    """
    cached = getattr(table, "_narrative", None)
    if cached is None or cached[0] != table.last_seq:
        moves = services.live_moves(table)
        entries = get_game(table.game).narrative(
            services.setup_of(table), [m.as_script_move() for m in moves]
        )
        for entry in entries:
            entry["seqs"] = [moves[i].seq for i in entry.get("moves", []) if i < len(moves)]
        cached = (table.last_seq, entries)
        table._narrative = cached
    return copy.deepcopy(cached[1])


def legal_by_player(table: Table, state: dict[str, Any]) -> dict[str, dict[str, dict]]:
    game = get_game(table.game)
    return {
        name: {tpl["do"]: tpl for tpl in game.legal_moves(state, name)} for name in state["seats"]
    }


def who_may(legal: dict[str, dict[str, dict]], verb: str) -> list[str]:
    return [name for name, verbs in legal.items() if verb in verbs]


def recent_log(table: Table, limit: int = 12) -> list[dict[str, Any]]:
    rows = list(table.moves.order_by("-seq")[:limit])
    return [
        {
            "seq": m.seq,
            "undo": m.kind == m.Kind.UNDO,
            "undoes": m.undoes,
            "by": m.payload.get("by"),
            "do": m.payload.get("do"),
            "fields": {
                k: ",".join(map(str, v)) if isinstance(v, list) else v
                for k, v in m.payload.items()
                if k not in ("by", "do")
            },
            "text": m.text,
            "at": m.at,
        }
        for m in rows
    ]


def table_context(table: Table, error: str = "") -> dict[str, Any]:
    state = services.state_of(table)
    legal = legal_by_player(table, state)
    context: dict[str, Any] = {
        "table": table,
        "state": gm_view(table, state),
        "legal": legal,
        "expected_seq": table.last_seq,
        "error": error,
        "log": recent_log(table),
        "can_undo": table.moves.filter(kind="move").exists() and bool(services.live_moves(table)),
        "story": narrative(table),
    }
    context.update(registry.kit(table.game).page_context(table, state, legal))
    return context
