"""Making a bundle: the zip of a game master's tables (see ``stories.bundles``), leaving out
the secrets of a turn not judged yet and, while a table is in play, its virtual deck.
"""

from __future__ import annotations

import hashlib
import json
import uuid as uuid_module
import zipfile
from dataclasses import dataclass
from io import BytesIO

from django.utils import timezone

from amnesia_site.accounts.models import display_name
from games import exports, registry
from games.images import stored_bytes
from games.models import Table
from games.playtests.models import FREE_TEXTS, RATINGS, PlaytestReport
from games.rules.script import DECK_LEFT_OUT
from games.services import reading
from stories.bundles.format import FILE_EXTENSIONS, FORMAT, MANIFEST, VERSION
from stories.models import Story


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
        live = reading.live_moves(table)
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
