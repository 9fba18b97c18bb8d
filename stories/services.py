"""What a story is made of and how its authors change it.

``make_book`` gathers everything the print template needs (the same data for the reading page
and the PDF); ``edit_narration`` and ``revert_narration`` add rows to the edit overlay, never
touching the move log.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from datetime import datetime
from functools import cache
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from amnesia_site.accounts.models import display_name
from games import registry
from games.aliases import Aliases, aliases_of
from games.languages import normalise
from games.models import Move
from games.services import reading, validating
from stories.books import (
    BOOK_FORMAT,
    Chapter,
    Credit,
    build_chapters,
    content_hash,
    credits,
    story_language,
)
from stories.fonts import FONTS
from stories.models import NarrationEdit, Story

MAX_NARRATION = validating.MAX_TEXT

HTML_LANG = {"en": "en", "pt-br": "pt-BR", "ja": "ja"}


@dataclass
class Book:
    story: Story
    title: str
    subtitle: str
    blurb: str
    language: str
    tags: list[str]
    game: str
    game_title: str
    players: list[str]
    game_master: str
    chapters: list[Chapter]
    credits: list[Credit]
    started_at: datetime | None
    finished_at: datetime | None
    finished: bool
    editable_seqs: set[int] = field(default_factory=set)
    hash: str = ""
    # The game's designer as its rules text names them (the kit's credit), in the book's
    # language.
    game_credit: str = ""

    @property
    def html_lang(self) -> str:
        return HTML_LANG.get(self.language, self.language)

    @property
    def authors(self) -> list[str]:
        """The names on the cover: the players who told something, then the game master."""
        told = [c.name for c in self.credits if c.chapters or c.words]
        return told + ([self.game_master] if self.game_master not in told else [])

    @property
    def pictures(self) -> registry.BookPictures | None:
        """The game's printable illustrations (its kit's ``pictures``), if it has any."""
        return registry.kit(self.game).pictures if registry.is_game(self.game) else None

    @property
    def picture_ids(self) -> frozenset[str]:
        """The illustrations that have a picture to print (none for most games)."""
        pictures = self.pictures
        return frozenset(pictures.ids) if pictures is not None else frozenset()

    @property
    def images(self) -> list[str]:
        """The illustrations the chapters show that have a picture, in order, once each."""
        printable = self.picture_ids
        seen: dict[str, None] = {}
        for chapter in self.chapters:
            for picture_id in chapter.data.get("images", []):
                seen.setdefault(picture_id, None)
        return [c for c in seen if c in printable]

    @property
    def uploads(self) -> list[int]:
        """The table's own pictures the chapters show (a custom deck's cards), once each: the
        numbers the game's ``picture`` hook (games.registry) knows them by."""
        seen: dict[int, None] = {}
        for chapter in self.chapters:
            for number in chapter.data.get("uploads", []):
                seen.setdefault(number, None)
        return list(seen)

    @property
    def keywords(self) -> list[str]:
        return [self.game_title, *self.tags]

    def plain_text(self) -> str:
        """The narration as plain text, one passage a line (for the archive's search)."""
        return "\n".join(p.text for c in self.chapters for p in c.passages if p.text)


def game_master_name(story: Story) -> str:
    """The game master a bundle named (a name kept, never an account: stories.bundles), else
    the owner as they chose to be printed (their display name), never their login."""
    return story.game_master_name or display_name(story.table.owner)


def make_book(story: Story, language: str | None = None) -> Book:
    """The book in its own language (chapter titles included), whatever the reader's is;
    ``language`` (a code the site speaks) prints it in another one."""
    language = normalise(language) or story_language(story)
    with translation.override(language):
        return _make_book(story, language)


def _make_book(story: Story, language: str) -> Book:
    table = story.table
    edits = NarrationEdit.objects.current_texts(story)
    chapters, texts = build_chapters(table, edits)
    players = [texts.aliases.name(p) for p in table.players]
    book = Book(
        story=story,
        title=story.title,
        subtitle=story.subtitle,
        blurb=story.blurb,
        language=language,
        tags=story.tag_names(),
        game=table.game,
        game_title=str(registry.title(table.game)),
        players=players,
        game_master=game_master_name(story),
        chapters=chapters,
        credits=credits(chapters, players),
        started_at=table.started_at,
        finished_at=table.finished_at,
        finished=table.status == table.Status.FINISHED,
        editable_seqs={m.seq for m in texts.moves},
        game_credit=registry.kit(table.game).credit.line() if registry.is_game(table.game) else "",
    )
    book.hash = content_hash(
        {
            "format": BOOK_FORMAT,
            "design": design_hash(),
            "meta": [book.title, book.subtitle, book.blurb, book.language, book.tags],
            "people": [book.players, book.game_master, book.game_credit],
            "cover": story.cover.name if story.cover else "",
            "dates": [book.started_at, book.finished_at],
            "chapters": [asdict(c) for c in chapters],
        }
    )
    return book


def _design_files() -> list[Path]:
    base = Path(settings.BASE_DIR)
    files = sorted((base / "stories" / "templates" / "stories").rglob("*.html"))
    files.append(base / "static" / "css" / "story.css")
    return files


@cache
def _fonts_signature() -> str:
    return ",".join(f"{f.file}:{f.path.stat().st_size}" for f in FONTS if f.path.exists())


def design_hash() -> str:
    """A hash of the print template and its stylesheet: a changed design rebuilds the PDFs."""
    digest = hashlib.sha256(_fonts_signature().encode())
    for path in _design_files():
        if path.exists():
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def finished_changed(sender, table, **kwargs) -> None:
    """A move ended the table's game or took its end back (a story is published only once
    its game has ended): a published story's search text follows its book, in the move's
    transaction. Every other change to a book's words is a write that refreshes it too (an
    edit, a revert, publishing, a renamed player): the reading page, a GET, never writes it."""
    story = Story.objects.published().filter(table=table).first()
    if story is not None:
        refresh_search_text(story)


def refresh_search_text(story: Story, book: Book | None = None) -> None:
    book = book or make_book(story)
    text = book.plain_text()
    if text != story.search_text or story.search_key != story.folded_search_key():
        story.search_text = text
        story.search_key = story.folded_search_key()
        Story.objects.filter(pk=story.pk).update(search_text=text, search_key=story.search_key)


# -- editing the narration ---------------------------------------------------------------
def _live_move(story: Story, seq: int) -> Move:
    for move in reading.live_moves(story.table):
        if move.seq == seq:
            return move
    raise Move.DoesNotExist(f"No move {seq} in force at table {story.table_id}.")


def current_text(story: Story, seq: int) -> str:
    """The text of a move in force (Move.DoesNotExist for an undone or unknown move)."""
    move = _live_move(story, seq)
    edit = NarrationEdit.objects.filter(story=story, move_seq=seq).order_by("-pk").first()
    return edit.text if edit is not None else move.text


def emptied_passages(story: Story) -> list[int]:
    """The moves in force whose words an author has emptied: out of the book, and so out of
    its Edit links; the story page lists them for its authors, so they can be written again
    or restored from their history."""
    empty = {seq for seq, text in NarrationEdit.objects.current_texts(story).items() if not text}
    if not empty:
        return []
    return [m.seq for m in reading.live_moves(story.table) if m.seq in empty]


def _clean(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if len(text) > MAX_NARRATION:
        raise ValidationError(
            _("The narration is limited to %(n)s characters.") % {"n": MAX_NARRATION}
        )
    return text


def edit_narration(story: Story, seq: int, text: str, editor) -> NarrationEdit | None:
    """Record a new version of a move's text; None when the text did not change."""
    text = _clean(text)
    with transaction.atomic():
        _live_move(story, seq)
        if text == current_text(story, seq):
            return None
        edit = NarrationEdit.objects.create(
            story=story, move_seq=seq, text=text, editor=_user(editor)
        )
    refresh_search_text(story)
    return edit


def revert_narration(
    story: Story, seq: int, to: NarrationEdit | None, editor
) -> NarrationEdit | None:
    """Restore an earlier version (``to``), or the text typed at the table (``to=None``)."""
    with transaction.atomic():
        move = _live_move(story, seq)
        if to is not None and (to.story_id != story.pk or to.move_seq != seq):
            raise NarrationEdit.DoesNotExist("That version belongs to another passage.")
        text = move.text if to is None else to.text
        if text == current_text(story, seq):
            return None
        edit = NarrationEdit.objects.create(
            story=story,
            move_seq=seq,
            text=text,
            kind=NarrationEdit.Kind.REVERT,
            restores=to,
            editor=_user(editor),
        )
    refresh_search_text(story)
    return edit


@dataclass
class Version:
    text: str
    who: str
    at: datetime | None
    edit: NarrationEdit | None  # None: the text typed at the table
    current: bool = False


def history(story: Story, seq: int) -> list[Version]:
    """Every version of a move's text, newest first; the last one is the table's."""
    move = _live_move(story, seq)
    aliases = aliases_of(story.table)
    typed_by = (
        display_name(move.entered_by)
        if move.entered_by
        else aliases.name(move.payload.get("by", ""))
    )
    versions = [Version(aliases.text(move.text), typed_by, move.at, None)]
    for edit in NarrationEdit.objects.filter(story=story, move_seq=seq).select_related("editor"):
        who = display_name(edit.editor) if edit.editor else edit.editor_name or _("someone")
        versions.append(Version(aliases.text(edit.text), who, edit.created_at, edit))
    versions[-1].current = True
    return list(reversed(versions))


def _user(user):
    return user if user is not None and user.is_authenticated else None


# -- a player left out ----------------------------------------------------------------------
def names_changed(sender, table, renamed: dict[str, str], **kwargs) -> None:
    """A player of the table is shown as a label now (or by name again): the story's own
    words (title, subtitle, blurb) are rewritten, and its search text follows the book."""
    try:
        story = table.story
    except Story.DoesNotExist:
        return
    if renamed:
        aliases = Aliases(renamed)
        for field_name in ("title", "subtitle", "blurb"):
            setattr(story, field_name, aliases.text(getattr(story, field_name)))
        story.save(update_fields=["title", "subtitle", "blurb", "updated_at"])
    refresh_search_text(story)
