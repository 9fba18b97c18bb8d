"""What the table pages show, derived from the referee's state and legal moves.

No rule is decided here: the buttons come from ``legal_moves`` and the figures from the
state; this module only arranges them for the templates.
"""

from __future__ import annotations

import importlib
from typing import Any

from . import services
from .models import Table
from .rules import cards, get_game

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
    """The game's readable story (scenes, challenges, ...) from the referee's narrative()."""
    module = importlib.import_module(f"games.rules.{table.game}")
    build = getattr(module, "narrative", None)
    if build is None:
        return []
    moves = services.live_moves(table)
    entries = build(services.setup_of(table), [m.as_script_move() for m in moves])
    for entry in entries:
        entry["seqs"] = [moves[i].seq for i in entry.get("moves", []) if i < len(moves)]
    return entries


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
            "fields": {k: v for k, v in m.payload.items() if k not in ("by", "do")},
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
    extra = globals().get(f"_{table.game}_context")
    if extra is not None:
        context.update(extra(table, state, legal))
    return context


def _amnesia_context(table, state, legal) -> dict[str, Any]:
    game = get_game("amnesia")
    threshold = game.finale_threshold(state)
    ch = state.get("challenge")
    seats = [
        {
            "name": name,
            "tokens": state["tokens"][name],
            "on_turn": name == state["turn"],
            "narrating": name == state["narrator"],
            "in_challenge": bool(ch and name in ch["participants"]),
            "bet": (ch or {}).get("bets", {}).get(name, 0) if ch else 0,
            "to_act": bool(ch and ch.get("to_act") == name),
        }
        for name in state["seats"]
    ]
    live = services.live_moves(table)
    last = live[-1] if live else None
    insist_text = ""
    if state.get("insist") and last is not None and last.payload.get("do") == "insist":
        insist_text = last.text
    # The challenge was settled by the very last move: say who won, once.
    just_settled = bool(
        last is not None
        and state["phase"] == "scene"
        and last.payload.get("do") in ("higher", "lower", "quit")
        and state.get("last_challenge")
    )
    return {
        "seats": seats,
        "finale": {
            "discard": state["discard"],
            "needed": threshold + 1,
            "open": state["discard"] > threshold,
            "percent": min(100, round(100 * state["discard"] / (threshold + 1))),
        },
        "turn_moves": legal.get(state["turn"], {}) if state.get("turn") else {},
        "narrator_moves": legal.get(state["narrator"], {}) if state.get("narrator") else {},
        "suggesters": who_may(legal, "suggest"),
        "insisters": who_may(legal, "insist"),
        "stakers": who_may(legal, "stake"),
        "joiners": who_may(legal, "join"),
        "can_end_story": bool(who_may(legal, "end_story")),
        "insist_text": insist_text,
        "challenge": ch,
        "reference": card_info(ch["reference"]) if ch else None,
        "to_act_moves": legal.get(ch["to_act"], {}) if ch and ch.get("to_act") else {},
        "grid": card_grid(ch["drawn"] if ch else []),
        "last_challenge": state.get("last_challenge"),
        "just_settled": just_settled,
        "physical": table.deck_mode == Table.DeckMode.PHYSICAL,
    }
