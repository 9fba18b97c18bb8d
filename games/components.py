"""Print-and-play components: a game's cards and sheets, laid out for long-edge duplex.

A game's kit may carry a ``components`` part: ``(PrintRequest) -> Components``, the cards and
sheets the game needs at a real table, as HTML fragments (the game writes its own texts and
pictures; this module never names a game). This module lays them out and prints them with the
story book's WeasyPrint set-up (``stories.pdf``: our own URL fetcher, the bundled fonts), so
nothing is fetched from outside.

The layout, for a sheet of paper printed on both sides and turned over its long edge:

- Cards of one size are tiled in a grid centred on the page, edge to edge (one cut separates
  two cards), with cut marks in the margin at every cut line.
- Every page of faces is followed by the page of their backs. Turning a portrait sheet over its
  long edge mirrors it about its vertical centre line, so a card at column ``c`` on the face
  page has its back at column ``cols - 1 - c`` on the back page, same row: the back cell is the
  face cell mirrored, ``x -> page width - x - card width``.
- A full-page sheet (a score sheet, a mat) is one-sided: its back page is left blank, so every
  part starts on a fresh sheet of paper and the page count stays even.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy

from amnesia_site import lists
from games.registry import GameKit
from stories.cache import cache_dir, cached
from stories.pdf import html_to_pdf


class ComponentsError(ValueError):
    """A print request the game cannot answer (no components, an unknown preset or deck)."""


@dataclass(frozen=True)
class PageSize:
    name: str
    width: float  # millimetres
    height: float
    css: str  # the CSS @page size
    label: Any = ""  # its name for people (a lazy translation)


PAGE_SIZES = {
    "a4": PageSize("a4", 210.0, 297.0, "A4", "A4"),
    "letter": PageSize("letter", 215.9, 279.4, "letter", gettext_lazy("US Letter")),
}
DEFAULT_SIZE = "a4"
# The margin a grid keeps at least on each side: room for the cut marks and a line of notes
# (and more than most printers' unprintable border).
MIN_MARGIN = 10.0
MARK_GAP = 1.0  # between a cut mark and the card's edge
MARK_LENGTH = 5.0
NOTE_TOP, NOTE_ROOM = 2.0, 7.0  # the face page's note, above the marks (mm from the top)


@dataclass(frozen=True)
class PrintRequest:
    """What to print: the table's options (defaults filled in), the language, and, for a
    table, its number of players and its extra set-up (a custom deck...)."""

    options: Mapping[str, Any]
    language: str = "en"
    players: int | None = None  # None: enough for the most players the game takes
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Card:
    face: SafeString
    back: SafeString


@dataclass(frozen=True)
class CardSheet:
    """Cards of one size (width, height in mm), printed face and back."""

    title: str
    size: tuple[float, float]
    cards: list[Card]
    note: str = ""  # what to cut, how many: printed above the first page of faces


@dataclass(frozen=True)
class Sheet:
    """A one-sided full page (its back is left blank)."""

    title: str
    html: SafeString


@dataclass
class Components:
    title: str
    parts: list[CardSheet | Sheet]
    # path -> (bytes, MIME type): pictures the fragments link to, served by the fetcher
    resources: dict[str, tuple[bytes, str]] = field(default_factory=dict)
    stylesheet: str | None = None  # the game's own static CSS, if any


# -- the grid -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Grid:
    """Where cards of one size sit on a page: ``cols`` × ``rows``, centred."""

    page: PageSize
    card: tuple[float, float]
    cols: int
    rows: int

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def left(self) -> float:
        return (self.page.width - self.cols * self.card[0]) / 2

    @property
    def top(self) -> float:
        return (self.page.height - self.rows * self.card[1]) / 2

    def face(self, slot: int) -> tuple[float, float]:
        """The top-left corner (mm) of the card in ``slot`` (0-based, row by row)."""
        row, col = divmod(slot, self.cols)
        return self.left + col * self.card[0], self.top + row * self.card[1]

    def back(self, slot: int) -> tuple[float, float]:
        """The same card's back: its face cell mirrored about the page's vertical centre."""
        x, y = self.face(slot)
        return self.page.width - x - self.card[0], y


def grid_for(page: PageSize, card: tuple[float, float]) -> Grid:
    width, height = card
    cols = math.floor((page.width - 2 * MIN_MARGIN) / width)
    rows = math.floor((page.height - 2 * MIN_MARGIN) / height)
    if cols < 1 or rows < 1:
        raise ComponentsError(f"A {width} × {height} mm card does not fit on {page.name}.")
    return Grid(page, card, cols, rows)


def _mm(value: float) -> str:
    return f"{value:.3f}mm"


def _box(x: float, y: float, w: float, h: float) -> str:
    return f"left:{_mm(x)};top:{_mm(y)};width:{_mm(w)};height:{_mm(h)}"


def _marks(grid: Grid, used: int) -> list[str]:
    """The cut marks around the rows in use: a short line in the margin at every cut."""
    rows = math.ceil(used / grid.cols)
    left, top = grid.left, grid.top
    right, bottom = left + grid.cols * grid.card[0], top + rows * grid.card[1]
    length = max(2.0, min(MARK_LENGTH, top - MARK_GAP - NOTE_ROOM, left - 2 * MARK_GAP))
    marks = []
    for col in range(grid.cols + 1):
        x = left + col * grid.card[0]
        marks.append(_box(x, top - MARK_GAP - length, 0, length))
        marks.append(_box(x, bottom + MARK_GAP, 0, length))
    for row in range(rows + 1):
        y = top + row * grid.card[1]
        marks.append(_box(left - MARK_GAP - length, y, length, 0))
        marks.append(_box(right + MARK_GAP, y, length, 0))
    return marks


def pages(components: Components, page: PageSize) -> list[dict[str, Any]]:
    """Every page in print order: each page of faces, then its backs; a sheet, then a blank."""
    out: list[dict[str, Any]] = []
    for part in components.parts:
        if isinstance(part, Sheet):
            out.append({"kind": "sheet", "title": part.title, "html": part.html})
            out.append({"kind": "blank"})
            continue
        grid = grid_for(page, part.size)
        chunks = [
            part.cards[i : i + grid.per_page] for i in range(0, len(part.cards), grid.per_page)
        ]
        for number, chunk in enumerate(chunks, start=1):
            marks = _marks(grid, len(chunk))
            note = (
                part.title
                if len(chunks) == 1
                else f"{part.title}{lists.bracketed(f'{number}/{len(chunks)}')}"
            )
            faces = [
                {"style": _box(*grid.face(i), *part.size), "html": card.face}
                for i, card in enumerate(chunk)
            ]
            backs = [
                {"style": _box(*grid.back(i), *part.size), "html": card.back}
                for i, card in enumerate(chunk)
            ]
            out.append(
                {
                    "kind": "face",
                    "title": note,
                    "note": part.note if number == 1 else "",
                    "note_style": _box(
                        grid.left, NOTE_TOP, grid.cols * part.size[0], NOTE_ROOM - NOTE_TOP
                    ),
                    "cards": faces,
                    "marks": marks,
                }
            )
            out.append({"kind": "back", "cards": backs, "marks": marks})
    return out


# -- asking the game, printing ------------------------------------------------------------
def default_options(kit: GameKit) -> dict[str, Any]:
    return {name: option.default for name, option in kit.referee.options.items()}


def print_request(
    kit: GameKit,
    *,
    language: str = "en",
    preset: str | None = None,
    table: Any = None,
    deck: int | None = None,
    players: int | None = None,
) -> PrintRequest:
    """The request for the game's defaults, a preset of its kit, or a table's own set-up
    (its options, its players, its extra set-up such as a custom deck)."""
    options = default_options(kit)
    extra: dict[str, Any] = {}
    if preset:
        if preset not in kit.presets:
            known = ", ".join(kit.presets) or "none"
            raise ComponentsError(f"No preset {preset!r} for {kit.slug} (presets: {known}).")
        options.update(kit.presets[preset]["options"])
    if table is not None:
        if table.game != kit.slug:
            raise ComponentsError(f"Table {table.pk} plays {table.game}, not {kit.slug}.")
        options.update(table.options or {})
        extra.update(table.extra or {})
        # a table's components print for its seats (unless asked for another count)
        players = players or len(table.players) or None
    if deck is not None:
        extra["custom_deck"] = deck
    if players is not None:
        low, high = kit.referee.min_players, kit.referee.max_players
        if not low <= players <= high:
            raise ComponentsError(f"{kit.slug} seats {low} to {high} players, not {players}.")
    return PrintRequest(options=options, language=language, players=players, extra=extra)


def language_code(language: str | None) -> str:
    """One of the site's languages (English for anything else)."""
    codes = [code for code, _name in settings.LANGUAGES]
    language = (language or "").lower()
    if language in codes:
        return language
    for code in codes:  # "pt" -> "pt-br"
        if code.split("-")[0] == language.split("-")[0]:
            return code
    return "en"


def build(kit: GameKit, request: PrintRequest) -> Components:
    if kit.components is None:
        raise ComponentsError(f"{kit.slug} has no print-and-play components.")
    with translation.override(request.language):
        return kit.components(request)


def components_html(kit: GameKit, components: Components, size: str, language: str) -> str:
    page = PAGE_SIZES[size]
    with translation.override(language):
        return render_to_string(
            "games/components.html",
            {
                "title": components.title,
                "game": kit.title,
                "language": language,
                "page": page,
                "page_style": mark_safe(_box(0, 0, page.width, page.height)),  # numbers only
                "pages": pages(components, page),
                "stylesheet": components.stylesheet,
                # The designer, as the game's rules text names them, on every printed sheet.
                "credit": kit.credit.line(),
            },
        )


def prepare(
    kit: GameKit, request: PrintRequest, size: str = DEFAULT_SIZE
) -> tuple[str, dict[str, tuple[bytes, str]]]:
    """The document WeasyPrint reads, and the pictures it links to."""
    if size not in PAGE_SIZES:
        raise ComponentsError(f"No page size {size!r} (sizes: {', '.join(PAGE_SIZES)}).")
    components = build(kit, request)
    return components_html(kit, components, size, request.language), components.resources


def render_pdf(kit: GameKit, request: PrintRequest, size: str = DEFAULT_SIZE) -> bytes:
    html, resources = prepare(kit, request, size)
    return html_to_pdf(html, extra=resources)


def cached_pdf(kit: GameKit, request: PrintRequest, size: str = DEFAULT_SIZE) -> bytes:
    """The PDF from the disk cache, named after a hash of everything that goes into it (a
    changed template, text or picture makes a new file and removes the old one)."""
    html, resources = prepare(kit, request, size)
    digest = hashlib.sha256(html.encode())
    for path in sorted(resources):
        body, mime = resources[path]
        digest.update(f"\0{path}\0{mime}\0".encode())
        digest.update(body)
    options = json.dumps(dict(request.options), sort_keys=True, default=str).encode()
    prefix = f"{kit.slug}-{size}-{request.language}-{hashlib.sha256(options).hexdigest()[:8]}"
    path = cache_dir() / "components" / f"{prefix}-{digest.hexdigest()[:24]}.pdf"
    return cached(path, lambda: html_to_pdf(html, extra=resources), stale=f"{prefix}-*.pdf")
