"""New tables: from a set-up (``create_table``) or from a game script (``import_script``).

A script is checked whole before anything is written; its moves are then played through
the one write path (``games.services.writing``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from amnesia_site import lists
from games import languages, registry
from games import story as kept_story
from games.models import Seat, Table
from games.rules import BadScript, IllegalMove, get_game
from games.rules.errors import N_
from games.rules.script import (
    holds_nul,
    misfit_field,
    parse_script,
    parse_setup,
    replay,
    rules_part,
    undeclared_fields,
)
from games.rules.setup import Setup
from games.services import reading, validating, writing

if TYPE_CHECKING:
    from django.contrib.auth.models import User


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
    validating.check_storable(setup, name)
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
        table.state = get_game(setup.game).initial_state(reading.setup_of(table))
        kept_story.retell(table, reading.setup_of(table), [], 0, save=False)
        table.save(update_fields=["state", "story_cursor", "story_seq"])
    return table


def default_name(setup: Setup) -> str:
    """The game's name as people say it, in the active language (the view makes a table in
    its own language), and the players' (the referee's title is English: a Japanese table was
    "Contest：さくら、けんた")."""
    title = str(registry.title(setup.game) or get_game(setup.game).title or setup.game)
    name = f"{title}{lists.colon()}" + lists.listing(setup.players)
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
    said = setup.extra.pop(reading.LANGUAGE_KEY, None)
    language = languages.normalise(said) if isinstance(said, str) else None
    referee = get_game(setup.game)
    for index, move in enumerate(moves):
        extra = undeclared_fields(referee, move) if validating.verb(move) in referee.moves else []
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
    stamps = [move_stamp(move, i) for i, move in enumerate(moves)]
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
        plays = [{k: v for k, v in move.items() if k != "at"} for move in moves]
        if writing.table_guard(table) is None:
            # One batch: the state and the story are read and stored once, not once a move
            # (a thousand moves took seconds of JSON alone).
            writing.play_many(table, plays, None, owner, stamps=stamps)
        else:
            # A guard judges each move at its own place in the log (the contest's strict
            # minute reads the times of the moves stored before it).
            for move, stamp in zip(plays, stamps, strict=True):
                writing.play_many(table, [move], None, owner, at=stamp)
        first = table.moves.order_by("seq").first()
        if first is not None:
            table.started_at = first.at
            last = table.moves.order_by("seq").last()
            if last is not None and table.status == Table.Status.FINISHED:
                table.finished_at = last.at
            table.save(update_fields=["started_at", "finished_at"])
    return table


def move_stamp(move: dict[str, Any], index: int) -> datetime | None:
    """The time a script's move carries in its ``at`` (an aware time, UTC when it names no
    zone), or None when it has none; BadScript when ``at`` is not an ISO 8601 time."""
    raw = move.get("at")
    try:
        stamp = parse_datetime(raw) if isinstance(raw, str) else None
    except ValueError:  # well formed, but no such time (a 13th month)
        stamp = None
    if raw is not None and stamp is None:
        raise BadScript(
            N_("Move {move} has an 'at' that is not an ISO 8601 time."), index, move=index
        )
    if stamp is not None and timezone.is_naive(stamp):
        stamp = timezone.make_aware(stamp, UTC)
    return stamp
