"""``referee replay FILE`` / ``referee export TABLE_ID`` / ``referee import FILE``.

``replay`` touches no database: it prints one JSON object and exits 0 (legal), 1 (an
illegal move) or 2 (a malformed script), exactly as shared/referee/README.md says.
``export`` leaves secrets out as the web page's export does (``games.exports``): the secret
answers of a turn not judged yet unless given ``--with-pending``, and, while a table with a
virtual deck is in play, its seed and stacked deck; ``--with-secrets`` (the server's operator)
writes the whole script. ``replay`` and ``import`` refuse a script that left its deck out;
``import`` says, on standard error, how many answers it did not restore.
"""

from __future__ import annotations

import json
import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.exports import export_script, import_script
from games.models import Table
from games.rules import BadScript, IllegalMove, get_game
from games.rules.script import (
    drop_undeclared_fields,
    load_json,
    parse_script,
    replay,
    replay_script,
    rules_part,
)


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError as exc:
        raise CommandError(f"Cannot read {path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise CommandError(f"{path} is not UTF-8 text.") from exc


class Command(BaseCommand):
    help = "Replay, export or import game scripts."
    requires_system_checks = []

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        rp = sub.add_parser("replay", help="Replay a script and print the final state.")
        rp.add_argument("file", help="a script file, or - for standard input")
        rp.add_argument("--trace", action="store_true", help="print the state after each move")
        rp.add_argument("--player", help="print this player's view instead of the full state")
        ex = sub.add_parser("export", help="Print a table's script.")
        ex.add_argument("table_id", type=int)
        ex.add_argument(
            "--with-pending",
            action="store_true",
            help="write the whole log, the secret answers of a turn not judged yet included",
        )
        ex.add_argument(
            "--with-secrets",
            action="store_true",
            help="write the whole script: the seed and stacked deck of a table in play with a "
            "virtual deck, and the secret answers of a turn not judged yet",
        )
        ex.add_argument(
            "--real-names",
            action="store_true",
            help="write every player's name as seated, even of players shown as a label",
        )
        im = sub.add_parser("import", help="Create a table from a script and print its id.")
        im.add_argument("file", help="a script file, or - for standard input")
        im.add_argument(
            "--owner", help="username of the new table's owner (default: first superuser)"
        )

    def handle(self, *args, **opts):
        action = opts["action"]
        if action == "replay":
            self._replay(opts)
        elif action == "export":
            self._export(opts["table_id"], opts)
        else:
            self._import(opts)

    def _emit(self, obj) -> None:
        self.stdout.write(json.dumps(obj, ensure_ascii=False, sort_keys=False))

    def _replay(self, opts) -> None:
        try:
            script = load_json(_read(opts["file"]))
        except BadScript as exc:
            self._emit({"error": {"index": None, "code": exc.code, "message": exc.message}})
            sys.exit(2)
        code, out = replay_script(script)
        if code != 2 and (opts["trace"] or opts["player"]):
            setup, moves = parse_script(script)
            game = get_game(setup.game)
            result = replay(setup, [rules_part(m) for m in moves], keep_states=True)
            shown = game.view if opts["player"] else (lambda s, _p: s)
            if opts["player"] and opts["player"] not in setup.players:
                raise CommandError(f"No player called {opts['player']!r} in this script.")
            if opts["trace"]:
                for state in result.states:
                    self._emit(shown(state, opts["player"]))
            if opts["player"]:
                if code == 0:
                    out = shown(out, opts["player"])
                else:
                    out["state"] = shown(out["state"], opts["player"])
        self._emit(out)
        if code:
            sys.exit(code)

    def _export(self, table_id: int, opts) -> None:
        try:
            table = Table.objects.get(pk=table_id)
        except Table.DoesNotExist as exc:
            raise CommandError(f"No table with id {table_id}.") from exc
        script = export_script(
            table,
            with_pending=opts["with_pending"] or opts["with_secrets"],
            with_deck=opts["with_secrets"],
            real_names=opts["real_names"],
        )
        self.stdout.write(json.dumps(script, ensure_ascii=False, indent=2))

    def _import(self, opts) -> None:
        users = get_user_model().objects
        if opts["owner"]:
            owner = users.filter(username=opts["owner"]).first()
            if owner is None:
                raise CommandError(f"No user called {opts['owner']!r}.")
        else:
            owner = (
                users.filter(is_superuser=True).order_by("pk").first()
                or users.order_by("pk").first()
            )
            if owner is None:
                raise CommandError("Create a user first (or pass --owner): a table needs an owner.")
        try:
            script = load_json(_read(opts["file"]))
            # Keys a verb does not read never changed the rules (an old export may hold
            # some): they are left out, and named, rather than refusing the whole script.
            for index, keys in drop_undeclared_fields(script):
                names = ", ".join(keys)
                self.stderr.write(f"Move {index}: dropped fields its verb does not read: {names}")
            imported = import_script(script, owner)
        except BadScript as exc:
            raise CommandError(f"Malformed script: {exc.message}") from exc
        except IllegalMove as exc:
            raise CommandError(f"Illegal move ({exc.code}): {exc.message}") from exc
        self.stdout.write(str(imported.table.pk))
        if imported.left_out:
            # Standard error: standard output stays the new table's id alone.
            self.stderr.write(
                f"The script left out {imported.left_out} secret answer(s) of a turn not "
                "judged yet; they were not restored: those players answer again."
            )
