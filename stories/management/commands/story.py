"""``story pdf TABLE_ID OUT.pdf [--language LANG]``: print a table's story; ``story epub
TABLE_ID OUT.epub`` and ``story html TABLE_ID OUT.html`` (``--language`` too): the other
downloads; ``story fonts``: rebuild the fonts."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games import languages
from games.languages import normalise
from games.models import Table
from stories import fonts
from stories.books import story_language
from stories.epub import render_epub
from stories.formats import epub_for, single_html_for
from stories.models import story_for
from stories.pdf import PAGE_SIZES, pdf_for
from stories.services import make_book
from stories.single_html import render_single_html


class Command(BaseCommand):
    help = "Story archive tools: export a table's story as a PDF, or rebuild the bundled fonts."

    def add_arguments(self, parser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        pdf = sub.add_parser("pdf", help="Write the story of a table as a PDF book.")
        pdf.add_argument("table_id", type=int)
        pdf.add_argument("out", type=Path, help="The PDF file to write.")
        pdf.add_argument("--size", choices=sorted(PAGE_SIZES), default="a5")
        pdf.add_argument(
            "--language",
            default=None,
            metavar="LANG",
            help="Print the book in this language (en, pt-br, ja; any case, pt_BR too). "
            "Default: the story's own.",
        )
        for name, what in (("epub", "an EPUB 3 book"), ("html", "one self-contained HTML file")):
            other = sub.add_parser(name, help=f"Write the story of a table as {what}.")
            other.add_argument("table_id", type=int)
            other.add_argument("out", type=Path)
            other.add_argument(
                "--language",
                default=None,
                metavar="LANG",
                help="The book's language for this file (en, pt-br, ja; any case, pt_BR too). "
                "Default: the story's own.",
            )
        fonts = sub.add_parser(
            "fonts",
            help="Rebuild static/fonts from Debian's fonts-ebgaramond, fonts-noto-cjk and "
            "fonts-noto-color-emoji.",
        )
        fonts.add_argument("--garamond-dir", type=Path, default=None)
        fonts.add_argument("--noto-cjk", type=Path, default=None)
        fonts.add_argument("--noto-emoji", type=Path, default=None)

    def handle(self, *args, **options) -> None:
        if options["action"] == "pdf":
            self.write_pdf(
                options["table_id"], options["out"], options["size"], options["language"]
            )
        elif options["action"] in ("epub", "html"):
            self.write_other(
                options["action"], options["table_id"], options["out"], options["language"]
            )
        else:
            self.build_fonts(options["garamond_dir"], options["noto_cjk"], options["noto_emoji"])

    def write_pdf(self, table_id: int, out: Path, size: str, language: str | None = None) -> None:
        chosen = self.language(language)
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            raise CommandError(f"There is no table {table_id}.")
        story = story_for(table)
        data = pdf_for(story, size, language=chosen)
        out.write_bytes(data)
        shown = chosen or story_language(story)
        self.stdout.write(f"{out}: {len(data):,} bytes, “{story.title}” ({size}, {shown}).")

    def language(self, language: str | None) -> str | None:
        """A Django language code from the command line (any case, ``pt_BR`` too)."""
        chosen = normalise(language)
        if language is not None and chosen is None:
            raise CommandError(
                f"Unknown language {language!r}: choose one of {', '.join(languages.codes())}."
            )
        return chosen

    def write_other(self, kind: str, table_id: int, out: Path, language: str | None) -> None:
        language = self.language(language)
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            raise CommandError(f"There is no table {table_id}.")
        story = story_for(table, language)
        if language:
            # For this file only: the story keeps its language (nothing is saved).
            story.language = language
        book = make_book(story)
        if language:
            data = (render_epub if kind == "epub" else render_single_html)(book)
        else:
            data = (epub_for if kind == "epub" else single_html_for)(story, book)
        out.write_bytes(data)
        self.stdout.write(f"{out}: {len(data):,} bytes, “{story.title}” ({book.language}).")

    def build_fonts(
        self, garamond_dir: Path | None, noto_cjk: Path | None, noto_emoji: Path | None = None
    ) -> None:
        # The kanji lists first: the Japanese cut keeps every kanji they name.
        if fonts.DEBIAN_KANJIDIC2.is_file():
            for path in fonts.write_kanji_lists():
                self.stdout.write(f"{path}: {path.stat().st_size:,} bytes")
        else:
            self.stdout.write("kanjidic-xml is not installed: the committed kanji lists are used.")
        try:
            written = fonts.build_fonts(
                garamond_dir or fonts.DEBIAN_GARAMOND,
                noto_cjk or fonts.DEBIAN_NOTO_CJK,
                noto_emoji=noto_emoji or fonts.DEBIAN_NOTO_EMOJI,
            )
        except FileNotFoundError as exc:
            raise CommandError(
                f"{exc}. Install Debian's fonts-ebgaramond, fonts-noto-cjk and "
                "fonts-noto-color-emoji first."
            ) from None
        for path in written:
            self.stdout.write(f"{path}: {path.stat().st_size:,} bytes")
        # story.css names the emoji cut's characters exactly (the font tests check it).
        from fontTools.ttLib import TTFont  # the font tool's, as stories.fonts says

        emoji = set(TTFont(fonts.FONTS[4].path, lazy=True).getBestCmap()) - {0x20} | {0xFE0F}
        self.stdout.write(f"story.css, Amnesia Emoji's unicode-range: {fonts.unicode_range(emoji)}")
