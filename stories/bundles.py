"""Bundles: a game master's tables carried from one site (a laptop at a playtest) to another.

A bundle is a zip holding ``bundle.json`` and, under ``files/``, the stories' covers and the
pictures the games carry. For each table it carries the game script (the set-up and the moves
in force, with their times and text: ``games.services.script_of``), the seats (their aliases
and users), the ruleset version played, the story with its whole edit history, the playtest
report's place and impressions, and the game's own part (``"carried"``, from its kit's
``carry``: an Amnesia Stories table's custom deck with its pictures, the contest's saved
characters). The playtest figures are not carried: they are a cache, recomputed on arrival.

Importing goes through the one write path (``games.services.import_script``: every move is
judged again by the referee), and is keyed by the table's stable UUID, so importing the same
bundle twice changes nothing.

What a bundle brings in belongs to the person who imports it (the uploader on the page, the
command's ``--owner``): its tables, their stories (which arrive private, whatever the bundle
says), the contest's characters (with their points) and its rulesets (matched only to a ruleset
that person owns here). The people a bundle names (game masters, seat users, authors of
narration edits, owners of characters and rulesets) are kept as names (the story's game
master, each edit's author) and listed in the summary: never linked to an account here, and no
account is made. Only the command's ``--link-accounts`` (moving one's own site) links a name
to the account of the same username that exists here already.

A table that is here already (the same UUID) and belongs to the importer is extended through
the write path when its log is the start of the bundle's (a later bundle with more moves, or
the secret answers a partial export left out), and left as it is when the logs are the same
(or the bundle's is the start of the one kept: an earlier bundle);
a log that disagrees refuses the bundle. A table someone else has here is left alone and named
in the summary.

An export leaves out the answers of a turn not judged yet, as ``referee export`` does
(``games.exports``: ``"pending_left_out": N`` at the top of that table's script) unless asked
for the whole log (``with_pending``). While a table with a virtual deck is in play, its seed and
stacked deck are left out too (``"deck_left_out": true``, as ``referee export`` writes) unless
asked for it (``with_deck``; the command's ``--with-secrets`` writes the whole script); such a table
cannot be rebuilt, so a bundle holding one of the importer's is refused with a sentence.

A bundle is refused whole, with a message and nothing written (one transaction), when it is not
a zip or is cut short, is larger than the limits, names a file outside its own folders (an
absolute path, ``..``, a link), expands far beyond its size (a zip bomb), or holds JSON that is
broken or not the shape described here. Entries are read into memory by name, never extracted
to disk. A bundle too large once unpacked is refused for that, whatever else is wrong with it.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import stat
import uuid as uuid_module
import zipfile
import zlib
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

from amnesia_site.accounts.models import display_name
from amnesia_site.lists import listing
from games import exports, registry
from games import services as game_services
from games.images import ImageRefused, stored_bytes
from games.messages import error_message
from games.models import Move, Ruleset, Seat, Table
from games.playtests.models import FREE_TEXTS, RATINGS, Impression, PlaytestReport
from games.playtests.service import ensure_report
from games.rules import BadScript, IllegalMove
from games.rules.base import N_
from games.rules.script import DECK_LEFT_OUT, holds_nul, parse_script, rules_part
from games.services.new_tables import move_stamp
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


def _too_large() -> BundleError:
    return BundleError(
        _("The bundle is too large once unpacked (a zip bomb, or more than this site accepts).")
    )


@dataclass
class Summary:
    tables: list[str] = field(default_factory=list)  # the names of the tables added
    already_there: list[str] = field(default_factory=list)  # here, the same log: left as is
    extended: list[str] = field(default_factory=list)  # here, given the moves the bundle adds
    others: list[str] = field(default_factory=list)  # someone else's here: left alone
    stories: int = 0
    edits: int = 0
    reports: int = 0
    impressions: int = 0
    # The people the bundle names, kept as names ("Name (username)"), and those linked to an
    # account of the same username (``link_accounts``).
    names: list[str] = field(default_factory=list)
    linked: list[str] = field(default_factory=list)
    # Secret answers a partial export left out (pending_left_out), not restored.
    left_out: int = 0
    decks: int = 0  # custom decks made (an identical one already here is used instead)
    characters: int = 0  # contest characters made (one its owner has here already is linked)
    # The covers written to storage (taken away again if the import is refused).
    files: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.tables or self.extended)


@dataclass
class Exported:
    data: bytes
    tables: int
    # The secret answers left out (the tables' "pending_left_out", added up).
    left_out: int = 0
    # The tables in play whose virtual deck was left out ("deck_left_out").
    decks_left_out: int = 0


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
            # The name this site prints for them (kept as a name where the bundle arrives).
            "display_name": display_name(user)[:150],
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
        # A game master kept as a name (this site had the story from a bundle), or "".
        "game_master": story.game_master_name,
        "cover": cover,
        # Edits of moves no longer in force are left out: the book never shows them.
        "edits": [
            {
                "move": seqs[e.move_seq],
                "text": e.text,
                "kind": e.kind,
                "restores": index.get(e.restores_id),
                "editor": _person(e.editor, people),
                "editor_name": "" if e.editor_id else e.editor_name,
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


def export_bundle(tables, *, with_pending: bool = False, with_deck: bool = False) -> bytes:
    """The zip of the given tables (see the module)."""
    return build_bundle(tables, with_pending=with_pending, with_deck=with_deck).data


def build_bundle(tables, *, with_pending: bool = False, with_deck: bool = False) -> Exported:
    """The zip of the given tables, and how many secret answers it left out: while a turn is
    being answered, the answers given are left out of its table's script (``"pending_left_out":
    N`` at its top, as ``referee export`` writes), unless ``with_pending``; while a table with
    a virtual deck is in play, its seed and stacked deck (``"deck_left_out": true``), unless
    ``with_deck``."""
    people: dict[str, dict[str, str]] = {}
    files: dict[str, bytes] = {}
    out_tables = []
    left_out = decks_left_out = 0

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
        # The secrets of a turn not judged yet stay out (the contract's "Secrets").
        script = exports.export_script(
            table, with_pending=with_pending, with_deck=with_deck, real_names=True
        )
        decks_left_out += DECK_LEFT_OUT in script
        if exports.PENDING_KEY in script:
            hidden = exports.secret_indexes(table, [m.as_script_move() for m in live])
            live = [move for i, move in enumerate(live) if i not in hidden]
            left_out += script[exports.PENDING_KEY]
        # The script numbers the moves in force from 0; edits name their move by that index
        # (an edit of a move left out is left out too).
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
                "script": script,
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
    return Exported(out.getvalue(), len(out_tables), left_out, decks_left_out)


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
    # The sizes first, over every entry: a zip bomb is refused for being one, whatever its
    # entries are called.
    total = 0
    for info in infos:
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
            raise _too_large()
    for info in infos:
        if not _safe_name(info.filename) or stat.S_ISLNK(info.external_attr >> 16):
            raise BundleError(
                _("The bundle names a file outside its own folders: %(name)s")
                % {"name": info.filename[:80]}
            )
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
                raise _too_large()
    except (
        zipfile.BadZipFile,
        zlib.error,
        OSError,
        EOFError,
        ValueError,
        NotImplementedError,
        RuntimeError,
    ):
        # RuntimeError: an encrypted entry; NotImplementedError: an unknown compression;
        # zlib.error: a deflated entry whose bytes were damaged (the CRC is checked after).
        raise BundleError(_("The bundle is damaged: a file in it cannot be read.")) from None
    try:
        manifest = json.loads(contents.pop(MANIFEST).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        # ValueError: bad JSON, or an integer longer than Python reads; RecursionError:
        # arrays nested thousands deep, which no bundle has.
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
        _is(person.get("display_name", ""), str, f"{where}.display_name", max_length=150)
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
            if not 1 <= ruleset["version"] <= 2**31 - 1:  # what the column stores, on both
                raise _fail(f"{where}.ruleset.version")
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
    _is(story.get("game_master", ""), str, f"{where}.game_master", max_length=150)
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
        _is(edit.get("editor_name", ""), str, f"{at}.editor_name", max_length=150)
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


class People:
    """The people a bundle names, as this import treats them: each is a name (never linked to
    an account, and no account is made), and whatever they owned there belongs here to the
    importer; with ``link_accounts`` (the command's ``--link-accounts``) a name that is the
    username of an account here already is that account."""

    def __init__(self, manifest: dict[str, Any], importer, link_accounts: bool) -> None:
        self.importer = importer
        self.names: dict[str, str] = {}
        for person in manifest["people"]:
            shown = " ".join(person.get("display_name", "").split())
            self.names[person["username"]] = shown or person["username"]
        self.accounts: dict[str, Any] = {}
        if link_accounts:
            users = get_user_model().objects.filter(username__in=list(self.names))
            self.accounts = {user.get_username(): user for user in users}

    def account(self, username: str | None):
        """The account a name is linked to (``link_accounts`` only), or None."""
        return self.accounts.get(username) if username is not None else None

    def name(self, username: str | None) -> str:
        return self.names.get(username, "") if username is not None else ""

    def owner(self, username: str | None):
        """Who owns here what ``username`` owned there: the importer, or their linked account."""
        return self.account(username) or self.importer

    @property
    def owners(self) -> dict[str, Any]:
        """``{username: owner here}`` for every name (what a kit's ``carry`` is given)."""
        return {username: self.owner(username) for username in self.names}

    def listed(self) -> tuple[list[str], list[str]]:
        """The names kept (as "Name (username)" when the two differ) and the names linked."""
        kept = [
            name if name == username else f"{name} ({username})"
            for username, name in sorted(self.names.items())
            if username not in self.accounts
        ]
        return kept, sorted(self.accounts)


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
    seqs = [m.seq for m in game_services.live_moves(table)]
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
    here = game_services.setup_of(table)
    if any(getattr(setup, key) != getattr(here, key) for key in SETUP_KEYS):
        raise _disagrees(data)
    kept = [(m.payload, m.text) for m in game_services.live_moves(table)]
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
            game_services.play(
                table, {k: v for k, v in move.items() if k != "at"}, table.last_seq, None, at=stamp
            )
        except (IllegalMove, game_services.StaleMove, ValueError, TypeError, KeyError) as exc:
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
    seqs = [m.seq for m in game_services.live_moves(table)]
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
    if summary.extended:
        lines.append(
            _("Here already, now given the moves the bundle adds: %(names)s.")
            % {"names": listing(summary.extended)}
        )
    if summary.others:
        lines.append(
            _("Left alone, because someone else has them on this site: %(names)s.")
            % {"names": listing(summary.others)}
        )
    if summary.left_out:
        lines.append(
            ngettext(
                "The bundle left out %(n)d secret answer of a turn not judged yet: it was not "
                "restored, and that player answers again.",
                "The bundle left out %(n)d secret answers of a turn not judged yet: they were "
                "not restored, and those players answer again.",
                summary.left_out,
            )
            % {"n": summary.left_out}
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
    if summary.names:
        lines.append(
            _(
                "The people the bundle names are kept as names, linked to no account here: "
                "%(names)s."
            )
            % {"names": listing(summary.names)}
        )
    if summary.linked:
        lines.append(
            _("Linked to the accounts of the same username on this site: %(names)s.")
            % {"names": listing(summary.linked)}
        )
    return lines
