"""The answer timer: about a minute for everyone to match the bard's story (the seed sets no
limit but advises stopping after about a minute). A soft signal only: it never answers for
anyone and never stops an answer.

A turn's timer runs from the bard's ``tell`` as the server stored it, or from the game
master's last restart during that turn (``AnswerTimer``); each page carries the moment it
ends and the countdown (``static/amnesia_stories/timer.js``) counts to it, so a reload, the
projector and another screen all show the same time.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.amnesia_stories.models import AnswerTimer
from games.models import Table
from games.services import writing

DEFAULT_SECONDS = 60
MAX_SECONDS = 600


def _row(table: Table) -> AnswerTimer | None:
    """The table's timer row: read once per table object and kept on it, or already loaded
    with the table (the kit's ``table_related``)."""
    try:
        return table.answer_timer
    except AnswerTimer.DoesNotExist:
        return None


def seconds_of(table: Table) -> int:
    row = _row(table)
    return row.seconds if row is not None else DEFAULT_SECONDS


def told_at(entries: Sequence[dict[str, Any]], turn_number: int) -> datetime | None:
    """When the bard of ``turn_number`` told their story, from the kept story so far (its
    entry keeps the ``tell``'s time), so no page reads the log for it."""
    for entry in reversed(entries):
        if entry.get("turn") == turn_number:
            at = entry.get("at")
            return parse_datetime(at) if isinstance(at, str) else at
    return None


def set_seconds(table: Table, seconds: int) -> AnswerTimer:
    if not 0 <= seconds <= MAX_SECONDS:
        raise ValueError(seconds)
    row, _created = AnswerTimer.objects.update_or_create(table=table, defaults={"seconds": seconds})
    table.answer_timer = row
    writing.bump_version(table)  # every screen draws the new length
    return row


def restart(table: Table, turn_number: int) -> AnswerTimer:
    """Start this turn's timer again from now."""
    row, _created = AnswerTimer.objects.update_or_create(
        table=table, defaults={"restarted_turn": turn_number, "restarted_at": timezone.now()}
    )
    table.answer_timer = row
    writing.bump_version(table)  # every screen starts counting again
    return row


def info(
    table: Table, seen: dict[str, Any], entries: Sequence[dict[str, Any]]
) -> dict[str, Any] | None:
    """What the pages show of the timer: None outside the answers or with the timer off.
    ``entries``: the story so far (its last entries are enough: the turn being answered)."""
    if seen.get("phase") != "answer":
        return None
    row = _row(table)
    seconds = row.seconds if row is not None else DEFAULT_SECONDS
    if not seconds:
        return None
    started = None
    if row is not None and row.restarted_turn == seen["turn_number"] and row.restarted_at:
        started = row.restarted_at
    else:
        started = told_at(entries, seen["turn_number"])
    if started is None:
        return None
    ends = started + timedelta(seconds=seconds)
    return {
        "seconds": seconds,
        # The page carries the end as a time, not the seconds left at the moment it was
        # drawn: every screen and every reload of the same turn is the same page.
        "ends_ms": int(ends.timestamp() * 1000),
        "done": timezone.now() >= ends,
        # changes with each start, so a screen that polls knows to draw it again
        "key": f"{seen['turn_number']}-{int(started.timestamp())}-{seconds}",
    }
