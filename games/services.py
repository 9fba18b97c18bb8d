"""The one write path: every move, undo, new table and import goes through here.

``play`` locks the table, loads the cached state (or replays the log), asks the referee,
appends the move with ``seq = last + 1`` and commits, all in one transaction. On SQLite
the transaction is IMMEDIATE (settings), so a second writer waits for the first.

What a move may hold. A move is ``by``, ``do``, ``text``, ``at`` and the fields its verb
declares (``Game.fields``), each of its declared kind and within its limits
(``Field.fits``): anything else is refused (``bad_argument``), whoever sends it (a form, a
JSON request, a seat's page, an import), so the append-only log never keeps what the rules
do not read. No text of a move may hold a NUL character (PostgreSQL cannot store one; SQLite
is refused it too, so both engines keep the same log).

Resends. A client names each move it sends with an id of its own (``client_id``, unique
per table in the database). When the answer to a move is lost (a dropped connection, a
double tap), the client sends the same move with the same id again, and gets the stored
result as its answer: the move is never stored twice.

Which position a move is judged against. A move that depends on where the table is (almost
every move: it is the mover's turn, a challenge is open...) carries ``expected_seq``, the
log's length when the page was drawn; a stale one is refused (StaleMove, 409). Some moves
do not depend on one another: every player's answer to one Amnesia Stories story, the
suggestions in one Amnesia scene, the pretzels thrown at a contest's narrator. Several
people send them at once, so judging them by ``expected_seq`` would refuse all but the
first for nothing. Each referee lists those verbs (``Game.independent_moves``) and names the
turn they belong to (``Game.turn_marker``); a client sends that marker as
``expected_turn``, and a move of those verbs is judged against it instead (StaleTurn, 409,
once the turn is over). The generic code never names a game: it asks the referee.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Func, TextField, Value
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext

from games import languages, registry, signals
from games import story as kept_story
from games.models import Move, Seat, Table, new_token
from games.rules import BadScript, IllegalMove, get_game
from games.rules.base import N_, Game, Setup
from games.rules.script import (
    META_FIELDS,
    check_move_shape,
    holds_nul,
    misfit_field,
    parse_script,
    parse_setup,
    replay,
    rules_part,
    undeclared_fields,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    # Who sends a move: a player logged in, or nobody known (a seat's link, a command).
    Sender = User | AnonymousUser | None

MAX_TEXT = 20_000
# The database's limits on a set-up: a seat's name, a table's seed (a signed 64-bit column).
MAX_NAME = 60
SEED_RANGE = (-(2**63), 2**63 - 1)
# What a client's move id may look like: a UUID, or any short word of these characters.
CLIENT_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


class StaleMove(Exception):
    """The client's view of the table is out of date (HTTP 409)."""

    expected: int | str  # a move's seq here, a turn's marker in StaleTurn
    actual: int | str

    def __init__(self, expected: int, actual: int) -> None:
        self.expected = expected
        self.actual = actual
        super().__init__(
            gettext(
                "The table has moved on (you saw move %(expected)s, it is at move %(actual)s). "
                "Reload to see what changed; nothing was applied."
            )
            % {"expected": expected, "actual": actual}
        )


class StaleTurn(StaleMove):
    """The turn an independent move belongs to is over (HTTP 409)."""

    def __init__(self, expected: str, actual: str) -> None:
        self.expected = expected
        self.actual = actual
        Exception.__init__(
            self,
            gettext(
                "That turn is over: the table has moved on to the next one. "
                "Reload to see what changed; nothing was applied."
            ),
        )


class NothingToUndo(Exception):
    pass


# -- reading a table ------------------------------------------------------------------------
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


def _setup_for_play(table: Table) -> Setup:
    """The set-up, its players read from the cached state when it is current (the state's
    ``seats`` are the seats' names in order, as ``Game.initial_state`` copies them): a move
    need not read the seats."""
    if table.state is not None and table.state_seq == table.last_seq and "seats" in table.state:
        return setup_of(table, players=list(table.state["seats"]))
    return setup_of(table)


def live_moves(table: Table) -> list[Move]:
    """The moves in force: the log with every undone move taken out."""
    return _live(table.moves.order_by("seq"))


def _live(rows: Iterable[Move]) -> list[Move]:
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


# -- writing --------------------------------------------------------------------------------
@dataclass
class Played:
    move: Move
    state: dict[str, Any]
    # True when the move was stored already (a resend): its answer again, nothing written.
    resent: bool = False


def _clean_move(move: dict[str, Any]) -> tuple[dict[str, Any], str]:
    if not isinstance(move, dict):
        raise IllegalMove("bad_argument", N_("A move must be an object."))
    text = move.get("text")
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise IllegalMove("bad_argument", N_("The narration must be text."))
    when = move.get("at")  # a page's move is stamped when stored; an import passes its own
    if when is not None and not _is_time(when):
        raise IllegalMove("bad_argument", N_("'at' must be an ISO 8601 time."))
    if len(text) > MAX_TEXT:
        raise IllegalMove(
            "bad_argument",
            N_("The narration is limited to {limit} characters."),
            limit=MAX_TEXT,
        )
    if "\x00" in text:
        raise IllegalMove("bad_argument", N_("The narration cannot hold a NUL character."))
    return rules_part(move), text.strip()


def _is_time(value: Any) -> bool:
    try:
        return isinstance(value, str) and parse_datetime(value) is not None
    except ValueError:  # well formed, but no such time (a 13th month)
        return False


def _check_client_id(client_id: Any) -> str | None:
    if client_id is None or client_id == "":
        return None
    if not isinstance(client_id, str) or not CLIENT_ID.fullmatch(client_id):
        raise IllegalMove(
            "bad_argument",
            N_("The move's id is not one this site makes: reload the page and try again."),
        )
    return client_id


def _verb(move: dict[str, Any]) -> str | None:
    verb = move.get("do")
    return verb if isinstance(verb, str) else None


def _lock(table: Table) -> Table:
    """The table's row, locked until the transaction ends. On PostgreSQL the wait for it is
    bounded (settings.WRITE_LOCK_TIMEOUT_MS, for this transaction only): past it the lock is
    "not available", which the site answers 503 "busy, nothing applied" (amnesia_site.busy),
    as SQLite's busy timeout does. The timeout is set by the very statement that waits, in one
    round trip: its WHERE calls ``set_config(..., is_local => true)`` on the row, which
    PostgreSQL evaluates before it locks the row."""
    rows = Table.objects.select_for_update()
    if connection.vendor == "postgresql":
        timeout = Func(
            Value("lock_timeout"),
            Value(f"{settings.WRITE_LOCK_TIMEOUT_MS}ms"),
            Value(True),
            function="set_config",
            output_field=TextField(),
        )
        rows = rows.alias(lock_timeout=timeout).filter(lock_timeout__isnull=False)
    return rows.get(pk=table.pk)


def _check_seq(locked: Table, expected_seq: int | None) -> None:
    if expected_seq is not None and expected_seq != locked.last_seq:
        raise StaleMove(expected_seq, locked.last_seq)


def _check_position(
    locked: Table,
    referee: Game,
    state: dict[str, Any],
    moves: list[Any],
    expected_seq: int | None,
    expected_turn: str | None,
) -> None:
    """Moves of the referee's independent verbs sent with the turn they belong to are judged
    against that turn; every other move against the log's position (see the module's
    docstring)."""
    independent = bool(moves) and all(
        isinstance(m, dict) and _verb(m) in referee.independent_moves for m in moves
    )
    if expected_turn is not None and independent:
        actual = referee.turn_marker(state)
        if expected_turn != actual:
            raise StaleTurn(expected_turn, actual)
        return
    _check_seq(locked, expected_seq)


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
    locked.version = (locked.version or 0) + 1
    locked.save(
        update_fields=[
            "state",
            "state_seq",
            "last_seq",
            "started_at",
            "status",
            "finished_at",
            # the kept story so far, told by the same write (games.story)
            "story_cursor",
            "story_seq",
            # one more for the pages that follow the table (games.live): the row is locked
            # here, so the same UPDATE can say it (bump_version is for changes outside moves)
            "version",
        ]
    )


def bump_version(table: Table) -> None:
    """Tell the pages that follow ``table`` to refresh: one more on its version.

    Every move and undo adds its one in ``_store``'s own UPDATE; any other change people must
    see (a reveal step, a restarted timer, a revoked seat link...) calls this, in the
    transaction of that change. The
    database adds the one (an F() update), so two writers never lose a step; ``table.version``
    is set to the new value when the caller holds the row's lock (the write path does), and
    is a best guess otherwise.
    """
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    table.version = (table.version or 0) + 1


def reissue_seat_link(table: Table, position: int) -> Seat:
    """A new secret link for the seat at ``position``, in place of the old one.

    The old link stops working at once (a phone that kept it now finds nothing, and asking
    again counts as guessing: ``amnesia_site.throttle``), and the pages that follow the table
    refresh, since the links and codes they show have changed. Raises ``Seat.DoesNotExist``.
    """
    with transaction.atomic():
        locked = _lock(table)
        seat = Seat.objects.select_for_update().get(table=locked, position=position)
        seat.token = new_token()
        seat.save(update_fields=["token"])
        bump_version(locked)
    table.version = locked.version
    return seat


def play(
    table: Table,
    move: dict[str, Any],
    expected_seq: int | None,
    user: Sender = None,
    at: datetime | None = None,
    *,
    expected_turn: str | None = None,
    client_id: str | None = None,
) -> Played:
    """Apply one move. Raises IllegalMove (nothing written) or StaleMove (nothing written);
    a move whose ``client_id`` is stored already is answered with what was stored."""
    return play_many(
        table, [move], expected_seq, user, at=at, expected_turn=expected_turn, client_id=client_id
    )[0]


def play_many(
    table: Table,
    moves: list[dict[str, Any]],
    expected_seq: int | None,
    user: Sender = None,
    at: datetime | None = None,
    *,
    expected_turn: str | None = None,
    client_id: str | None = None,
) -> list[Played]:
    """Apply several moves in order, in one transaction under one lock: all or nothing.

    ``expected_seq`` is the table's seq before the first move (``expected_turn`` the turn
    of moves that are all independent, see above). A refused move raises its IllegalMove
    (with ``index``, its place in ``moves``) and nothing is written, the moves before it
    included; StaleMove likewise. ``client_id`` names the whole batch (its first row keeps
    it, the next ones ``id/2``, ``id/3``...): a batch sent again is answered with the rows
    it stored, whatever ``moves`` holds by then.
    """
    client_id = _check_client_id(client_id)
    with transaction.atomic():
        locked = _lock(table)
        setup = _setup_for_play(locked)
        if client_id is not None:
            stored = _stored_answer(locked, setup, client_id)
            if stored:
                _refresh(table, locked)
                return stored
        referee = get_game(locked.game)
        first = state = state_of(locked)
        _check_position(locked, referee, first, moves, expected_seq, expected_turn)
        guard = registry.kit(locked.game).table_guard  # a table setting outside the script
        if guard is not None:
            guard(locked, first, moves, timezone.now())
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
                    client_id=_row_id(client_id, i),
                ),
                after,
            )
            for i, (payload, text, after) in enumerate(judged, start=1)
        ]
        befores = [first] + [after for _payload, _text, after in judged[:-1]]
        kept_story.advance(
            locked,
            [kept_story.Told(p.move, b, p.state) for p, b in zip(played, befores, strict=True)],
            setup,
            lambda: live_moves(locked),
        )
        if locked.draft and any(text for _payload, text, _after in judged):
            locked.draft = ""
            locked.save(update_fields=["draft"])
        # The one place a move is committed: the log's new rows, the state, the story.
        _store(locked, state, locked.last_seq + len(judged), now)
        _after_move(locked, first, state)
    _refresh(table, locked)
    return played


def _row_id(client_id: str | None, i: int) -> str | None:
    """The id of the ``i``-th row (from 1) of a batch named ``client_id``: a client's own ids
    never hold a ``/`` (CLIENT_ID), so these never meet one of them."""
    if client_id is None:
        return None
    return client_id if i == 1 else f"{client_id}/{i}"


def is_resend(table: Table, client_id: Any) -> bool:
    """Whether a move named ``client_id`` is stored at ``table`` already (a view that checks
    the table before playing asks, so that a resend reaches ``play`` and its stored answer)."""
    if not isinstance(client_id, str) or not CLIENT_ID.fullmatch(client_id):
        return False
    return table.moves.filter(client_id=client_id).exists()


def _stored_answer(locked: Table, setup: Setup, client_id: str) -> list[Played]:
    """The rows a batch named ``client_id`` stored, each with the state just after it; empty
    when nothing of that name is stored."""
    first = locked.moves.filter(client_id=client_id).first()
    if first is None:
        return []
    rows = [first, *locked.moves.filter(client_id__startswith=f"{client_id}/")]
    return [
        Played(row, _state_after(locked, setup, row.seq), resent=True)
        for row in sorted(rows, key=lambda row: row.seq)
    ]


def _state_after(locked: Table, setup: Setup, seq: int) -> dict[str, Any]:
    if seq == locked.last_seq:
        return state_of(locked)
    return rebuild_state(locked, _live(locked.moves.filter(seq__lte=seq).order_by("seq")), setup)


def _judge(
    referee: Game, setup: Setup, state: dict[str, Any], payload: dict[str, Any]
) -> dict[str, Any]:
    """The referee's new state after ``payload``, or its IllegalMove. A move is its verb's
    declared fields, each as declared, and nothing else (see the module's docstring)."""
    try:
        # What a script calls malformed (an unknown card code) is a bad field here.
        check_move_shape(setup, payload, 0)
    except BadScript as exc:
        raise IllegalMove("bad_argument", exc.template, **exc.params) from exc
    if holds_nul(payload):
        raise IllegalMove("bad_argument", N_("A move cannot hold a NUL character."))
    misfit = misfit_field(referee, payload)
    if misfit is not None:
        try:
            referee.apply(state, payload)
        except IllegalMove:
            raise  # the referee's own sentence says best what is wrong with the value
        except Exception:
            # A value of the wrong kind may trip the referee up (it reads declared values
            # only): the move is refused just below, whatever the referee made of it.
            pass
        raise IllegalMove(
            "bad_argument",
            N_("'{key}' holds a value that '{verb}' cannot take."),
            key=misfit,
            verb=payload["do"],
        )
    after = referee.apply(state, payload)
    extra = undeclared_fields(referee, payload)
    if extra:
        raise IllegalMove(
            "bad_argument",
            N_("'{verb}' reads no field called {names}: a move holds only the fields it reads."),
            verb=payload["do"],
            names=", ".join(repr(key[:40]) for key in extra[:5]),
        )
    return after


def undo(
    table: Table, expected_seq: int | None, user: Sender = None, *, client_id: str | None = None
) -> Played:
    """Take back the last live move. The undo is itself a row of the log (an undo sent again
    with its ``client_id`` is answered with that row, and takes back nothing more)."""
    client_id = _check_client_id(client_id)
    with transaction.atomic():
        locked = _lock(table)
        if client_id is not None:
            stored = _stored_answer(locked, setup_of(locked), client_id)
            if stored:
                _refresh(table, locked)
                return stored[0]
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
            client_id=client_id,
        )
        live = moves[:-1]
        state = rebuild_state(locked, live)
        # An undo tells the story again from the log (the narrator only goes forward).
        kept_story.retell(locked, setup_of(locked), live, seq, save=False)
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


def save_draft(table: Table, text: str, seen_seq: int | None = None) -> bool:
    """Keep the narration being typed; IllegalMove for text no move could hold either.

    ``seen_seq`` is the move the typing page showed. A save a narrated move has overtaken
    since (typed, then sent with a move before the save arrived) is dropped: kept, it would
    put the stored narration back in the box, to be stored again with the next move. Under
    the table's lock, so a move and a save never cross. False when dropped.
    """
    if "\x00" in text:
        raise IllegalMove("bad_argument", N_("The narration cannot hold a NUL character."))
    if seen_seq is None:
        Table.objects.filter(pk=table.pk).update(draft=text[:MAX_TEXT])
        return True
    with transaction.atomic():
        locked = _lock(table)
        if locked.moves.filter(seq__gt=seen_seq).exclude(text="").exists():
            return False
        Table.objects.filter(pk=locked.pk).update(draft=text[:MAX_TEXT])
    return True


def _refresh(table: Table, locked: Table) -> None:
    for field in (
        "state",
        "state_seq",
        "last_seq",
        "status",
        "started_at",
        "finished_at",
        "version",
        "story_cursor",
        "story_seq",
    ):
        setattr(table, field, getattr(locked, field))


def current_story(table: Table) -> None:
    """Make the kept story so far of ``table`` current (a table kept before that cache, or
    one whose cache was dropped): told again under the table's lock, so that a move made
    meanwhile is neither lost nor told twice. Nothing to do, and no query, when current."""
    if kept_story.is_current(table):
        return
    with transaction.atomic():
        locked = _lock(table)
        if not kept_story.is_current(locked):
            kept_story.retell(locked, setup_of(locked), live_moves(locked))
    _refresh(table, locked)


def create_table(
    owner: User,
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
    _check_storable(setup, name)
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
        kept_story.retell(table, setup_of(table), [], 0, save=False)
        table.save(update_fields=["state", "story_cursor", "story_seq"])
    return table


def _check_storable(setup: Setup, name: str) -> None:
    """What the rules accept but the database could not store: BadScript before any write."""
    if holds_nul([setup.players, setup.options, setup.deck, setup.extra, name]):
        raise BadScript(N_("The set-up holds a NUL character, which no text may hold."))
    if any(len(p) > MAX_NAME for p in setup.players):
        raise BadScript(N_("Player names are limited to {limit} characters."), limit=MAX_NAME)
    lo, hi = SEED_RANGE
    if not lo <= setup.seed <= hi:
        raise BadScript(N_("'seed' must be between {lo} and {hi}."), lo=lo, hi=hi)


def default_name(setup: Setup) -> str:
    title = get_game(setup.game).title or setup.game
    name = f"{title}: " + ", ".join(setup.players)
    # Eight long names run past the column (PostgreSQL refuses what SQLite would keep).
    limit = Table._meta.get_field("name").max_length
    assert limit is not None  # a CharField's
    return name if len(name) <= limit else name[: limit - 1] + "…"


def import_script(script: Any, owner: User, name: str = "") -> Table:
    """A new table from a game script, keeping every move's ``at`` and ``text``.

    The whole script is checked before anything is written, and written in one
    transaction: a script with an illegal move creates nothing.
    """
    if holds_nul(script):
        raise BadScript(N_("The script holds a NUL character, which no text may hold."))
    setup, moves = parse_script(script)
    # The table's language, not a set-up key; one this site does not speak leaves the default
    # (informational keys never refuse a script).
    said = setup.extra.pop(LANGUAGE_KEY, None)
    language = languages.normalise(said) if isinstance(said, str) else None
    referee = get_game(setup.game)
    for index, move in enumerate(moves):
        extra = undeclared_fields(referee, move) if _verb(move) in referee.moves else []
        if extra:
            # ``referee import`` takes such keys out first (and says which); a page refuses.
            raise BadScript(
                N_("Move {move}: '{verb}' reads no field called {names}."),
                index,
                move=index,
                verb=move["do"],
                names=", ".join(repr(key[:40]) for key in extra[:5]),
            )
        misfit = misfit_field(referee, move)
        if misfit is not None:
            raise BadScript(
                N_("Move {move}: '{key}' holds a value that '{verb}' cannot take."),
                index,
                move=index,
                key=misfit,
                verb=move["do"],
            )
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
        try:
            stamp = parse_datetime(raw) if isinstance(raw, str) else None
        except ValueError:  # well formed, but no such time (a 13th month)
            stamp = None
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
        if language:
            table.language = language
            table.save(update_fields=["language"])
        for move, stamp in zip(moves, stamps, strict=True):
            play(table, {k: v for k, v in move.items() if k != "at"}, None, owner, at=stamp)
        first = table.moves.order_by("seq").first()
        if first is not None:
            table.started_at = first.at
            last = table.moves.order_by("seq").last()
            if last is not None and table.status == Table.Status.FINISHED:
                table.finished_at = last.at
            table.save(update_fields=["started_at", "finished_at"])
    return table


__all__ = [
    "META_FIELDS",
    "NothingToUndo",
    "Played",
    "StaleMove",
    "StaleTurn",
    "bump_version",
    "create_table",
    "current_story",
    "import_script",
    "live_moves",
    "play",
    "play_many",
    "rebuild_state",
    "is_resend",
    "save_draft",
    "script_of",
    "setup_of",
    "state_of",
    "undo",
]
