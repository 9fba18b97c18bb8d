"""Bundles: a game master's tables carried from one site (a laptop at a playtest) to another.

A bundle is a zip holding ``bundle.json`` and, under ``files/``, the stories' covers and the
pictures the games carry. For each table it carries the game script (the set-up and the moves
in force, with their times and text: ``games.services.script_of``), the seats (their aliases
and users), the ruleset version played, the story with its whole edit history, the playtest
report's place and impressions, and the game's own part (``"carried"``, from its kit's
``carry``: an Amnesia Stories table's custom deck with its pictures, the contest's saved
characters). The playtest figures are not carried: they are a cache, recomputed on arrival.

Importing goes through the one write path (``games.services.import_script``: every move is
judged again by the referee), and is keyed by the table's stable UUID, so a table already
there is left alone and importing the same bundle twice changes nothing. People are named by
username: one the site knows is that user; any other is created inactive, with no password,
so nobody can sign in as them until an administrator says so.

A bundle is refused whole, with a message and nothing written (one transaction), when it is not
a zip or is cut short, is larger than the limits, names a file outside its own folders (an
absolute path, ``..``, a link), expands far beyond its size (a zip bomb), or holds JSON that is
broken or not the shape described here. Entries are read into memory by name, never extracted
to disk.
"""

from __future__ import annotations

import hashlib
import json
import re
import stat
import uuid as uuid_module
import zipfile
from dataclasses import dataclass, field
from datetime import UTC
from io import BytesIO
from pathlib import PurePosixPath
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from PIL import Image

from games import registry
from games import services as game_services
from games.images import ImageRefused, stored_bytes
from games.models import Ruleset, Seat, Table
from games.playtests.models import FREE_TEXTS, RATINGS, Impression, PlaytestReport
from games.playtests.service import ensure_report
from games.rules import BadScript, IllegalMove
from games.rules.script import holds_nul
from stories.covers import strip_cover
from stories.models import MAX_TAGS, NarrationEdit, Story, Tag
from stories.services import refresh_search_text

FORMAT = "amnesia-table-bundle"
VERSION = 1
MANIFEST = "bundle.json"
# Covers, and the pictures a game carries (a custom deck's: see GameKit.carry).
FILE_NAME = re.compile(r"^files/[0-9a-f]{32}\.(jpg|png|webp)$")
FILE_EXTENSIONS = {"jpg": "jpg", "jpeg": "jpg", "png": "png", "webp": "webp"}

# Limits (each can be set in settings): a bundle of many evenings' tables is a few megabytes.
LIMITS = {
    "BUNDLE_MAX_BYTES": 64 * 1024 * 1024,  # the zip itself
    "BUNDLE_MAX_ENTRIES": 2000,
    "BUNDLE_MAX_MANIFEST_BYTES": 32 * 1024 * 1024,
    "BUNDLE_MAX_FILE_BYTES": 10 * 1024 * 1024,  # one cover
    "BUNDLE_MAX_TOTAL_BYTES": 256 * 1024 * 1024,  # everything, uncompressed
    "BUNDLE_MAX_RATIO": 100,  # uncompressed / compressed, for entries over a megabyte
}


def limit(name: str) -> int:
    return int(getattr(settings, name, LIMITS[name]))


class BundleError(ValueError):
    """Why a bundle was refused (a sentence for the person who sent it)."""


@dataclass
class Summary:
    tables: list[str] = field(default_factory=list)  # the names of the tables added
    already_there: list[str] = field(default_factory=list)
    stories: int = 0
    edits: int = 0
    reports: int = 0
    impressions: int = 0
    users_created: list[str] = field(default_factory=list)
    users_found: list[str] = field(default_factory=list)
    decks: int = 0  # custom decks made (an identical one already here is used instead)
    characters: int = 0  # contest characters made (one its owner has here already is linked)
    # The covers written to storage (taken away again if the import is refused).
    files: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.tables)


# -- export -------------------------------------------------------------------------------
def _when(value) -> str | None:
    return value.isoformat() if value is not None else None


def _person(user, people: dict[str, dict[str, str]]) -> str | None:
    if user is None:
        return None
    people.setdefault(
        user.get_username(),
        {
            "username": user.get_username(),
            "first_name": user.first_name,
            "last_name": user.last_name,
        },
    )
    return user.get_username()


def _story_part(story: Story, seqs: dict[int, int], files: dict[str, bytes], people) -> dict:
    edits = list(story.edits.select_related("editor").order_by("pk"))
    index = {e.pk: i for i, e in enumerate(edits)}
    cover = None
    if story.cover:
        data = stored_bytes(story.cover)
        if data:
            extension = "png" if data[:8] == b"\x89PNG\r\n\x1a\n" else "jpg"
            cover = f"files/{uuid_module.uuid4().hex}.{extension}"
            files[cover] = data
    return {
        "title": story.title,
        "subtitle": story.subtitle,
        "language": story.language,
        "tags": story.tag_names(),
        "blurb": story.blurb,
        "visibility": story.visibility,
        "published_at": _when(story.published_at),
        "created_at": _when(story.created_at),
        "cover": cover,
        # Edits of moves no longer in force are left out: the book never shows them.
        "edits": [
            {
                "move": seqs[e.move_seq],
                "text": e.text,
                "kind": e.kind,
                "restores": index.get(e.restores_id),
                "editor": _person(e.editor, people),
                "created_at": _when(e.created_at),
            }
            for e in edits
            if e.move_seq in seqs
        ],
    }


def _report_part(table: Table) -> dict | None:
    try:
        report = table.playtest_report
    except PlaytestReport.DoesNotExist:
        return None
    return {
        "place": report.place,
        "impressions": [
            {
                "player": i.player,
                "seat": i.seat.position if i.seat_id else None,
                **{key: getattr(i, key) for key, _label in RATINGS},
                **{key: getattr(i, key) for key, _label in FREE_TEXTS},
            }
            for i in report.impressions.select_related("seat").order_by("player")
        ],
    }


def _carried(table: Table, add_file, person) -> dict | None:
    """The game's own part of the table (its kit's ``carry``), if it has one."""
    carry = registry.kit(table.game).carry if registry.is_game(table.game) else None
    return carry.export(table, add_file, person) if carry is not None else None


def export_bundle(tables) -> bytes:
    """The zip of the given tables (see the module)."""
    people: dict[str, dict[str, str]] = {}
    files: dict[str, bytes] = {}
    out_tables = []

    def add_file(data: bytes, extension: str) -> str | None:
        """A game's file in the bundle, named by its content (a deck shared by several
        tables travels once); None for a kind of file a bundle does not hold."""
        kind = FILE_EXTENSIONS.get(extension.lower())
        if kind is None:
            return None
        name = f"files/{hashlib.sha256(data).hexdigest()[:32]}.{kind}"
        files[name] = data
        return name

    def person(user) -> str | None:
        return _person(user, people)

    for table in tables.select_related("owner", "ruleset").prefetch_related("seats__user"):
        live = game_services.live_moves(table)
        # The script numbers the moves in force from 0; edits name their move by that index.
        seqs = {move.seq: i for i, move in enumerate(live)}
        ruleset = table.ruleset
        try:
            story = table.story
        except Story.DoesNotExist:
            story = None
        out_tables.append(
            {
                "uuid": str(table.uuid),
                "name": table.name,
                "owner": _person(table.owner, people),
                "created_at": _when(table.created_at),
                "started_at": _when(table.started_at),
                "finished_at": _when(table.finished_at),
                "script": game_services.script_of(table),
                "seats": [
                    {"position": s.position, "alias": s.alias, "user": _person(s.user, people)}
                    for s in table.seats.all()
                ],
                "ruleset": (
                    {
                        "game": ruleset.game,
                        "name": ruleset.name,
                        "version": ruleset.version,
                        "options": ruleset.options,
                        "changelog": ruleset.changelog,
                        "owner": _person(ruleset.owner, people),
                    }
                    if ruleset
                    else None
                ),
                "story": _story_part(story, seqs, files, people) if story else None,
                "report": _report_part(table),
                "carried": _carried(table, add_file, person),
            }
        )
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "people": sorted(people.values(), key=lambda p: p["username"]),
        "tables": out_tables,
    }
    out = BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1))
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


# -- reading a bundle safely --------------------------------------------------------------
def _safe_name(name: str) -> bool:
    if not name or "\\" in name or "\x00" in name or name.startswith("/") or ":" in name:
        return False
    path = PurePosixPath(name)
    return ".." not in path.parts and (name == MANIFEST or bool(FILE_NAME.match(name)))


def read_bundle(data: bytes) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The manifest and the files of a bundle, or a :class:`BundleError` saying why not."""
    if len(data) > limit("BUNDLE_MAX_BYTES"):
        raise BundleError(_("The bundle is larger than this site accepts."))
    try:
        archive = zipfile.ZipFile(BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError):
        raise BundleError(_("The file is not a bundle: it is not a whole zip file.")) from None
    if len(infos) > limit("BUNDLE_MAX_ENTRIES"):
        raise BundleError(_("The bundle holds more files than this site accepts."))
    total = 0
    for info in infos:
        if not _safe_name(info.filename) or stat.S_ISLNK(info.external_attr >> 16):
            raise BundleError(
                _("The bundle names a file outside its own folders: %(name)s")
                % {"name": info.filename[:80]}
            )
        ceiling = limit(
            "BUNDLE_MAX_MANIFEST_BYTES" if info.filename == MANIFEST else "BUNDLE_MAX_FILE_BYTES"
        )
        total += info.file_size
        ratio = info.file_size / max(info.compress_size, 1)
        if (
            info.file_size > ceiling
            or total > limit("BUNDLE_MAX_TOTAL_BYTES")
            or (info.file_size > 1024 * 1024 and ratio > limit("BUNDLE_MAX_RATIO"))
        ):
            raise BundleError(_("The bundle expands to more than this site accepts."))
    names = [i.filename for i in infos]
    if len(set(names)) != len(names):
        raise BundleError(_("The bundle holds the same file twice."))
    if MANIFEST not in names:
        raise BundleError(_("The bundle has no bundle.json."))
    contents = {}
    try:
        for info in infos:
            # Never more than the declared size is read (zipfile stops there, and checks the
            # CRC): a header that lies about the size gets a broken file, not a bigger one.
            with archive.open(info) as handle:
                contents[info.filename] = handle.read(info.file_size + 1)
            if len(contents[info.filename]) > info.file_size:
                raise BundleError(_("The bundle expands to more than this site accepts."))
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError, RuntimeError):
        # RuntimeError: an encrypted entry; NotImplementedError: an unknown compression.
        raise BundleError(_("The bundle is damaged: a file in it cannot be read.")) from None
    try:
        manifest = json.loads(contents.pop(MANIFEST).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        # RecursionError: arrays nested thousands deep, which no bundle has.
        raise BundleError(_("The bundle's bundle.json is not valid JSON.")) from None
    if holds_nul(manifest):
        # PostgreSQL stores no NUL in a text (SQLite would): refused on both, before any write.
        raise BundleError(_("The bundle holds a NUL character, which no text may hold."))
    _check_manifest(manifest, contents)
    return manifest, contents


# -- the shape of bundle.json -------------------------------------------------------------
def _fail(where: str) -> BundleError:
    return BundleError(
        _("The bundle's bundle.json is not as expected at %(where)s.") % {"where": where}
    )


def _is(value, kind, where: str, *, null: bool = False, max_length: int | None = None):
    if value is None and null:
        return
    if kind is int and isinstance(value, bool):
        raise _fail(where)
    if not isinstance(value, kind):
        raise _fail(where)
    if max_length is not None and len(value) > max_length:
        raise _fail(where)


def _time(value, where: str, *, null: bool = True):
    _is(value, str, where, null=null, max_length=40)
    if value is not None:
        try:
            parsed = parse_datetime(value)
        except ValueError:
            parsed = None
        if parsed is None:
            raise _fail(where)


def _username(value, where: str, people: set[str], *, null: bool = True):
    _is(value, str, where, null=null)
    if value is not None and value not in people:
        raise _fail(where)


def _check_manifest(manifest: Any, files: dict[str, bytes]) -> None:
    _is(manifest, dict, "the top")
    if manifest.get("format") != FORMAT or manifest.get("version") != VERSION:
        raise BundleError(_("The file is not a bundle this site can read (format or version)."))
    _is(manifest.get("people"), list, "people")
    people: set[str] = set()
    for i, person in enumerate(manifest["people"]):
        where = f"people[{i}]"
        _is(person, dict, where)
        for key in ("username", "first_name", "last_name"):
            _is(person.get(key), str, f"{where}.{key}", max_length=150)
        try:
            UnicodeUsernameValidator()(person["username"])
        except ValidationError:
            raise _fail(f"{where}.username") from None
        people.add(person["username"])
    _is(manifest.get("tables"), list, "tables")
    uuids = set()
    for t, table in enumerate(manifest["tables"]):
        where = f"tables[{t}]"
        _is(table, dict, where)
        try:
            uuids.add(uuid_module.UUID(str(table.get("uuid"))))
        except ValueError:
            raise _fail(f"{where}.uuid") from None
        _is(table.get("name"), str, f"{where}.name", max_length=120)
        _username(table.get("owner"), f"{where}.owner", people, null=False)
        for key in ("created_at", "started_at", "finished_at"):
            _time(table.get(key), f"{where}.{key}")
        _is(table.get("script"), dict, f"{where}.script")
        _is(table.get("seats"), list, f"{where}.seats")
        for s, seat in enumerate(table["seats"]):
            _is(seat, dict, f"{where}.seats[{s}]")
            _is(seat.get("position"), int, f"{where}.seats[{s}].position")
            _is(seat.get("alias"), str, f"{where}.seats[{s}].alias", max_length=60)
            _username(seat.get("user"), f"{where}.seats[{s}].user", people)
        ruleset = table.get("ruleset")
        _is(ruleset, dict, f"{where}.ruleset", null=True)
        if ruleset is not None:
            _is(ruleset.get("game"), str, f"{where}.ruleset.game", max_length=32)
            _is(ruleset.get("name"), str, f"{where}.ruleset.name", max_length=120)
            _is(ruleset.get("version"), int, f"{where}.ruleset.version")
            _is(ruleset.get("options"), dict, f"{where}.ruleset.options")
            _is(ruleset.get("changelog"), str, f"{where}.ruleset.changelog")
            _username(ruleset.get("owner"), f"{where}.ruleset.owner", people)
        _check_story(table.get("story"), f"{where}.story", people, files)
        _check_carried(table, where, people, files)
        _check_report(table.get("report"), f"{where}.report")
    if len(uuids) != len(manifest["tables"]):
        raise BundleError(_("The bundle holds the same table twice."))


def _check_carried(table: dict, where: str, people: set[str], files: dict[str, bytes]) -> None:
    """The game's part, if any: only a game with a ``carry`` has one (a bundle from before
    parts were carried has none)."""
    part = table.get("carried")
    if part is None:
        return
    game = table["script"].get("game")
    carry = registry.kit(game).carry if isinstance(game, str) and registry.is_game(game) else None
    if carry is None:
        raise _fail(f"{where}.carried")
    try:
        carry.check(part, files, people)
    except ValueError as exc:
        raise _fail(f"{where}.carried.{exc}") from None


def _check_story(story, where: str, people: set[str], files: dict[str, bytes]) -> None:
    _is(story, dict, where, null=True)
    if story is None:
        return
    _is(story.get("title"), str, f"{where}.title", max_length=160)
    _is(story.get("subtitle"), str, f"{where}.subtitle", max_length=200)
    _is(story.get("blurb"), str, f"{where}.blurb", max_length=2000)
    if story.get("language") not in Story.Language.values:
        raise _fail(f"{where}.language")
    if story.get("visibility") not in Story.Visibility.values:
        raise _fail(f"{where}.visibility")
    _is(story.get("tags"), list, f"{where}.tags")
    if len(story["tags"]) > MAX_TAGS:
        raise _fail(f"{where}.tags")
    for tag in story["tags"]:
        _is(tag, str, f"{where}.tags", max_length=40)
        if not tag.strip():
            raise _fail(f"{where}.tags")
    _time(story.get("published_at"), f"{where}.published_at")
    _time(story.get("created_at"), f"{where}.created_at")
    cover = story.get("cover")
    _is(cover, str, f"{where}.cover", null=True)
    if cover is not None:
        if cover not in files:
            raise _fail(f"{where}.cover")
        try:
            with Image.open(BytesIO(files[cover])) as image:
                image.verify()
        except Exception:  # Pillow raises many kinds: any of them means "not a picture"
            raise BundleError(_("A cover in the bundle is not a picture.")) from None
    _is(story.get("edits"), list, f"{where}.edits")
    for e, edit in enumerate(story["edits"]):
        at = f"{where}.edits[{e}]"
        _is(edit, dict, at)
        _is(edit.get("move"), int, f"{at}.move")
        _is(edit.get("text"), str, f"{at}.text", max_length=game_services.MAX_TEXT)
        if edit.get("kind") not in NarrationEdit.Kind.values:
            raise _fail(f"{at}.kind")
        restores = edit.get("restores")
        _is(restores, int, f"{at}.restores", null=True)
        if restores is not None and not 0 <= restores < e:
            raise _fail(f"{at}.restores")
        _username(edit.get("editor"), f"{at}.editor", people)
        _time(edit.get("created_at"), f"{at}.created_at")


def _check_report(report, where: str) -> None:
    _is(report, dict, where, null=True)
    if report is None:
        return
    _is(report.get("place"), str, f"{where}.place", max_length=120)
    _is(report.get("impressions"), list, f"{where}.impressions")
    players = set()
    for i, impression in enumerate(report["impressions"]):
        at = f"{where}.impressions[{i}]"
        _is(impression, dict, at)
        _is(impression.get("player"), str, f"{at}.player", max_length=60)
        if impression["player"] in players:
            raise _fail(f"{at}.player")
        players.add(impression["player"])
        _is(impression.get("seat"), int, f"{at}.seat", null=True)
        for key, _label in RATINGS:
            value = impression.get(key)
            _is(value, int, f"{at}.{key}")
            if not 1 <= value <= 5:
                raise _fail(f"{at}.{key}")
        for key, _label in FREE_TEXTS:
            _is(impression.get(key), str, f"{at}.{key}", max_length=2000)


# -- import -------------------------------------------------------------------------------
def _moment(value: str | None):
    if value is None:
        return None
    parsed = parse_datetime(value)
    return timezone.make_aware(parsed, UTC) if timezone.is_naive(parsed) else parsed


def _people(manifest: dict, summary: Summary) -> dict[str, Any]:
    users = get_user_model().objects
    found: dict[str, Any] = {}
    for person in manifest["people"]:
        name = person["username"]
        user = users.filter(username=name).first()
        if user is None:
            user = users.create(
                username=name,
                first_name=person["first_name"][:150],
                last_name=person["last_name"][:150],
                is_active=False,
            )
            user.set_unusable_password()
            user.save(update_fields=["password"])
            summary.users_created.append(name)
        else:
            summary.users_found.append(name)
        found[name] = user
    return found


def _ruleset(data: dict | None, people: dict[str, Any]) -> Ruleset | None:
    if data is None:
        return None
    existing = Ruleset.objects.filter(
        game=data["game"], name=data["name"], version=data["version"]
    ).first()
    if existing is not None:
        return existing
    return Ruleset.objects.create(
        game=data["game"],
        name=data["name"],
        version=data["version"],
        options=data["options"],
        changelog=data["changelog"],
        owner=people.get(data.get("owner")),
    )


def _import_table(data: dict, files: dict[str, bytes], people, summary: Summary) -> None:
    owner = people[data["owner"]]
    try:
        table = game_services.import_script(data["script"], owner, data["name"])
    except (BadScript, IllegalMove, ValueError, TypeError, KeyError) as exc:
        # A hostile script may fail in ways no exported one does: refused all the same.
        raise BundleError(
            _("The table “%(name)s” in the bundle does not replay: %(error)s")
            % {"name": data["name"][:80], "error": exc}
        ) from None
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
        found.user = people.get(seat.get("user"))
        found.save(update_fields=["alias", "user"])
    carry = registry.kit(table.game).carry
    if carry is not None:
        try:
            brought = carry.bring(table, data.get("carried"), files, people)
        except ValueError as exc:
            raise BundleError(
                _("The table “%(name)s” in the bundle does not replay: %(error)s")
                % {"name": data["name"][:80], "error": exc}
            ) from None
        summary.files.extend(brought.files)
        summary.decks += brought.decks
        summary.characters += brought.characters
    seqs = [m.seq for m in game_services.live_moves(table)]
    if data["story"] is not None:
        _import_story(table, data["story"], seqs, files, people, summary)
    if data["report"] is not None:
        _import_report(table, data["report"], seats, summary)
    summary.tables.append(table.name)


def _import_story(table, data, seqs, files, people, summary: Summary) -> None:
    story = Story.objects.create(
        table=table,
        title=data["title"],
        subtitle=data["subtitle"],
        blurb=data["blurb"],
        language=data["language"],
        visibility=data["visibility"],
        published_at=_moment(data["published_at"]),
    )
    story.tags.set(Tag.for_names(data["tags"]))
    made: list[NarrationEdit] = []
    for edit in data["edits"]:
        if not 0 <= edit["move"] < len(seqs):
            raise BundleError(_("A story in the bundle edits a move its table does not have."))
        row = NarrationEdit.objects.create(
            story=story,
            move_seq=seqs[edit["move"]],
            text=edit["text"],
            kind=edit["kind"],
            restores=made[edit["restores"]] if edit["restores"] is not None else None,
            editor=people.get(edit.get("editor")),
        )
        if edit.get("created_at"):
            NarrationEdit.objects.filter(pk=row.pk).update(created_at=_moment(edit["created_at"]))
        made.append(row)
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
    summary.edits += len(made)


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


def import_bundle(data: bytes) -> Summary:
    """Bring a bundle's tables in, all or nothing (see the module)."""
    manifest, files = read_bundle(data)
    summary = Summary()
    try:
        _import_all(manifest, files, summary)
    except BaseException:
        # The rows are rolled back; the files the storage already holds go too.
        for name in summary.files:
            default_storage.delete(name)
        raise
    return summary


def _import_all(manifest: dict[str, Any], files: dict[str, bytes], summary: Summary) -> None:
    with transaction.atomic():
        people = _people(manifest, summary)
        known = set(
            Table.objects.filter(uuid__in=[t["uuid"] for t in manifest["tables"]]).values_list(
                "uuid", flat=True
            )
        )
        for table in manifest["tables"]:
            if uuid_module.UUID(table["uuid"]) in known:
                summary.already_there.append(table["name"])
                continue
            _import_table(table, files, people, summary)
        if not summary.changed:
            # Nothing came in: the people it named are not left behind either.
            transaction.set_rollback(True)
            summary.users_created = []


def summary_lines(summary: Summary) -> list[str]:
    """What came in, in a few sentences (the command and the upload page say the same)."""
    lines = [
        ngettext("%(n)d table came in.", "%(n)d tables came in.", len(summary.tables))
        % {"n": len(summary.tables)}
    ]
    if summary.already_there:
        count = len(summary.already_there)
        lines.append(
            ngettext(
                "%(n)d table was here already and was left as it was.",
                "%(n)d tables were here already and were left as they were.",
                count,
            )
            % {"n": count}
        )
    if summary.changed:
        lines.append(
            _(
                "Stories: %(stories)d (%(edits)d edits of their narration); playtest reports: "
                "%(reports)d (%(impressions)d impressions)."
            )
            % {
                "stories": summary.stories,
                "edits": summary.edits,
                "reports": summary.reports,
                "impressions": summary.impressions,
            }
        )
    if summary.decks or summary.characters:
        lines.append(
            _("Custom decks: %(decks)d; Contest characters: %(characters)d.")
            % {"decks": summary.decks, "characters": summary.characters}
        )
    if summary.users_created:
        lines.append(
            _("New inactive accounts (nobody can sign in with them yet): %(names)s.")
            % {"names": ", ".join(summary.users_created)}
        )
    return lines
