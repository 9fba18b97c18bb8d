"""What the table pages show, derived from the referee's state and legal moves.

No rule is decided here: the buttons come from ``legal_moves`` and the figures from the
state; this module only arranges them for the templates.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.forms import new_client_id
from games.models import Table
from games.rules import cards
from games.snapshot import RECENT, Snapshot

SUIT_COLOURS = {"S": "black", "C": "black", "H": "red", "D": "red"}


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


def who_may(legal: dict[str, dict[str, dict]], verb: str) -> list[str]:
    return [name for name, verbs in legal.items() if verb in verbs]


def recent_log(table: Table | Snapshot, limit: int = 12) -> list[dict[str, Any]]:
    """The log's last rows for the page (a snapshot's, read once per request)."""
    if isinstance(table, Snapshot) and limit <= RECENT:
        rows = table.recent_rows[:limit]
    else:
        table = table.table if isinstance(table, Snapshot) else table
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


def story_earlier_url(table: Table, part) -> str:
    """The address of the entries before ``part`` ("" when it starts at the beginning)."""
    if not part.has_earlier:
        return ""
    return reverse("games:story", args=[table.pk]) + f"?before={part.start}"


def table_context(snap: Snapshot, error: str = "") -> dict[str, Any]:
    """Everything a table page shows: the shared parts, then the game's own."""
    table = snap.table
    context: dict[str, Any] = {
        "table": table,
        "state": snap.view,
        "legal": snap.legal,
        "expected_seq": table.last_seq,
        # Forms of independent moves carry the turn instead (``games.services``).
        "expected_turn": snap.referee.turn_marker(snap.state),
        "new_client_id": new_client_id,
        "error": error,
        "log": recent_log(snap),
        "can_undo": snap.can_undo,
        # The last scenes; the earlier ones come on demand (games.views.table_story).
        "story": snap.story_tail.entries,
        "story_earlier": story_earlier_url(table, snap.story_tail),
    }
    context.update(snap.kit.page_context(snap))
    return context
