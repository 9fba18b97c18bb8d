"""Writing: the one write path. Every move and undo goes through here.

``play_many`` (a move, or a batch of them) locks the table, loads the kept state (or replays
the log), checks the move (``games.services.validating``), asks the referee to judge it,
appends it with ``seq = last + 1``, and advances what is kept from the log (the state, the
story, the table's version) in the same UPDATE, all in one transaction. On SQLite the
transaction is IMMEDIATE (settings), so a second writer waits for the first.

Resends. A client names each move it sends with an id of its own (``client_id``, unique
per table in the database). When the answer to a move is lost (a dropped connection, a
double tap), the client sends the same move with the same id again, and gets the stored
result as its answer: the move is never stored twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from django.conf import settings
from django.db import connection, transaction
from django.db.models import BooleanField, F, QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone

from games import push, registry, signals
from games import story as kept_story
from games.models import Move, Table
from games.rules import Game, IllegalMove, get_game
from games.rules.setup import Setup
from games.services import kept, reading, validating

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from django.contrib.auth.models import AnonymousUser, User

    # Who sends a move: a player logged in, or nobody known (a seat's link, a command).
    Sender = User | AnonymousUser | None


@dataclass
class Played:
    move: Move
    state: dict[str, Any]
    # True when the move was stored already (a resend): its answer again, nothing written.
    resent: bool = False


def lock(table: Table, rows: QuerySet[Table] | None = None) -> Table:
    """The table's row, locked until the transaction ends. On PostgreSQL the wait for it is
    bounded (settings.WRITE_LOCK_TIMEOUT_MS, for this transaction only): past it the lock is
    "not available", which the site answers 503 "busy, nothing applied" (amnesia_site.busy),
    as SQLite's busy timeout does. The timeout is set by the very statement that waits, in one
    round trip: its WHERE calls ``set_config(..., is_local => true)`` on the row, which
    PostgreSQL evaluates before it locks the row (a raw condition: the same call built as an
    ORM expression cost a move a couple of milliseconds to compile).

    ``rows``: the tables the row may be taken from (default: any), with what to load beside
    it (``select_related``); a row outside them raises ``Table.DoesNotExist``. Only the
    table's own row is locked, never a related one joined to it."""
    rows = (Table.objects.all() if rows is None else rows).select_for_update(of=("self",))
    if connection.vendor == "postgresql":
        timeout = f"{settings.WRITE_LOCK_TIMEOUT_MS}ms"
        rows = rows.filter(
            RawSQL(
                "set_config('lock_timeout', %s, true) IS NOT NULL",
                (timeout,),
                output_field=BooleanField(),
            )
        )
    return rows.get(pk=table.pk)


def store(locked: Table, step: kept.Step, now: datetime) -> None:
    """The one place a write of the log is committed: the row says where the log is, and
    everything kept from the log (``kept.KEPT``: the state, the story, the version, a
    finished table's report) advances with it, in the same transaction and (for what the
    row keeps) the same UPDATE."""
    locked.last_seq = step.seq
    if locked.started_at is None:
        locked.started_at = now
    if step.after.get("finished"):
        locked.status = Table.Status.FINISHED
        locked.finished_at = locked.finished_at or now
    else:
        locked.status = Table.Status.ACTIVE
        locked.finished_at = None
    for derived in kept.KEPT:
        derived.advance(locked, step)
    # The row's UPDATE alone: a model's save would check and announce what nobody here needs
    # (no signal listens to a table's save), at a cost a move's answer feels.
    fields = ["last_seq", "started_at", "status", "finished_at", *kept.fields()]
    Table.objects.filter(pk=locked.pk).update(**{name: getattr(locked, name) for name in fields})
    push.announce(locked.pk, locked.version)  # once committed, the screens hear of it


def bump_version(table: Table) -> None:
    """Tell the pages that follow ``table`` to refresh: one more on its version.

    Every row of the log adds its one in ``store``'s own UPDATE (``kept.Version``); any other
    change people must see (a reveal step, a restarted timer, a revoked seat link...) calls
    this, in the transaction of that change, and is counted in ``bumps`` too (so the version
    can be told again from the log: rows + bumps). The database adds the one (an F()
    update), so two writers never lose a step; ``table.version`` is set to the new value when
    the caller holds the row's lock (the write path does), and is a best guess otherwise.
    """
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1, bumps=F("bumps") + 1)
    push.announce(table.pk)  # the row's version once committed (this one may be a guess)
    table.version = (table.version or 0) + 1
    table.bumps = (table.bumps or 0) + 1


def play_many(
    table: Table,
    moves: list[dict[str, Any]],
    expected_seq: int | None,
    user: Sender = None,
    at: datetime | None = None,
    *,
    expected_turn: str | None = None,
    client_id: str | None = None,
    stamps: Sequence[datetime | None] | None = None,
) -> list[Played]:
    """Apply several moves in order, in one transaction under one lock: all or nothing.

    ``expected_seq`` is the table's seq before the first move (``expected_turn`` the turn
    of moves that are all independent, see ``validating``). A refused move raises its IllegalMove
    (with ``index``, its place in ``moves``) and nothing is written, the moves before it
    included; StaleMove likewise. ``client_id`` names the whole batch (its first row keeps
    it, the next ones ``id/2``, ``id/3``...): a batch sent again is answered with the rows
    it stored, whatever ``moves`` holds by then. ``stamps`` (an import's) gives each move its
    own time, one per move (None: ``at``, else now).
    """
    if stamps is not None and len(stamps) != len(moves):
        raise ValueError("one stamp per move")
    client_id = validating.check_client_id(client_id)
    return _under_lock(
        table,
        None,
        lambda locked: _play_locked(
            table, locked, moves, expected_seq, user, at, expected_turn, client_id, stamps
        ),
    )


class Sent(Protocol):
    """A move as a request sent it, with what steers its writing (``games.forms.Posted``)."""

    move: dict[str, Any]
    expected_seq: int | None
    expected_turn: str | None
    client_id: Any


def play_sent(
    table: Table,
    read: Callable[[Game], Sent],
    user: Sender = None,
    *,
    rows: QuerySet[Table] | None = None,
) -> Played:
    """Apply one move that is read once the row is locked, so that the write path's locking
    read is the only read of the table a move's request makes: ``read(referee)`` reads the
    move as the table's game declares its fields (IllegalMove when it cannot: nothing is
    written). ``rows``: the tables the sender may write to, and what to load beside the row
    (``lock``); ``table`` need hold no more than its pk, and gets the row as written (the
    related objects ``rows`` loaded too), as after ``play_many``."""

    def write(locked: Table) -> list[Played]:
        sent = read(get_game(locked.game))
        client_id = validating.check_client_id(sent.client_id)
        return _play_locked(
            table,
            locked,
            [sent.move],
            sent.expected_seq,
            user,
            None,
            sent.expected_turn,
            client_id,
            None,
        )

    return _under_lock(table, rows, write)[0]


def _under_lock(
    table: Table, rows: QuerySet[Table] | None, write: Callable[[Table], list[Played]]
) -> list[Played]:
    """``write(locked)`` in one transaction under the table's lock (``lock``), then the
    caller's copy of the table brought to the row as written, unless nothing was (a resend)."""
    with transaction.atomic():
        locked = lock(table, rows)
        played = write(locked)
    if played and not played[0].resent:
        refresh(table, locked)
    return played


def _play_locked(
    table: Table,
    locked: Table,
    moves: list[dict[str, Any]],
    expected_seq: int | None,
    user: Sender,
    at: datetime | None,
    expected_turn: str | None,
    client_id: str | None,
    stamps: Sequence[datetime | None] | None,
) -> list[Played]:
    """``play_many``'s work once the row is locked (``locked``, in its transaction)."""
    setup = reading.setup_for_play(locked)
    stored = resent(table, locked, setup, client_id)
    if stored:
        return stored
    referee = get_game(locked.game)
    first = state = reading.state_of(locked)
    validating.check_position(locked, referee, first, moves, expected_seq, expected_turn)
    guard = table_guard(locked)  # a table setting outside the script
    if guard is not None:
        guard(locked, first, moves, timezone.now())
    judged: list[tuple[dict[str, Any], str, dict[str, Any]]] = []
    for index, move in enumerate(moves):
        try:
            payload, text = validating.clean_move(move)
            state = validating.judge(referee, setup, state, payload)
        except IllegalMove as exc:
            exc.index = index
            raise
        judged.append((payload, text, state))
    if not judged:
        return []
    now = timezone.now()
    entered_by = user if user is not None and user.is_authenticated else None
    rows = [
        Move(
            table=locked,
            seq=locked.last_seq + i,
            payload=payload,
            text=text,
            at=(stamps[i - 1] if stamps is not None else None) or at or now,
            entered_by=entered_by,
            client_id=row_id(client_id, i),
        )
        for i, (payload, text, _after) in enumerate(judged, start=1)
    ]
    # One INSERT for a batch (an import's hundreds of moves, not a statement each); both
    # engines give the new rows their ids back (RETURNING), which the answers carry.
    Move.objects.bulk_create(rows)
    played = [Played(row, after) for row, (_p, _t, after) in zip(rows, judged, strict=True)]
    befores = [first] + [after for _payload, _text, after in judged[:-1]]
    step = kept.Step(
        [kept_story.Told(p.move, b, p.state) for p, b in zip(played, befores, strict=True)],
        setup,
        lambda: reading.live_moves(locked),
    )
    if locked.draft and any(text for _payload, text, _after in judged):
        locked.draft = ""
        locked.save(update_fields=["draft"])
    store(locked, step, now)
    after_move(locked, first, state)
    return played


def table_guard(table: Table) -> Callable[..., None] | None:
    """The game's ``table_guard`` when it can refuse a move at ``table`` (the kit's
    ``guarded`` says at which tables: the contest's minute only at a strict one), else None."""
    kit = registry.kit(table.game)
    if kit.table_guard is None or (kit.guarded is not None and not kit.guarded(table)):
        return None
    return kit.table_guard


def row_id(client_id: str | None, i: int) -> str | None:
    """The id of the ``i``-th row (from 1) of a batch named ``client_id``: a client's own ids
    never hold a ``/`` (``validating.CLIENT_ID``), so these never meet one of them."""
    if client_id is None:
        return None
    return client_id if i == 1 else f"{client_id}/{i}"


def resent(table: Table, locked: Table, setup: Setup, client_id: str | None) -> list[Played]:
    """A batch sent again: the rows it stored (``table`` brought up to the locked row), or
    empty when ``client_id`` is None or names nothing stored, and the batch is new."""
    if client_id is None:
        return []
    stored = stored_answer(locked, setup, client_id)
    if stored:
        refresh(table, locked)
    return stored


def stored_answer(locked: Table, setup: Setup, client_id: str) -> list[Played]:
    """The rows a batch named ``client_id`` stored, each with the state just after it; empty
    when nothing of that name is stored."""
    first = locked.moves.filter(client_id=client_id).first()
    if first is None:
        return []
    rows = [first, *locked.moves.filter(client_id__startswith=f"{client_id}/")]
    return [
        Played(row, reading.state_after(locked, setup, row.seq), resent=True)
        for row in sorted(rows, key=lambda row: row.seq)
    ]


def undo(
    table: Table, expected_seq: int | None, user: Sender = None, *, client_id: str | None = None
) -> Played:
    """Take back the last live move. The undo is itself a row of the log (an undo sent again
    with its ``client_id`` is answered with that row, and takes back nothing more)."""
    client_id = validating.check_client_id(client_id)
    with transaction.atomic():
        locked = lock(table)
        setup = reading.setup_of(locked)
        stored = resent(table, locked, setup, client_id)
        if stored:
            return stored[0]
        validating.check_seq(locked, expected_seq)
        moves = reading.live_moves(locked)
        if not moves:
            raise validating.NothingToUndo()
        before = reading.state_of(locked)
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
            client_id=client_id,
        )
        live = moves[:-1]
        # An undo tells the story again from the log (the narrator only goes forward); telling
        # it replays the live moves, so their state comes from that same replay (the story's
        # advance below then finds it told). A game without a narrator replays them here.
        told = kept_story.retell(locked, setup, live, seq, save=False)
        state = told if told is not None else reading.rebuild_state(locked, live, setup)
        step = kept.Step([kept_story.Told(row, before, state)], setup, lambda: live, undo=True)
        store(locked, step, now)
        after_move(locked, before, state)
        if not moves[:-1]:
            locked.started_at = None
            locked.save(update_fields=["started_at"])
    refresh(table, locked)
    return Played(row, state)


def after_move(table: Table, before: dict[str, Any], after: dict[str, Any]) -> None:
    """Announce a table's end, or its undoing, in the same transaction as the move (what
    follows it lives with the features that listen: ``games.signals``)."""
    if bool(before.get("finished")) != bool(after.get("finished")):
        kit = registry.kit(table.game)
        signals.finished_changed.send(sender=kit, table=table, before=before, after=after)


def refresh(table: Table, locked: Table) -> None:
    """Bring the caller's copy of the table to the row as the write path left it, every field:
    a view that read nothing of the row before the write (``play_sent``, see
    ``games.views.table_move``) draws its answer from the row as written, not read again."""
    for field in Table._meta.concrete_fields:
        setattr(table, field.attname, getattr(locked, field.attname))
    # and what was loaded beside the row (``play_sent``'s ``rows``: a game's related rows)
    table._state.fields_cache.update(locked._state.fields_cache)


def current_story(table: Table) -> None:
    """Make the kept story so far of ``table`` current (a table kept before that cache, or
    one whose cache was dropped): told again under the table's lock, so that a move made
    meanwhile is neither lost nor told twice. Nothing to do, and no query, when current.
    A write (a command, a test), never a page's GET: a page tells a story that is not current
    in memory and stores nothing (``Snapshot``, ``reading.story_facts``)."""
    if kept_story.is_current(table):
        return
    with transaction.atomic():
        locked = lock(table)
        if not kept_story.is_current(locked):
            kept_story.retell(locked, reading.setup_of(locked), reading.live_moves(locked))
    refresh(table, locked)
