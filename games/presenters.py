"""What the table pages show, derived from the referee's state and legal moves.

No rule is decided here: the buttons come from ``legal_moves`` and the figures from the
state; this module only arranges them for the templates.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from games import registry
from games.addresses import address
from games.facing import Facing
from games.models import Move, Seat, Table, link_mark
from games.prepared import Prepared
from games.rules import Game, cards
from games.snapshot import RECENT, Snapshot
from games.start import lines as start_draw_lines

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


def shown_value(key: str, value: Any) -> Any:
    """A move field as a page shows it: card codes as the cards ("6C" as "6♣"), as
    everywhere else on the page; anything else as it is."""
    if isinstance(value, list):
        return ",".join(str(shown_value(key, v)) for v in value)
    if "card" in key and isinstance(value, str) and _is_card(value):
        return cards.label(value)
    return value


def _is_card(code: str) -> bool:
    if code in cards.JOKERS:
        return True
    try:
        rank, suit = cards.split(code)
    except (ValueError, KeyError, IndexError):
        return False
    return rank in cards.RANKS and suit in cards.SUITS


def seat_links(table: Table, seat_page: str) -> list[dict[str, Any]]:
    """Each seat's private page for the table page's seat-links panel: its link (this site's
    path: the game master opens it here), its QR code (the join screen's, which says the
    address a phone opens) and the button that makes it a new link. Three columns by position
    (no Seat is built), on every render of the page."""
    return [
        {
            "name": name,
            "url": address(seat_page, token),
            "qr": address("games:join_qr", table.pk, position) + f"?link={link_mark(token)}",
            "reissue_url": address("games:reissue_link", table.pk, position),
        }
        for name, token, position in _SEAT_LINKS.all(table.pk)
    ]


# The table page's every fetch lists its seats' links: compiled once (games.prepared).
_SEAT_LINKS = Prepared(
    lambda pk: (
        Seat.objects.filter(table_id=pk)
        .order_by("position")
        .values_list("name", "token", "position")
    ),
    9_100_000_000_000_000_001,
)


def recent_log(table: Table | Snapshot | Facing, limit: int = 12) -> list[dict[str, Any]]:
    """The log's last rows for the page (a snapshot's, read once per request, and drawn once:
    the table page's log and a game's own part of the page both show them)."""
    if isinstance(table, (Snapshot, Facing)):
        if limit <= RECENT:
            snap = table._snap if isinstance(table, Facing) else table
            drawn = snap.__dict__.setdefault("_recent_log", {})
            if limit not in drawn:
                drawn[limit] = _log_rows(table.recent_rows[:limit], table.table.game)
            return list(drawn[limit])
        else:
            rows = list(Move.objects.filter(table_id=table.table.pk).order_by("-seq")[:limit])
        game = table.table.game
    else:
        rows = list(table.moves.order_by("-seq")[:limit])
        game = table.game
    return _log_rows(rows, game)


def _log_rows(rows: list[Move], game: str) -> list[dict[str, Any]]:
    # A game with moves kept secret until later (``pending_secrets``: an answer face down)
    # shows no move's fields in the log, only its sentence: which rows are secret now would
    # need the whole log, and the log's last rows are read at any length without it.
    secretive = type(registry.kit(game).referee).pending_secrets is not Game.pending_secrets
    return [
        {
            "seq": m.seq,
            # The move in the reader's words (the game's sentence); the verb and its fields
            # only where the game has none for it.
            "said": registry.describe_move(game, m.payload) if m.kind != m.Kind.UNDO else "",
            "undo": m.kind == m.Kind.UNDO,
            "undoes": m.undoes,
            "by": m.payload.get("by"),
            "do": m.payload.get("do"),
            "fields": {}
            if secretive
            else {k: shown_value(k, v) for k, v in m.payload.items() if k not in ("by", "do")},
            "text": m.text,
            # No time: no page shows it, and a row of plain JSON kinds alone is keyed by its
            # ``{% memo %}`` in one pass (games.templatetags.memo).
        }
        for m in rows
    ]


def story_earlier_url(table: Table, part) -> str:
    """The address of the entries before ``part`` ("" when it starts at the beginning)."""
    if not part.has_earlier:
        return ""
    return reverse("games:story", args=[table.pk]) + f"?before={part.start}"


def table_context(snap: Snapshot, error: str = "") -> dict[str, Any]:
    """Everything a table page shows: the shared parts, then the game's own. The page is
    the owner's screen: it gets their side of the table (``games.facing``), never the state."""
    table = snap.table
    facing = Facing.owner(snap)
    context: dict[str, Any] = {
        "table": table,
        "state": facing.view,
        "legal": facing.legal,
        "expected_seq": table.last_seq,
        # Forms of independent moves carry the turn instead (``games.services``).
        "expected_turn": facing.expected_turn,
        "error": error,
        "log": recent_log(snap),
        "can_undo": snap.can_undo,
        "undo_names": undo_names(snap),
        "announce": announce(snap),
        # The last scenes; the earlier ones come on demand (games.views.table_story).
        "story": snap.story_tail.entries,
        "story_earlier": story_earlier_url(table, snap.story_tail),
        # How the start player was drawn, if the table drew (games/_start_draw.html).
        "start_draw": start_draw_lines(snap.kit.start_method, table.extra),
        # The frame's parts (games/table_frame.html): the story so far, the forms' address.
        "story_template": snap.kit.story_template,
        "move_url": address("games:move", table.pk),
    }
    context.update(snap.kit.page_context(facing))
    return context


def move_sentence(snap: Snapshot, move: Any) -> str:
    """What a stored move did, in one sentence (the game's own words when it has them)."""
    describe = snap.kit.describe_move
    said = describe(move.payload) if describe is not None else ""
    if said:
        return str(said)
    return _("Move %(seq)s, by %(by)s.") % {"seq": move.seq, "by": move.payload.get("by", "")}


def undo_names(snap: Snapshot) -> str:
    """The move an undo would take back (the undo button's confirmation names it)."""
    last = snap.last_move  # the last move in force, without reading the log
    return move_sentence(snap, last) if last is not None else ""


def announce(snap: Snapshot) -> str:
    """What just happened at the table, for the live region a screen reader reads out
    after a move (``static/js/moves.js``)."""
    # the log's newest row, undo rows too (read once per page with the move log)
    last = snap.recent_rows[0] if snap.recent_rows else None
    if last is None:
        return ""
    if last.kind == last.Kind.UNDO:
        return _("Move %(n)s was taken back.") % {"n": last.undoes}
    return move_sentence(snap, last)
