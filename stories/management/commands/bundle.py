"""``bundle export OUT.zip [--user NAME] [--game GAME]`` and ``bundle import FILE.zip``: carry
tables, their stories and playtest reports from one site to another (``stories.bundles``)."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games import registry
from games.models import Table
from stories.bundles import BundleError, export_bundle, import_bundle, summary_lines


class Command(BaseCommand):
    help = "Export tables (with their stories and playtest reports) as a bundle, or import one."

    def add_arguments(self, parser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        export = sub.add_parser("export", help="Write a bundle of tables.")
        export.add_argument("out", type=Path)
        export.add_argument("--user", help="Only the tables this user runs (their username).")
        export.add_argument("--game", help="Only the tables of this game (its slug).")
        load = sub.add_parser("import", help="Bring a bundle's tables into this site.")
        load.add_argument("file", type=Path)

    def handle(self, *args, **options) -> None:
        if options["action"] == "export":
            self.export(options["out"], options["user"], options["game"])
        else:
            self.load(options["file"])

    def export(self, out: Path, username: str | None, game: str | None) -> None:
        tables = Table.objects.order_by("created_at", "pk")
        if username:
            user = get_user_model().objects.filter(username=username).first()
            if user is None:
                raise CommandError(f"There is no user {username!r}.")
            tables = tables.filter(owner=user)
        if game:
            if not registry.is_game(game):
                raise CommandError(f"There is no game {game!r}.")
            tables = tables.filter(game=game)
        data = export_bundle(tables)
        out.write_bytes(data)
        self.stdout.write(f"{out}: {tables.count()} tables, {len(data):,} bytes.")

    def load(self, path: Path) -> None:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror}") from None
        try:
            summary = import_bundle(data)
        except BundleError as exc:
            raise CommandError(f"{path}: refused, nothing was imported. {exc}") from None
        for line in summary_lines(summary):
            self.stdout.write(line)
