"""``bundle export OUT.zip [--user NAME] [--game GAME] [--with-pending] [--with-secrets]`` and
``bundle import
FILE.zip --owner NAME [--link-accounts]``: carry tables, their stories and playtest reports from
one site to another (``stories.bundles``)."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games import registry
from games.models import Table
from stories.bundles.export import build_bundle
from stories.bundles.format import BundleError
from stories.bundles.importing import import_bundle
from stories.bundles.summary import summary_lines

# A command used wrongly (no owner, an unknown one) exits 2, as argparse does for its own.
USAGE = 2


class Command(BaseCommand):
    help = "Export tables (with their stories and playtest reports) as a bundle, or import one."

    def add_arguments(self, parser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        export = sub.add_parser("export", help="Write a bundle of tables.")
        export.add_argument("out", type=Path)
        export.add_argument("--user", help="Only the tables this user runs (their username).")
        export.add_argument("--game", help="Only the tables of this game (its slug).")
        export.add_argument(
            "--with-pending",
            action="store_true",
            help="write the whole log, the secret answers of a turn not judged yet included",
        )
        export.add_argument(
            "--with-secrets",
            action="store_true",
            help="write the whole script of every table: the seed and stacked deck of a table "
            "in play with a virtual deck, and the secret answers of a turn not judged yet",
        )
        load = sub.add_parser("import", help="Bring a bundle's tables into this site.")
        load.add_argument("file", type=Path)
        load.add_argument(
            "--owner",
            help="username of the person everything the bundle brings will belong to (required)",
        )
        load.add_argument(
            "--link-accounts",
            action="store_true",
            help="link the people the bundle names to the accounts of the same username that "
            "exist here already (moving one's own site); no account is ever made",
        )

    def handle(self, *args, **options) -> None:
        if options["action"] == "export":
            self.export(options["out"], options["user"], options["game"], options)
        else:
            self.load(options["file"], options["owner"], options["link_accounts"])

    def export(self, out: Path, username: str | None, game: str | None, options) -> None:
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
        secrets = options["with_secrets"]
        exported = build_bundle(
            tables, with_pending=options["with_pending"] or secrets, with_deck=secrets
        )
        out.write_bytes(exported.data)
        self.stdout.write(f"{out}: {exported.tables} tables, {len(exported.data):,} bytes.")
        if exported.left_out:
            self.stdout.write(
                f"Left out {exported.left_out} secret answer(s) of a turn not judged yet "
                '("pending_left_out"); --with-pending writes them.'
            )
        if exported.decks_left_out:
            self.stdout.write(
                f"Left out the deck of {exported.decks_left_out} table(s) in play "
                '("deck_left_out"): no site imports such a bundle; --with-secrets writes them.'
            )

    def load(self, path: Path, owner_name: str | None, link_accounts: bool) -> None:
        if not owner_name:
            raise CommandError(
                "bundle import needs --owner NAME: the username of the person everything the "
                "bundle brings will belong to.",
                returncode=USAGE,
            )
        owner = get_user_model().objects.filter(username=owner_name).first()
        if owner is None:
            raise CommandError(
                f"There is no user {owner_name!r} to own what the bundle brings (--owner).",
                returncode=USAGE,
            )
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror}") from None
        try:
            summary = import_bundle(data, owner, link_accounts=link_accounts)
        except BundleError as exc:
            raise CommandError(f"{path}: refused, nothing was imported. {exc}") from None
        for line in summary_lines(summary):
            self.stdout.write(line)
