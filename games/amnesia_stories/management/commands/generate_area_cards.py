"""Write the art of the 48 built-in area cards into MEDIA_ROOT/areas."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from PIL import Image, features

from games.amnesia_stories.area_texts import AREA_IDS
from games.amnesia_stories.art import render_area

LARGE = (960, 640)
THUMB = (240, 160)


def areas_dir() -> Path:
    root = getattr(settings, "MEDIA_ROOT", "") or Path(settings.BASE_DIR) / "media"
    return Path(root) / "areas"


def image_format() -> tuple[str, str]:
    """(Pillow format, file extension): WebP when this Pillow has it, JPEG otherwise."""
    return ("WEBP", "webp") if features.check("webp") else ("JPEG", "jpg")


def card_paths(card_id: str, folder: Path | None = None) -> dict[str, Path]:
    folder = folder or areas_dir()
    _, ext = image_format()
    return {"large": folder / f"{card_id}.{ext}", "thumb": folder / f"{card_id}_thumb.{ext}"}


class Command(BaseCommand):
    help = "Generate the built-in area card images (large and thumbnail) into MEDIA_ROOT/areas."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--force", action="store_true", help="overwrite existing files")
        parser.add_argument("--out", help="write into this folder instead of MEDIA_ROOT/areas")
        parser.add_argument("--only", nargs="+", metavar="ID", help="only these card ids")

    def handle(self, *args, **options) -> None:
        folder = Path(options["out"]) if options.get("out") else areas_dir()
        folder.mkdir(parents=True, exist_ok=True)
        fmt, _ = image_format()
        save = {"quality": 86, "method": 4} if fmt == "WEBP" else {"quality": 88}
        written = skipped = 0
        ids = options.get("only") or AREA_IDS
        unknown = sorted(set(ids) - set(AREA_IDS))
        if unknown:
            raise CommandError(f"Not built-in area cards: {', '.join(unknown)}")
        for card_id in ids:
            paths = card_paths(card_id, folder)
            todo = {k: p for k, p in paths.items() if options["force"] or not p.exists()}
            skipped += len(paths) - len(todo)
            if not todo:
                continue
            # the thumbnail is the large picture scaled down: one drawing per card
            large = render_area(card_id, LARGE)
            images = {"large": large, "thumb": large.resize(THUMB, Image.Resampling.LANCZOS)}
            for kind, path in todo.items():
                images[kind].save(path, fmt, **save)
                written += 1
        self.stdout.write(f"Area cards in {folder}: {written} written, {skipped} already there.")
