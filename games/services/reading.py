"""Reading a table: its set-up, the moves in force, its state and its script.

Nothing here writes. ``state_of`` is the kept state when it is current, else a replay of the
log (shown, not stored: the write path keeps it again at the next move).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games import story as kept_story
from games.models import Move, Table
from games.rules.script import replay
from games.rules.setup import Setup
from games.services import validating


def setup_of(table: Table, players: list[str] | None = None) -> Setup:
    return Setup(
        game=table.game,
        players=table.players if players is None else players,
        start=table.start_player,
        options=dict(table.options),
        deck_mode=table.deck_mode,
        seed=table.seed,
        deck=list(table.deck) if table.deck is not None else None,
        extra=dict(table.extra),
    )


def setup_for_play(table: Table) -> Setup:
    """The set-up, its players read from the cached state when it is current (the state's
    ``seats`` are the seats' names in order, as ``Game.initial_state`` copies them): a move
    need not read the seats."""
    if table.state is not None and table.state_seq == table.last_seq and "seats" in table.state:
        return setup_of(table, players=list(table.state["seats"]))
    return setup_of(table)


def live_moves(table: Table) -> list[Move]:
    """The moves in force: the log with every undone move taken out."""
    return live(table.moves.order_by("seq"))


def live(rows: Iterable[Move]) -> list[Move]:
    stack: list[Move] = []
    for row in rows:
        if row.kind == Move.Kind.UNDO:
            if stack:
                stack.pop()
        else:
            stack.append(row)
    return stack


# A script's informational key (the referee ignores it) for the table's language: an export
# and its import, a backup and a bundle keep a Japanese table Japanese.
LANGUAGE_KEY = "language"


def script_head(table: Table) -> dict[str, Any]:
    """The script of the table without its moves: the set-up, and the table's language."""
    script = setup_of(table).as_script()
    if table.language:
        script[LANGUAGE_KEY] = table.language
    return script


def script_of(table: Table) -> dict[str, Any]:
    """The table's game script (the export, import and backup format)."""
    script = script_head(table)
    script["moves"] = [m.as_script_move() for m in live_moves(table)]
    return script


def rebuild_state(
    table: Table, moves: list[Move] | None = None, setup: Setup | None = None
) -> dict[str, Any]:
    """The referee's replay of the live moves, ignoring any cache (a reader that already
    holds the live moves or the set-up passes them in)."""
    moves = live_moves(table) if moves is None else moves
    result = replay(setup or setup_of(table), [m.payload for m in moves])
    if result.error is not None:  # the log only ever holds moves the referee accepted
        raise RuntimeError(
            f"Table {table.pk}: move {result.error_index} no longer replays: {result.error}"
        )
    return result.state


def state_of(table: Table) -> dict[str, Any]:
    """The current state, from the cache when it is up to date."""
    cached: dict[str, Any] | None = table.state
    if cached is not None and table.state_seq == table.last_seq:
        return cached
    return rebuild_state(table)


def is_resend(table: Table, client_id: Any) -> bool:
    """Whether a move named ``client_id`` is stored at ``table`` already (a view that checks
    the table before playing asks, so that a resend reaches ``writing.play_many`` and its
    stored answer)."""
    if not isinstance(client_id, str) or not validating.CLIENT_ID.fullmatch(client_id):
        return False
    return table.moves.filter(client_id=client_id).exists()


def state_after(locked: Table, setup: Setup, seq: int) -> dict[str, Any]:
    if seq == locked.last_seq:
        return state_of(locked)
    return rebuild_state(locked, live(locked.moves.filter(seq__lte=seq).order_by("seq")), setup)


def story_facts(table: Table) -> dict[str, Any]:
    """What the game's narrator remembers between moves (the kept story's cursor): from the
    row when the kept story is current, else told now from the log in memory and stored
    nowhere (a GET never writes; the write path keeps it again at the next move)."""
    if kept_story.is_current(table):
        cursor: dict[str, Any] = table.story_cursor or {}
    else:
        cursor = kept_story.told(table, setup_of(table), live_moves(table))
    facts: dict[str, Any] = cursor.get("narrator") or {}
    return facts
