"""Print-and-play components of a game as a PDF, laid out for long-edge duplex printing."""

from __future__ import annotations

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games import components, registry
from games.models import Table


class Command(BaseCommand):
    help = (
        "Write a game's print-and-play cards and sheets to a PDF (faces and backs on facing "
        "pages, for double-sided printing flipped on the long edge)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("game", help="the game's slug")
        parser.add_argument("out", help="the PDF file to write")
        parser.add_argument("--language", default="en", help="en, pt-br or ja (default en)")
        parser.add_argument(
            "--size", default=components.DEFAULT_SIZE, choices=sorted(components.PAGE_SIZES)
        )
        parser.add_argument("--preset", help="one of the game's named option sets")
        parser.add_argument("--deck", type=int, help="a custom deck's id (games that have them)")
        parser.add_argument("--table", type=int, help="a table's id: its options, players and deck")
        parser.add_argument(
            "--players",
            type=int,
            help="how many players to print for (default: a table's seats, or the count the "
            "game's own text plays with, its largest where it names none)",
        )

    def handle(self, *args, **options) -> None:
        if not registry.is_game(options["game"]):
            known = ", ".join(slug for slug, _title in registry.choices())
            raise CommandError(f"No game {options['game']!r} (games: {known}).")
        kit = registry.kit(options["game"])
        table = None
        if options["table"] is not None:
            table = Table.objects.filter(pk=options["table"]).first()
            if table is None:
                raise CommandError(f"No table {options['table']}.")
        started = time.perf_counter()
        try:
            request = components.print_request(
                kit,
                language=components.language_code(options["language"]),
                preset=options["preset"],
                table=table,
                deck=options["deck"],
                players=options["players"],
            )
            data = components.render_pdf(kit, request, options["size"])
        except components.ComponentsError as exc:
            raise CommandError(str(exc)) from exc
        out = Path(options["out"])
        out.write_bytes(data)
        self.stdout.write(
            f"{kit.slug}: {out} ({len(data) // 1024} KB) in {time.perf_counter() - started:.1f}s"
        )
