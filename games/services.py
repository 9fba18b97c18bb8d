"""The one write path: every move, undo, new table and import goes through here.

``play`` locks the table, loads the cached state (or replays the log), asks the referee,
appends the move with ``seq = last + 1`` and commits, all in one transaction. On SQLite
the transaction is IMMEDIATE (settings), so a second writer waits for the first.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games import registry, signals
from games.models import Move, Seat, Table
from games.rules import BadScript, IllegalMove, get_game
from games.rules.base import N_, Setup
from games.rules.script import (
    META_FIELDS,
    check_move_shape,
    parse_script,
    parse_setup,
    replay,
    rules_part,
)

MAX_TEXT = 20_000


class StaleMove(Exception):
    """The client's view of the table is out of date (HTTP 409)."""

    def __init__(self, expected: int, actual: int) -> None:
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"The table has moved on (you saw move {expected}, it is at move {actual}). "
            "Reload to see what changed; nothing was applied."
        )


class NothingToUndo(Exception):
    pass


# -- reading a table ------------------------------------------------------------------------
def setup_of(table: Table) -> Setup:
    return Setup(
        game=table.game,
        players=table.players,
        start=table.start_player,
        options=dict(table.options),
        deck_mode=table.deck_mode,
        seed=table.seed,
        deck=list(table.deck) if table.deck is not None else None,
        extra=dict(table.extra),
    )


def live_moves(table: Table) -> list[Move]:
    """The moves in force: the log with every undone move taken out."""
    stack: list[Move] = []
    for row in table.moves.order_by("seq"):
        if row.kind == Move.Kind.UNDO:
            if stack:
                stack.pop()
        else:
            stack.append(row)
    return stack


def script_of(table: Table) -> dict[str, Any]:
    """The table's game script (the export, import and backup format)."""
    script = setup_of(table).as_script()
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
    if table.state is not None and table.state_seq == table.last_seq:
        return table.state
    return rebuild_state(table)


# -- writing --------------------------------------------------------------------------------
@dataclass
class Played:
    move: Move
    state: dict[str, Any]


def _clean_move(move: dict[str, Any]) -> tuple[dict[str, Any], str]:
    if not isinstance(move, dict):
        raise IllegalMove("bad_argument", N_("A move must be an object."))
    text = move.get("text") or ""
    if not isinstance(text, str):
        raise IllegalMove("bad_argument", N_("The narration must be text."))
    if len(text) > MAX_TEXT:
        raise IllegalMove(
            "bad_argument",
            N_("The narration is limited to {limit} characters."),
            limit=MAX_TEXT,
        )
    return rules_part(move), text.strip()


def _lock(table: Table) -> Table:
    return Table.objects.select_for_update().get(pk=table.pk)


def _check_seq(locked: Table, expected_seq: int | None) -> None:
    if expected_seq is not None and expected_seq != locked.last_seq:
        raise StaleMove(expected_seq, locked.last_seq)


def _store(locked: Table, state: dict[str, Any], seq: int, now: datetime) -> None:
    locked.state = state
    locked.state_seq = seq
    locked.last_seq = seq
    if locked.started_at is None:
        locked.started_at = now
    if state.get("finished"):
        locked.status = Table.Status.FINISHED
        locked.finished_at = locked.finished_at or now
    else:
        locked.status = Table.Status.ACTIVE
        locked.finished_at = None
    locked.save(
        update_fields=["state", "state_seq", "last_seq", "started_at", "status", "finished_at"]
    )


def play(
    table: Table,
    move: dict[str, Any],
    expected_seq: int | None,
    user=None,
    at: datetime | None = None,
) -> Played:
    """Apply one move. Raises IllegalMove (nothing written) or StaleMove (nothing written)."""
    return play_many(table, [move], expected_seq, user, at=at)[0]


def play_many(
    table: Table,
    moves: list[dict[str, Any]],
    expected_seq: int | None,
    user=None,
    at: datetime | None = None,
) -> list[Played]:
    """Apply several moves in order, in one transaction under one lock: all or nothing.

    ``expected_seq`` is the table's seq before the first move. A refused move raises its
    IllegalMove (with ``index``, its place in ``moves``) and nothing is written, the moves
    before it included; StaleMove likewise.
    """
    with transaction.atomic():
        locked = _lock(table)
        _check_seq(locked, expected_seq)
        setup = setup_of(locked)
        referee = get_game(locked.game)
        first = state = state_of(locked)
        judged: list[tuple[dict[str, Any], str, dict[str, Any]]] = []
        for index, move in enumerate(moves):
            try:
                payload, text = _clean_move(move)
                state = _judge(referee, setup, state, payload)
            except IllegalMove as exc:
                exc.index = index
                raise
            judged.append((payload, text, state))
        if not judged:
            return []
        now = timezone.now()
        entered_by = user if user is not None and user.is_authenticated else None
        played = [
            Played(
                Move.objects.create(
                    table=locked,
                    seq=locked.last_seq + i,
                    payload=payload,
                    text=text,
                    at=at or now,
                    entered_by=entered_by,
                ),
                after,
            )
            for i, (payload, text, after) in enumerate(judged, start=1)
        ]
        if locked.draft and any(text for _payload, text, _after in judged):
            locked.draft = ""
            locked.save(update_fields=["draft"])
        _store(locked, state, locked.last_seq + len(judged), now)
        _after_move(locked, first, state)
    _refresh(table, locked)
    return played


def _judge(referee, setup: Setup, state: dict[str, Any], payload: dict[str, Any]) -> dict:
    """The referee's new state after ``payload``, or its IllegalMove."""
    try:
        # What a script calls malformed (an unknown card code) is a bad field here.
        check_move_shape(setup, payload, 0)
    except BadScript as exc:
        raise IllegalMove("bad_argument", exc.template, **exc.params) from exc
    return referee.apply(state, payload)


def undo(table: Table, expected_seq: int | None, user=None) -> Played:
    """Take back the last live move. The undo is itself a row of the log."""
    with transaction.atomic():
        locked = _lock(table)
        _check_seq(locked, expected_seq)
        moves = live_moves(locked)
        if not moves:
            raise NothingToUndo("There is no move to undo.")
        before = state_of(locked)
        seq = locked.last_seq + 1
        now = timezone.now()
        row = Move.objects.create(
            table=locked,
            seq=seq,
            kind=Move.Kind.UNDO,
            payload={},
            at=now,
            entered_by=user if user is not None and user.is_authenticated else None,
            undoes=moves[-1].seq,
        )
        state = rebuild_state(locked)
        _store(locked, state, seq, now)
        _after_move(locked, before, state)
        if not moves[:-1]:
            locked.started_at = None
            locked.save(update_fields=["started_at"])
    _refresh(table, locked)
    return Played(row, state)


def _after_move(table: Table, before: dict[str, Any], after: dict[str, Any]) -> None:
    """Announce a table's end, or its undoing, in the same transaction as the move (what
    follows it lives with the features that listen: ``games.signals``)."""
    if bool(before.get("finished")) != bool(after.get("finished")):
        kit = registry.kit(table.game)
        signals.finished_changed.send(sender=kit, table=table, before=before, after=after)


def save_draft(table: Table, text: str) -> None:
    Table.objects.filter(pk=table.pk).update(draft=text[:MAX_TEXT])


def _refresh(table: Table, locked: Table) -> None:
    for field in ("state", "state_seq", "last_seq", "status", "started_at", "finished_at"):
        setattr(table, field, getattr(locked, field))


def create_table(
    owner,
    game: str,
    players: list[str],
    *,
    name: str = "",
    start: str | None = None,
    options: dict[str, Any] | None = None,
    deck_mode: str = "virtual",
    seed: int | None = None,
    deck: list[str] | None = None,
    extra: dict[str, Any] | None = None,
) -> Table:
    """A new table from a set-up; raises BadScript when the set-up is not playable."""
    script: dict[str, Any] = {
        "game": game,
        "players": players,
        "options": options or {},
        "deck_mode": deck_mode,
        **(extra or {}),
    }
    if start:
        script["start"] = start
    if seed is not None:
        script["seed"] = seed
    if deck is not None:
        script["deck"] = deck
    setup = parse_setup(script)
    with transaction.atomic():
        table = Table.objects.create(
            name=name.strip() or default_name(setup),
            game=setup.game,
            owner=owner,
            options=setup.options,
            deck_mode=setup.deck_mode,
            deck=setup.deck,
            extra=setup.extra,
            start_player=setup.start,
            **({"seed": setup.seed} if seed is not None else {}),
        )
        Seat.objects.bulk_create(
            Seat(table=table, position=i, name=p) for i, p in enumerate(setup.players)
        )
        table.state = get_game(setup.game).initial_state(setup_of(table))
        table.save(update_fields=["state"])
    return table


def default_name(setup: Setup) -> str:
    title = get_game(setup.game).title or setup.game
    return f"{title}: " + ", ".join(setup.players)


def import_script(script: Any, owner, name: str = "") -> Table:
    """A new table from a game script, keeping every move's ``at`` and ``text``.

    The whole script is checked before anything is written, and written in one
    transaction: a script with an illegal move creates nothing.
    """
    setup, moves = parse_script(script)
    result = replay(setup, [rules_part(m) for m in moves])
    if result.error is not None:
        # The referee's error inside: its message is translated on the page as well.
        raise IllegalMove(
            result.error.code,
            N_("Move {index}: {error}"),
            index=result.error_index,
            error=result.error,
        )
    stamps = []
    for i, move in enumerate(moves):
        raw = move.get("at")
        stamp = parse_datetime(raw) if isinstance(raw, str) else None
        if raw is not None and stamp is None:
            raise BadScript(N_("Move {move} has an 'at' that is not an ISO 8601 time."), i, move=i)
        if stamp is not None and timezone.is_naive(stamp):
            stamp = timezone.make_aware(stamp, UTC)
        stamps.append(stamp)
    with transaction.atomic():
        table = create_table(
            owner,
            setup.game,
            setup.players,
            name=name,
            start=setup.start,
            options=setup.options,
            deck_mode=setup.deck_mode,
            seed=setup.seed,
            deck=setup.deck,
            extra=setup.extra,
        )
        for move, stamp in zip(moves, stamps, strict=True):
            play(table, {k: v for k, v in move.items() if k != "at"}, None, owner, at=stamp)
        first = table.moves.order_by("seq").first()
        if first is not None:
            table.started_at = first.at
            last = table.moves.order_by("seq").last()
            if table.status == Table.Status.FINISHED:
                table.finished_at = last.at
            table.save(update_fields=["started_at", "finished_at"])
    return table


__all__ = [
    "META_FIELDS",
    "NothingToUndo",
    "Played",
    "StaleMove",
    "create_table",
    "import_script",
    "live_moves",
    "play",
    "play_many",
    "rebuild_state",
    "save_draft",
    "script_of",
    "setup_of",
    "state_of",
    "undo",
]
