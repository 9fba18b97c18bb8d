"""The EPUB and the single HTML file, cached on disk like the PDFs (``stories.cache``): named
after the story and the hash of everything in the book, so a changed story makes new ones."""

from __future__ import annotations

from stories.books import content_hash
from stories.cache import cache_dir, cached
from stories.epub import authors, designer_name, render_epub
from stories.models import Story
from stories.services import Book, make_book
from stories.single_html import render_single_html

# Bumped when a builder changes in a way the book's hash cannot see.
FORMATS_VERSION = 1


def _key(book: Book) -> str:
    """The book's hash and what else only these files' metadata shows."""
    story = book.story
    extra = [book.hash, authors(book), designer_name(book), str(story.table.uuid)]
    return content_hash([FORMATS_VERSION, extra, story.updated_at, story.published_at])[:32]


def epub_for(story: Story, book: Book | None = None) -> bytes:
    book = book or make_book(story)
    path = cache_dir() / "epub" / f"{story.pk}-{_key(book)}.epub"
    return cached(path, lambda: render_epub(book), stale=f"{story.pk}-*.epub")


def single_html_for(story: Story, book: Book | None = None) -> bytes:
    book = book or make_book(story)
    path = cache_dir() / "html" / f"{story.pk}-{_key(book)}.html"
    return cached(path, lambda: render_single_html(book), stale=f"{story.pk}-*.html")
