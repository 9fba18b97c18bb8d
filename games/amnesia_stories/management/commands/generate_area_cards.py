"""Write the art of the 48 built-in area cards into MEDIA_ROOT/areas."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.amnesia_stories import area_store
from games.amnesia_stories.area_texts import AREA_IDS


class Command(BaseCommand):
    help = "Generate the built-in area card images (large and thumbnail) into MEDIA_ROOT/areas."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--force", action="store_true", help="overwrite existing files")
        parser.add_argument("--out", help="write into this folder instead of MEDIA_ROOT/areas")
        parser.add_argument("--only", nargs="+", metavar="ID", help="only these card ids")

    def handle(self, *args, **options) -> None:
        folder = Path(options["out"]) if options.get("out") else area_store.areas_dir()
        folder.mkdir(parents=True, exist_ok=True)
        written = skipped = 0
        ids = options.get("only") or AREA_IDS
        unknown = sorted(set(ids) - set(AREA_IDS))
        if unknown:
            raise CommandError(f"Not built-in area cards: {', '.join(unknown)}")
        for card_id in ids:
            paths = area_store.card_paths(card_id, folder)
            todo = {k: p for k, p in paths.items() if options["force"] or not p.exists()}
            skipped += len(paths) - len(todo)
            if todo:
                area_store.draw(card_id, todo)  # one drawing per card, both sizes from it
                written += len(todo)
        self.stdout.write(f"Area cards in {folder}: {written} written, {skipped} already there.")
