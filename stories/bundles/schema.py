"""The shape of ``bundle.json``: every field a bundle may hold, its type and its length, checked
before anything is written (a game's own part by its kit's ``carry``).
"""

from __future__ import annotations

import uuid as uuid_module
from io import BytesIO
from typing import Any

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from PIL import Image

from games import registry
from games.playtests.models import FREE_TEXTS, RATINGS
from games.services import validating
from stories.bundles.format import FORMAT, VERSION, BundleError
from stories.models import MAX_TAGS, NarrationEdit, Story


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


def check_manifest(manifest: Any, files: dict[str, bytes]) -> None:
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
        _is(edit.get("text"), str, f"{at}.text", max_length=validating.MAX_TEXT)
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
