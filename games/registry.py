"""One record per game: the generic code finds every part of a game here.

A game is a package under ``games/`` (a Django app labelled with the game's slug) whose
``AppConfig.ready`` registers one :class:`GameKit`. The write path, the table pages, the
new-table form, the story book, the playtests and the demo command ask this registry for the
game's parts; none of them names a game. Adding a game is one package and one registration
(the checklist is in docs/adding-a-game.md).

This module imports no game: the games import it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.rules import Game, register_referee, unregister_referee
from games.simulate.search import search_class
from games.start import StartMethod


class UnknownGame(KeyError):
    """A game slug nobody registered."""


class NewTableHooks(Protocol):
    """What a game adds to the new-table form (all optional: see ``NoNewTableHooks``)."""

    def add_fields(self, form, user) -> None: ...

    def clean(self, form, cleaned: dict[str, Any]) -> None: ...

    def extra_setup(self, form) -> dict[str, Any]: ...

    def after_create(self, form, table, user) -> None: ...


class NoNewTableHooks:
    """A game whose new-table form is the generic one."""

    def add_fields(self, form, user) -> None:
        return None

    def clean(self, form, cleaned: dict[str, Any]) -> None:
        return None

    def extra_setup(self, form) -> dict[str, Any]:
        return {}

    def after_create(self, form, table, user) -> None:
        return None


# How a balance row's value reads: a count or a mean ("number"), a share of 0..1 ("percent").
BALANCE_KINDS = ("number", "percent")


class BalanceRow(TypedDict):
    """One row of the dashboard's balance table (``PlaytestParts.balance``); make it with
    ``games.playtests.stats.row(key, label, value, kind)``. The check (E008) refuses any
    other shape: the dashboard reads each of these keys."""

    key: str  # the figure's name in the exports and the comparison of two rulesets
    label: Any  # what a person reads (a lazy translation)
    value: float | int | None  # None: no data
    kind: str  # one of BALANCE_KINDS


@dataclass(frozen=True)
class PlaytestParts:
    """A game's part of the playtest reports: its figures, and how they read and chart."""

    # (setup, moves, initial state, states after each move, elapsed seconds) -> figures
    figures: Callable[..., dict[str, Any]]
    # (report entries, their figures) -> the dashboard's balance rows, each a ``BalanceRow``
    # (games.playtests.stats.row makes one; the check refuses any other shape)
    balance: Callable[..., list[Any]]
    # report -> [(label, value)] in reading order
    figure_rows: Callable[[dict[str, Any]], list[tuple[str, str]]]
    # report -> [{"title", "svg"}]
    charts: Callable[[dict[str, Any]], list[dict[str, Any]]]
    # Optional: (options, [report figures of real plays]) -> {bot parameter: {"value", "n"}},
    # what the real plays measure of a bot parameter (the lab offers it for a run).
    bot_params: Callable[..., dict[str, dict[str, Any]]] | None = None
    # Optional: (a run's figures, players) -> [question], the design questions that are the
    # game's own, where the generic ones do not apply (``games.playtests.questions``).
    questions: Callable[..., list[dict[str, Any]]] | None = None


class BookPictures(Protocol):
    """The pictures a game prints in its books (its illustrations), by id."""

    # The illustration ids that have a printable picture (others are left out of the book).
    ids: frozenset[str]

    def picture(self, picture_id: str) -> bytes:
        """The picture as a JPEG for print."""
        ...


@dataclass(frozen=True)
class Credit:
    """Who made a game, exactly as its rules text says: never a guessed name.

    Printed on the game's rules page, its print-and-play sheets and every book of it."""

    designer: str = ""  # the name the text is signed with; empty where it names nobody
    work: Any = ""  # which text the app follows (a lazy translation: "draft 4, in Japanese")
    # The e-mail address the text gives for comments, as it gives it; empty where it gives none.
    address: str = ""

    def line(self) -> str:
        """One sentence in the current language."""
        if self.designer:
            if self.work:
                return _("A game by %(name)s (%(work)s).") % {
                    "name": self.designer,
                    "work": self.work,
                }
            return _("A game by %(name)s.") % {"name": self.designer}
        if self.work:
            return _("From the designer’s draft (%(work)s).") % {"work": self.work}
        return _("From the designer’s draft.")


@dataclass
class Brought:
    """What a kit's :class:`Carry` wrote for one table of a bundle."""

    decks: int = 0
    characters: int = 0
    files: list[str] = field(default_factory=list)  # storage names (removed if refused)


@dataclass(frozen=True)
class Carry:
    """A game's part of a bundle (``stories.bundles``), records that live beside its tables.

    - ``export(table, add_file, person)``: the table's part, JSON, or None for nothing;
      ``add_file(data, extension)`` puts a file in the bundle and returns its name, and
      ``person(user)`` the username a part names someone by.
    - ``check(part, files, people)``: raises ``ValueError("where")`` where the part is not the
      shape ``export`` writes (before anything is written; ``people`` are the usernames).
    - ``bring(table, part, files, people)``: writes the part for the imported ``table`` (part
      None when the bundle carries nothing for it), ``people`` for each username the bundle
      names the user who owns here what they owned there (the importer, unless the name is
      linked to an account); raises ValueError (its message is for the person who sent the
      bundle) to refuse the bundle.
    """

    export: Callable[..., dict[str, Any] | None]
    check: Callable[[Any, dict[str, bytes], set[str]], None]
    bring: Callable[..., Brought]


# The picture of a game that brings none of its own (static/img/game.svg).
DEFAULT_EMBLEM = "img/game.svg"


@dataclass(frozen=True, eq=False)  # one object per game: compared and hashed by identity
class GameKit:
    """Everything the generic code needs from one game."""

    slug: str
    title: Any  # a lazy translation: the game's name as people say it
    referee: Game
    # (snapshot) -> the game's own part of the table page's context (games.snapshot)
    page_context: Callable[..., dict[str, Any]]
    table_template: str  # the table page; its ``panel`` partial answers htmx
    rules_template: str
    # (entries, texts) -> the story book's chapters, from the referee's narrative
    book: Callable[..., list]
    # now -> [(table name, game script)] for the demo command
    demos: Callable[[datetime], list[tuple[str, dict[str, Any]]]]
    playtest: PlaytestParts
    summary: Any = ""  # one sentence for the home page
    # The home page's picture of the game: a static file path (a local SVG under the game's
    # static folder). Optional: without one the site's plain picture of cards is shown.
    emblem: str = DEFAULT_EMBLEM
    # The game's designer as its rules text names them (see Credit).
    credit: Credit = field(default_factory=Credit)
    # The URL name of a seat's own page (it takes the seat's token), if the game has one:
    # "<slug>:seat", mounted with ``games.seats.seat_urls`` (the engine's seat page and move).
    seat_page: str | None = None
    # The seat page's template (extending games/seat_frame.html) and (facing, seat) -> the
    # game's part of its context (``games.seats``: the seat's view, their moves, ... are
    # every seat page's); with ``seat_page``.
    seat_template: str = ""
    seat_context: Callable[[Any, Any], dict[str, Any]] | None = None
    # (request, seat) -> games.forms.Posted: the move a seat's form sends, where it is not
    # the generic form's (``games.forms.posted_move``); the engine puts it in the seat's name.
    seat_move: Callable[[Any, Any], Any] | None = None
    # One-to-one rows beside a table that its page reads every time (their related names):
    # the generic views load them with the table in one query (``table_related``).
    table_related: tuple[str, ...] = ()
    option_labels: Mapping[str, Any] = field(default_factory=dict)
    # The words for an option's values (option name -> {value: lazy label}): a choice's code
    # is for scripts, never shown to a person (see ``value_label``).
    value_labels: Mapping[str, Mapping[Any, Any]] = field(default_factory=dict)
    # Named option sets (earlier drafts) offered on the new-table form.
    presets: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    # The built-in rulesets seeded after migrate: [{"name", "options", "changelog"}].
    rulesets: tuple[dict[str, Any], ...] = ()
    new_table: NewTableHooks = field(default_factory=NoNewTableHooks)
    urls: str | None = None  # the game's own URLconf (its app_name is the slug), if any
    # Pages of the game's own in the site's menu for people logged in: (URL name, label).
    nav: tuple[tuple[str, Any], ...] = ()
    # (book, (width, height)) -> a PIL image: the story book's generated cover. Without one,
    # the archive draws a plain cover with the title and the authors.
    cover: Callable[[Any, tuple[int, int]], Any] | None = None
    # The illustrations the game's book chapters show, if it has any (see BookPictures).
    pictures: BookPictures | None = None
    # () -> every text the game prints in its books, in every language (the bundled fonts
    # must draw each of their characters).
    printed_texts: Callable[[], Iterable[str]] | None = None
    # (games.components.PrintRequest) -> games.components.Components: the game's
    # print-and-play cards and sheets (the ``components`` command and the rules page's
    # download). Required (REQUIRED_PARTS): every game can be played at a real table.
    components: Callable[[Any], Any] | None = None
    # (table, picture number, size) -> one of the table's own uploaded pictures (a stored file,
    # e.g. a custom deck's card) or None. The picture views ask it after checking who may see
    # the table (its owner, a seat's link, a reader of its story): see :func:`picture`.
    picture: Callable[[Any, int, str], Any] | None = None
    # How the game's own text chooses the first player (a draw the new-table form offers,
    # made by the app with a virtual deck and entered by the game master at a physical one).
    start_method: StartMethod | None = None
    # (move payload) -> one sentence saying what the move did ("Ana continues the story."),
    # for the screen reader's announcement after a move and the undo's confirmation; ""
    # (or no hook) falls back to a generic sentence naming the move's number and player.
    describe_move: Callable[[dict[str, Any]], str] | None = None

    # The story so far's template part and (snapshot, entries) -> its context: the table page
    # shows the last scenes and loads the earlier ones through these (``games.views``).
    story_template: str = ""
    story_part: Callable[[Any, list[dict[str, Any]]], dict[str, Any]] | None = None

    # Simulated plays (``manage.py simulate``, ``games.simulate``): the game's bots, name ->
    # bot class (the interface is in ``games.simulate.bots``: ``Bot(params, rng_seed, seat)``,
    # ``choose(view, legal_moves, may_wait) -> move or None``), at least ``random`` and
    # ``sensible``; and (setup, moves, initial state, states after each move, {seat: bot
    # name}) -> one game's figures, {name: number or bool}. A game without bots cannot be
    # simulated; one with bots has both (``games/checks/bots.py`` checks their shape).
    bots: Mapping[str, Any] | None = None
    bot_figures: Callable[..., dict[str, Any]] | None = None
    # The figures the game's simulated games produce, each with its name and one-line meaning
    # in the reader's language, its unit and whether it is a headline figure: a tuple of
    # ``games.playtests.figures.Figure``. Every page, sentence, chart and export reads them;
    # the check refuses a figure ``bot_figures`` gives without its declaration.
    figures: tuple[Any, ...] = ()
    # The bots' parameters in words: name -> (label, one-line meaning), lazy translations.
    # The lab lists, sweeps and reports a parameter by these (the check wants every one).
    bot_param_labels: Mapping[str, tuple[Any, Any]] = field(default_factory=dict)
    # A replayed game's view in words (the lab's game page): the view's parts a designer
    # reads, key -> lazy label, in the order shown (nested parts by the same words), and the
    # words of a part's coded values (e.g. "phase" -> {code: label}); parts unnamed here are
    # not shown.
    view_labels: Mapping[str, Any] = field(default_factory=dict)
    view_values: Mapping[str, Mapping[Any, Any]] = field(default_factory=dict)
    # What ``bot_figures`` reads of each state but the last, as state -> a copy of those
    # parts: with it a simulation plays on one state in place (``Game.apply_in_place``) and
    # hands the figures these traces and the last state whole; without it, every state is
    # a copy kept whole (slower).
    bot_trace: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    # The search bot every game with ``random`` and ``sensible`` bots gets as ``search``
    # (``games.simulate.search``), and what it may be told of the game: what a seat plays
    # for, (state, seat) -> a number in [0, 1] (default: its share of the win once the game
    # is over); the verbs people judge by talking, left to the ``sensible`` bot; and how many
    # moves its playouts look ahead (0: to the end), judged there by ``bot_value``.
    bot_value: Callable[[dict[str, Any], str], float] | None = None
    bot_judged: frozenset[str] = frozenset()
    bot_depth: int = 0

    # A setting of the table outside the referee's script that the write path enforces
    # (the referee's options are closed and it reads no clock): (the locked table, the state
    # before the moves, the moves, now) -> None, or IllegalMove to refuse them all. The
    # contest's strict narrator's minute (``games.contest.minute``).
    table_guard: Callable[..., None] | None = None
    # Whether ``table_guard`` can refuse anything at this table (the locked table -> bool);
    # None: at every table. An import of a script the guard cannot refuse is written in one
    # batch; at a guarded table, move by move, each judged at its own place in the log.
    guarded: Callable[[Any], bool] | None = None

    # What a table of this game takes along in a bundle beyond its script (a custom deck's
    # pictures, the contest's characters): see :class:`Carry` and ``stories.bundles``.
    carry: Carry | None = None

    def value_label(self, name: str, value: Any) -> Any:
        """An option's value as a person reads it: the game's label for a choice, "on"/"off"
        for a switch, a number as it is."""
        if value is True:
            return _("on")
        if value is False:
            return _("off")
        return self.value_labels.get(name, {}).get(value, value)

    def __post_init__(self) -> None:
        if self.slug != self.referee.name:
            raise ValueError(f"kit {self.slug!r} carries the referee of {self.referee.name!r}")
        bots = self.bots
        if bots and "search" not in bots and {"random", "sensible"} <= set(bots):
            found = search_class(
                self.referee, bots, self.bot_value, self.bot_judged, self.bot_depth
            )
            object.__setattr__(self, "bots", {**bots, "search": found})
        if self.bots and "search" in self.bots:  # (a kit copied with replace() too)
            labels = {**SEARCH_PARAM_LABELS, **self.bot_param_labels}
            object.__setattr__(self, "bot_param_labels", labels)


# The words of the search bot's own parameters, which every game with a ``search`` bot takes
# beside its playout bot's (the lab lists, sweeps and reports a parameter by its words).
SEARCH_PARAM_LABELS = {
    "budget": (
        gettext_lazy("Search budget"),
        gettext_lazy("Games the search bot plays on from each of its moves before it chooses."),
    ),
    "depth": (
        gettext_lazy("Search depth"),
        gettext_lazy("How many moves each of those games looks ahead (0: to the end)."),
    ),
}


# Every part a kit must provide for the game to work in every generic page, and where the
# docs/adding-a-game.md says how to write it. ``games/checks/`` (``manage.py check``) checks them all, and
# every optional part a kit has, for each registered game.
PART_HELP = {
    "referee": "rules.py, a games.rules.base.Game whose name is the slug",
    "page_context": "page.py, context(snap) -> dict",
    "table_template": "templates/<slug>/table.html",
    "rules_template": "templates/<slug>/rules.html",
    "book": "book.py, build(entries, texts) -> [Chapter], or stories.books.chronicle",
    "demos": "demo.py, demos(now) -> [(table name, script)]",
    "playtest": "playtest.py, a PlaytestParts",
    "components": "components.py, components(PrintRequest) -> games.components.Components",
}
REQUIRED_PARTS = tuple(PART_HELP)

_KITS: dict[str, GameKit] = {}


def register(kit: GameKit) -> GameKit:
    """Make a game known to the site (and its referee to the scripts)."""
    _KITS[kit.slug] = kit
    register_referee(kit.referee)
    return kit


def unregister(slug: str) -> None:
    """Forget a game (for tests that register a game of their own)."""
    _KITS.pop(slug, None)
    unregister_referee(slug)


def kit(slug: str) -> GameKit:
    try:
        return _KITS[slug]
    except KeyError:
        raise UnknownGame(slug) from None


def kits() -> Iterable[GameKit]:
    return list(_KITS.values())


def table_related() -> list[str]:
    """Every game's ``table_related``: a table page loads them with its table (a LEFT JOIN
    each), so a page costs the same number of queries whatever its game reads beside it."""
    return sorted({name for k in _KITS.values() for name in k.table_related})


def is_game(slug: Any) -> bool:
    return isinstance(slug, str) and slug in _KITS


def choices() -> list[tuple[str, Any]]:
    """(slug, title) for every registered game: the choices of every game select."""
    return [(k.slug, k.title) for k in _KITS.values()]


def picture(table, number: int, size: str) -> Any:
    """The table's own uploaded picture ``number`` in ``size`` (a stored file), or None."""
    found = _KITS.get(table.game)
    if found is None or found.picture is None:
        return None
    return found.picture(table, number, size)


def title(slug: str) -> Any:
    found = _KITS.get(slug)
    return found.title if found is not None else slug


def describe_move(slug: str, payload: dict[str, Any]) -> str:
    """The game's sentence for a move in the current language ("" where it has none)."""
    found = _KITS.get(slug)
    if found is None or found.describe_move is None:
        return ""
    return found.describe_move(payload) or ""
