"""Writes to a table beside its log: a seat's new secret link, the narration being typed.

Neither is a move (the log does not keep them); both take the table's lock, as a move does,
so that a move and one of them never cross.
"""

from __future__ import annotations

from django.db import transaction

from games.models import Seat, Table, new_token
from games.rules import IllegalMove
from games.rules.errors import N_
from games.services import validating, writing


def reissue_seat_link(table: Table, position: int) -> Seat:
    """A new secret link for the seat at ``position``, in place of the old one.

    The old link stops working at once (a phone that kept it now finds nothing, and asking
    again counts as guessing: ``amnesia_site.throttle``), and the pages that follow the table
    refresh, since the links and codes they show have changed. Raises ``Seat.DoesNotExist``.
    """
    with transaction.atomic():
        locked = writing.lock(table)
        seat = Seat.objects.select_for_update().get(table=locked, position=position)
        seat.token = new_token()
        seat.save(update_fields=["token"])
        writing.bump_version(locked)
    table.version = locked.version
    return seat


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
        Table.objects.filter(pk=table.pk).update(draft=text[: validating.MAX_TEXT])
        return True
    with transaction.atomic():
        locked = writing.lock(table)
        if locked.moves.filter(seq__gt=seen_seq).exclude(text="").exists():
            return False
        Table.objects.filter(pk=locked.pk).update(draft=text[: validating.MAX_TEXT])
    return True
