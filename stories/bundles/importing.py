"""Bringing a bundle in for its importer, all or nothing: each new table through the one write
path (judged again), a table here already extended when its log is the start of the
bundle's, its story, edits and playtest report with it (see ``stories.bundles``).
"""

from __future__ import annotations

import itertools
import uuid as uuid_module
from datetime import UTC
from typing import Any

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from games import exports, registry
from games.images import ImageRefused
from games.messages import error_message
from games.models import Move, Ruleset, Seat, Table
from games.playtests.models import FREE_TEXTS, RATINGS, Impression, PlaytestReport
from games.playtests.service import ensure_report
from games.rules import BadScript, IllegalMove
from games.rules.errors import N_
from games.rules.script import DECK_LEFT_OUT, parse_script, rules_part
from games.services import reading, validating, writing
from games.services.new_tables import move_stamp
from stories.bundles.format import BundleError
from stories.bundles.people import People
from stories.bundles.reading import read_bundle
from stories.bundles.summary import Summary
from stories.covers import strip_cover
from stories.models import NarrationEdit, Story, Tag
from stories.services import refresh_search_text


# -- import -------------------------------------------------------------------------------
def _moment(value: str | None):
    if value is None:
        return None
    parsed = parse_datetime(value)
    return timezone.make_aware(parsed, UTC) if timezone.is_naive(parsed) else parsed


def _ruleset_names(name: str, owner) -> Any:
    """The names a bundle's ruleset may take here: its own, then (when someone else has a
    ruleset of that name and version) the same followed by the importer's username."""
    yield name
    length = Ruleset._meta.get_field("name").max_length
    for n in itertools.count(1):
        tail = f" · {owner.get_username()}" + (f" {n}" if n > 1 else "")
        yield name[: length - len(tail)] + tail


def _ruleset(data: dict | None, people: People) -> Ruleset | None:
    """The ruleset a bundle's table played: one of the site's own (built in) as it is, else one
    the owner has here of the same game, name and version, else a new one of theirs. Never
    another designer's: a bundle does not feed someone else's playtest reports."""
    if data is None:
        return None
    owner = people.owner(data.get("owner"))
    same = Ruleset.objects.filter(game=data["game"], version=data["version"])
    builtin = same.filter(builtin=True, name=data["name"]).first()
    if builtin is not None:
        return builtin
    for name in _ruleset_names(data["name"], owner):
        existing = same.filter(name=name).first()
        if existing is None:
            return Ruleset.objects.create(
                game=data["game"],
                name=name,
                version=data["version"],
                options=data["options"],
                changelog=data["changelog"],
                owner=owner,
                created_by=owner,
            )
        if existing.owner_id == owner.pk:
            return existing
    raise AssertionError("unreachable")  # pragma: no cover: the names never run out


def _does_not_replay(data: dict, error) -> BundleError:
    return BundleError(
        _("The table “%(name)s” in the bundle does not replay: %(error)s")
        % {"name": data["name"][:80], "error": error_message(error)}
    )


def _import_table(data: dict, files: dict[str, bytes], people: People, summary: Summary) -> None:
    owner = people.owner(data["owner"])
    try:
        imported = exports.import_script(data["script"], owner, data["name"])
    except (BadScript, IllegalMove, ValueError, TypeError, KeyError) as exc:
        # A hostile script may fail in ways no exported one does: refused all the same.
        raise _does_not_replay(data, exc) from None
    table = imported.table
    summary.left_out += imported.left_out
    # Nobody here typed these moves: the history names each move's player, not an account.
    Move.objects.filter(table=table).update(entered_by=None)
    table.uuid = uuid_module.UUID(data["uuid"])
    table.ruleset = _ruleset(data["ruleset"], people)
    times = {k: _moment(data[k]) for k in ("started_at", "finished_at") if data.get(k)}
    for key, value in times.items():
        setattr(table, key, value)
    table.save(update_fields=["uuid", "ruleset", *times])
    if data.get("created_at"):
        Table.objects.filter(pk=table.pk).update(created_at=_moment(data["created_at"]))
    seats = {s.position: s for s in table.seats.all()}
    for seat in data["seats"]:
        found = seats.get(seat["position"])
        if found is None:
            raise BundleError(_("A seat in the bundle is not at its table."))
        found.alias = seat["alias"]
        found.user = people.account(seat.get("user"))
        found.save(update_fields=["alias", "user"])
    carry = registry.kit(table.game).carry
    if carry is not None:
        try:
            brought = carry.bring(table, data.get("carried"), files, people.owners)
        except ValueError as exc:
            raise _does_not_replay(data, exc) from None
        summary.files.extend(brought.files)
        summary.decks += brought.decks
        summary.characters += brought.characters
    seqs = [m.seq for m in reading.live_moves(table)]
    if data["story"] is not None:
        _import_story(table, data, seqs, files, people, summary)
    if data["report"] is not None:
        _import_report(table, data["report"], seats, summary)
    summary.tables.append(table.name)


def _import_story(table, table_data, seqs, files, people: People, summary) -> None:
    data = table_data["story"]
    # The game master as the bundle names them, unless they are linked to the owner.
    master = data.get("game_master", "")
    if not master and people.account(table_data["owner"]) is None:
        master = people.name(table_data["owner"])
    # Private, whatever the bundle says: the importer decides who may read it here.
    story = Story.objects.create(
        table=table,
        title=data["title"],
        subtitle=data["subtitle"],
        blurb=data["blurb"],
        language=data["language"],
        visibility=Story.Visibility.PRIVATE,
        published_at=None,
        game_master_name=master[:150],
    )
    story.tags.set(Tag.for_names(data["tags"]))
    made = _import_edits(story, data["edits"], seqs, people)
    if data["cover"] is not None:
        # Made safe as an uploaded cover is (re-encoded from its pixels: no EXIF, no GPS, no
        # bytes hidden after the picture); a cover this site kept is never refused for its size.
        try:
            cover = strip_cover(files[data["cover"]], min_side=1)
        except ImageRefused:
            raise BundleError(_("A cover in the bundle is not a picture.")) from None
        story.cover.save("cover.jpg", ContentFile(cover), save=False)
        summary.files.append(story.cover.name)
    story.save()
    if data.get("created_at"):
        Story.objects.filter(pk=story.pk).update(created_at=_moment(data["created_at"]))
    # The archive's search text follows the book, as for any story.
    refresh_search_text(Story.objects.get(pk=story.pk))
    summary.stories += 1
    summary.edits += made


def _import_edits(story: Story, edits: list, seqs: list[int], people: People) -> int:
    """The bundle's edits of the story that it does not have yet (the same move, text, kind
    and time: an extended table's story takes only the new ones); returns how many were
    written."""
    here = {(e.move_seq, e.text, e.kind, e.created_at): e for e in story.edits.all()}
    made: dict[int, NarrationEdit] = {}
    written = 0
    for index, edit in enumerate(edits):
        if not 0 <= edit["move"] < len(seqs):
            raise BundleError(_("A story in the bundle edits a move its table does not have."))
        when = _moment(edit.get("created_at"))
        known = here.get((seqs[edit["move"]], edit["text"], edit["kind"], when))
        if known is not None:
            made[index] = known
            continue
        editor = people.account(edit.get("editor"))
        name = "" if editor else people.name(edit.get("editor")) or edit.get("editor_name", "")
        row = NarrationEdit.objects.create(
            story=story,
            move_seq=seqs[edit["move"]],
            text=edit["text"],
            kind=edit["kind"],
            restores=made.get(edit["restores"]) if edit["restores"] is not None else None,
            editor=editor,
            editor_name=name[:150],
        )
        if when is not None:
            NarrationEdit.objects.filter(pk=row.pk).update(created_at=when)
        made[index] = row
        written += 1
    return written


def _import_report(table, data, seats: dict[int, Seat], summary: Summary) -> None:
    report, _created = PlaytestReport.objects.get_or_create(table=table)
    report.place = data["place"]
    report.save(update_fields=["place"])
    for impression in data["impressions"]:
        Impression.objects.create(
            report=report,
            seat=seats.get(impression["seat"]) if impression["seat"] is not None else None,
            player=impression["player"],
            **{key: impression[key] for key, _label in RATINGS},
            **{key: impression[key] for key, _label in FREE_TEXTS},
        )
        summary.impressions += 1
    ensure_report(Table.objects.get(pk=table.pk))
    summary.reports += 1


def _deck_left_out(data: dict) -> BundleError:
    return BundleError(
        _(
            "The table “%(name)s” in the bundle is in play and its deck was left out; export "
            "the bundle again when the game is over, or as the server's operator with "
            "`bundle export --with-secrets`."
        )
        % {"name": data["name"][:80]}
    )


def _disagrees(data: dict) -> BundleError:
    return BundleError(
        _(
            "The table “%(name)s” is here already with moves that differ from the bundle's: "
            "one of the two logs is not a continuation of the other."
        )
        % {"name": data["name"][:80]}
    )


def _text(move: dict) -> Any:
    """A script move's narration as the write path keeps it (stripped; none is "")."""
    text = move.get("text")
    if text is None:
        return ""
    return text.strip() if isinstance(text, str) else text


SETUP_KEYS = ("game", "players", "start", "options", "deck_mode", "seed", "deck")


def _extend_table(
    table: Table, data: dict, files: dict[str, bytes], people: People, summary: Summary
) -> None:
    """The bundle's table is this one, the importer's: when the log kept here is the start of
    the bundle's, the moves it adds are played through the write path (judged again); the
    same log, or the start of it (an earlier bundle), changes nothing; any other log refuses
    the bundle."""
    script = dict(data["script"])
    left_out = script.pop(exports.PENDING_KEY, 0)
    if isinstance(left_out, bool) or not isinstance(left_out, int) or left_out < 0:
        raise _does_not_replay(
            data, BadScript(N_("'pending_left_out' must be a whole number, 0 or more."))
        )
    try:
        setup, moves = parse_script(script)
    except (BadScript, ValueError, TypeError, KeyError) as exc:
        raise _does_not_replay(data, exc) from None
    here = reading.setup_of(table)
    if any(getattr(setup, key) != getattr(here, key) for key in SETUP_KEYS):
        raise _disagrees(data)
    kept = [(m.payload, m.text) for m in reading.live_moves(table)]
    theirs = [(rules_part(m), _text(m)) for m in moves[: len(kept)]]
    if theirs != kept[: len(moves)]:
        raise _disagrees(data)
    if len(moves) <= len(kept):
        # The same log, or an earlier bundle's (the start of the log kept): nothing to add.
        summary.already_there.append(data["name"])
        return
    for index, move in enumerate(moves[len(kept) :], start=len(kept)):
        try:
            stamp = move_stamp(move, index)
        except BadScript as error:
            raise _does_not_replay(data, error) from None
        try:
            writing.play_many(
                table,
                [{k: v for k, v in move.items() if k != "at"}],
                table.last_seq,
                None,
                at=stamp,
            )
        except (IllegalMove, validating.StaleMove, ValueError, TypeError, KeyError) as exc:
            raise _does_not_replay(data, exc) from None
    table.refresh_from_db()
    first, last = table.moves.order_by("seq").first(), table.moves.order_by("seq").last()
    if table.started_at is None and first is not None:
        table.started_at = first.at
    if table.status == Table.Status.FINISHED and table.finished_at is None:
        table.finished_at = last.at
    table.save(update_fields=["started_at", "finished_at"])
    # The story follows: the edits it does not have yet (or the whole story, new here), and
    # the playtest report when there is none here yet.
    seqs = [m.seq for m in reading.live_moves(table)]
    story = Story.objects.filter(table=table).first()
    if data["story"] is not None and story is None:
        _import_story(table, data, seqs, files, people, summary)
    elif data["story"] is not None:
        summary.edits += _import_edits(story, data["story"]["edits"], seqs, people)
        refresh_search_text(Story.objects.get(pk=story.pk))
    # (The move that ended the game here kept a report of its figures: nobody wrote in it.)
    here = PlaytestReport.objects.filter(table=table).first()
    if data["report"] is not None and (
        here is None or not (here.place or here.impressions.exists())
    ):
        _import_report(table, data["report"], {s.position: s for s in table.seats.all()}, summary)
    summary.extended.append(data["name"])
    summary.left_out += left_out


def import_bundle(data: bytes, owner, *, link_accounts: bool = False) -> Summary:
    """Bring a bundle's tables in for ``owner``, all or nothing (see the module)."""
    manifest, files = read_bundle(data)
    summary = Summary()
    try:
        _import_all(manifest, files, People(manifest, owner, link_accounts), summary)
    except BaseException:
        # The rows are rolled back; the files the storage already holds go too.
        for name in summary.files:
            default_storage.delete(name)
        raise
    return summary


def _import_all(
    manifest: dict[str, Any], files: dict[str, bytes], people: People, summary: Summary
) -> None:
    with transaction.atomic():
        known = {
            table.uuid: table
            for table in Table.objects.filter(uuid__in=[t["uuid"] for t in manifest["tables"]])
        }
        for data in manifest["tables"]:
            here = known.get(uuid_module.UUID(data["uuid"]))
            if here is not None and here.owner_id != people.owner(data["owner"]).pk:
                # Someone else's table: left alone, named by the bundle's own name for it.
                summary.others.append(data["name"])
            elif data["script"].get(DECK_LEFT_OUT, False) is not False:
                raise _deck_left_out(data)
            elif here is None:
                _import_table(data, files, people, summary)
            else:
                _extend_table(here, data, files, people, summary)
        if summary.changed:
            summary.names, summary.linked = people.listed()
        else:
            transaction.set_rollback(True)  # nothing came in: nothing is kept either
