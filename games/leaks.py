"""The deep check of secrets: every page of every demo table, for every viewer, and what its
owner takes away (its book, export and bundle).

``games.checks`` proves that the referee's views hide what they should; this proves that the
pages show no more than the views. Each demo table of each game (``GameKit.demos``) is made
for real (rows written, then rolled back), and for each viewer (the owner, a spectator, each
seat) the table's kept state is swapped for a *marked* one: every value of every part that
viewer's view leaves out (``games.facing.secret_parts``: the deck, the generator's state,
the game's ``secret_keys``, the other seats' ``private`` paths) becomes a unique marker. Then
every page of the table that viewer may open (the site's and the game's own URL patterns
taking only the table's ``pk``, only a seat's ``token``, or the ``pk`` and a seat's
``position``: the owner's screen handed to that player) is asked for through the whole
stack, and any marker in an answer is a secret shown: the message names the game, the page,
the viewer and the path. A page that reads the state some other way than through what it is
given (a ``Snapshot`` of its own, ``table.state``) is caught the same way.

The referee's ``legal_moves`` is asked with the real state (a marker is no card it knows)
and its answer marked the same way, so a choice drawn from a hidden part that reaches a page
is caught too.

What the owner takes away is checked the same way, with the owner's marked state in the
table's row: the table's export (its JSON script), its bundle (every file in the zip) and
its book (the HTML the PDF is printed from). These are written from the move log, so the log's
own secrets are marked too: the narration of each move the referee keeps secret for now
(``pending_secrets``) becomes a marker, and while a virtual deck is in play a script that
holds the seed or the deck is refused (``games.exports``: they would deal every hand).

It is a deploy check (``manage.py check --deploy``): it writes rows (rolled back) and takes
seconds, where plain ``check`` runs before every command. The suite runs it too
(``tests/games/test_leaks.py``).
"""

from __future__ import annotations

import itertools
import json
import uuid
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from io import BytesIO
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import checks
from django.db import DatabaseError, connection, transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import translation

from games import exports, registry
from games.checks.demos import DEMO_NOW
from games.facing import hidden_values, leaves, secret_parts
from games.models import Move, Seat, Table
from games.registry import GameKit
from games.rules import Game
from games.rules.script import rules_part
from games.services import reading
from games.services.new_tables import import_script

ID = "games.E023"
HINT = (
    "Build the page from what it is given (games.facing.Facing: view, legal, story_tail, "
    "...), never from the table's state: docs/adding-a-game.md, 'What a page receives'."
)
FILES_HINT = (
    "Write a book, an export or a bundle from the move log as games.exports.export_script "
    "leaves it (a virtual deck's seed and deck while in play, and the moves the referee's "
    "pending_secrets names, left out), never from the table's state: docs/adding-a-game.md."
)


class Marking:
    """One viewer's marked state: each plain value of the parts they may not see replaced
    by a marker of its own, and what each marker stands for."""

    _counter = itertools.count(1)

    def __init__(self, referee: Game, state: dict[str, Any], seat: str | None) -> None:
        self.paths: dict[str, str] = {}  # marker -> the path of the part it is in
        self.real: dict[str, Any] = {}  # marker -> the value it replaced
        marked = dict(state)
        for path, part in secret_parts(referee, state, seat):
            marked = _replace(marked, path.split("."), self._mark(part, path))
        self.state = marked
        # The values a choice may carry that the viewer's view does not hold, by marker.
        hidden = hidden_values(referee, state, seat, referee.view(state, seat))
        self.of_value: dict[Any, str] = {}
        for marker, value in self.real.items():
            if value in hidden:
                self.of_value.setdefault(value, marker)

    def _mark(self, value: Any, path: str) -> Any:
        if isinstance(value, dict):
            return {k: self._mark(v, path) for k, v in value.items()}
        if isinstance(value, list):
            return [self._mark(v, path) for v in value]
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            marker = f"zq{next(self._counter):06d}mark"
            self.paths[marker] = path
            self.real[marker] = value
            return marker
        return value

    def unmarked(self, value: Any) -> Any:
        """``value`` with each marker given back its real value (the referee's own state)."""
        if isinstance(value, dict):
            return {k: self.unmarked(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.unmarked(v) for v in value]
        if isinstance(value, str) and value in self.real:
            return self.real[value]
        return value

    def marked_choices(self, templates: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Move templates with every choice drawn from a hidden part as its marker."""
        out = []
        for tpl in templates:
            choices = tpl.get("choices")
            if isinstance(choices, dict):
                tpl = {
                    **tpl,
                    "choices": {
                        k: [self._choice(c) for c in v] if isinstance(v, list) else v
                        for k, v in choices.items()
                    },
                }
            out.append(tpl)
        return out

    def _choice(self, choice: Any) -> Any:
        try:
            return self.of_value.get(choice, choice)
        except TypeError:
            return choice

    def shown(self, text: str) -> list[str]:
        """The paths of the markers ``text`` holds."""
        text = text.lower()
        return sorted({path for marker, path in self.paths.items() if marker in text})


def _replace(value: Any, path: list[str], new: Any) -> Any:
    """``value`` with ``new`` at ``path`` (a copy of each mapping on the way)."""
    if not path:
        return new
    if not isinstance(value, dict) or path[0] not in value:
        return value
    return {**value, path[0]: _replace(value[path[0]], path[1:], new)}


@contextmanager
def _asked_with_the_real_state(referee: Game, marking: Marking) -> Iterator[None]:
    """The referee's ``legal_moves`` reads the real state and answers marked (an instance
    attribute over the method, for the length of one viewer's pages)."""
    real = type(referee).legal_moves

    def legal_moves(state: dict[str, Any], player: str) -> list[dict[str, Any]]:
        return marking.marked_choices(real(referee, marking.unmarked(state), player))

    referee.__dict__["legal_moves"] = legal_moves
    try:
        yield
    finally:
        referee.__dict__.pop("legal_moves", None)


def _mark_pending(referee: Game, table: Table, real: dict[str, Any]) -> dict[str, str]:
    """The narration of each move the referee keeps secret for now (``pending_secrets``)
    replaced by a marker of its own in the table's log (the rows are rolled back): marker ->
    where the move is. A narration is no rules field, so the log replays the same."""
    live = reading.live_moves(table)
    hidden = referee.pending_secrets(real, [rules_part(m.as_script_move()) for m in live])
    found: dict[str, str] = {}
    for index in sorted(hidden):
        marker = f"zq{next(Marking._counter):06d}mark"
        Move.objects.filter(pk=live[index].pk).update(text=marker)
        found[marker] = f"moves.{index}.text"
    return found


def _taken_away(table: Table) -> Iterator[tuple[str, str, list[dict[str, Any]]]]:
    """(what, its text, the scripts it holds) of each file the owner takes away: the export,
    the book (its HTML, as the PDF prints it) and each file of the bundle."""
    # Here, not at the top: stories imports games (its models, its services), so at the top
    # the games app would import stories while stories is still importing games.
    from stories.bundles.export import export_bundle
    from stories.bundles.format import MANIFEST  # the same
    from stories.models import story_for  # the same
    from stories.pdf import book_html  # the same, and WeasyPrint only when it is asked
    from stories.services import make_book  # the same

    script = exports.export_script(table)
    yield "export", json.dumps(script, ensure_ascii=False), [script]
    book = make_book(story_for(table))
    with translation.override(book.language):
        yield "book", book_html(book), []
    data = export_bundle(Table.objects.filter(pk=table.pk))
    with zipfile.ZipFile(BytesIO(data)) as archive:
        for name in archive.namelist():
            text = archive.read(name).decode("utf-8", "replace")
            held = []
            if name == MANIFEST:
                held = [t["script"] for t in json.loads(text).get("tables", [])]
            yield f"bundle's {name}", text, held


def check_files(kit: GameKit, table: Table, real: dict[str, Any], demo: str, error) -> None:
    """Each secret the owner's book, export or bundle of ``table`` holds, said by ``error``
    (the file, the path): with the owner's marked state in the table's row, the moves the
    referee keeps secret marked in its log, and a virtual deck in play."""
    marking = Marking(kit.referee, real, None)
    Table.objects.filter(pk=table.pk).update(state=marking.state)
    marking.paths.update(_mark_pending(kit.referee, table, real))
    table = Table.objects.get(pk=table.pk)
    deck_secret = exports.deck_is_secret(table)
    try:
        files = list(_taken_away(table))
    except Exception as exc:  # noqa: BLE001 - a file that breaks is a message
        error("files", f"could not be written: {type(exc).__name__}: {exc}")
        return
    for what, text, scripts in files:
        for path in marking.shown(text):
            error(what, f"holds the secret at {path!r}, which the owner's view does not hold.")
        for script in scripts if deck_secret else []:
            for key in exports.DECK_SECRETS:
                if key in script:
                    error(what, f"holds the secret at {key!r}: a virtual deck in play.")


def _patterns(urlconf: Any, prefix: str = "") -> list[tuple[str, set[str]]]:
    """(URL name, the names of its arguments) of every named pattern, namespaced."""
    found: list[tuple[str, set[str]]] = []
    for entry in getattr(urlconf, "url_patterns", urlconf):
        if isinstance(entry, URLResolver):
            space = f"{prefix}{entry.namespace}:" if entry.namespace else prefix
            found.extend(_patterns(entry, space))
        elif isinstance(entry, URLPattern) and entry.name:
            found.append((prefix + entry.name, set(entry.pattern.converters)))
    return found


def pages(kit: GameKit) -> tuple[list[str], list[str], list[str]]:
    """The URL names of a table's pages (taking only ``pk``), of a seat's (only ``token``)
    and of the owner's screens for one seat (``pk`` and ``position``: the laptop passed to a
    player): the site's own (``games:``) and the kit's."""
    spaces = ("games:", f"{kit.slug}:")
    named = [(n, a) for n, a in _patterns(get_resolver()) if n.startswith(spaces)]
    return (
        sorted(n for n, a in named if a == {"pk"}),
        sorted(n for n, a in named if a == {"token"}),
        sorted(n for n, a in named if a == {"pk", "position"}),
    )


def _host() -> str:
    for host in settings.ALLOWED_HOSTS:
        if host != "*" and host.lstrip("."):
            return host.lstrip(".")
    return "testserver"


class _Rollback(Exception):
    pass


def check_pages(kit: GameKit) -> list[checks.CheckMessage]:
    """Every secret a page of one game's demo tables shows a viewer whose view does not
    hold it, or its owner's book, export or bundle holds (``check_files``), as check
    messages (none: the pages and the files keep every secret)."""
    messages: list[checks.CheckMessage] = []
    said: set[tuple[str, str, str]] = set()
    referee = kit.referee
    table_pages, seat_pages, passed_pages = pages(kit)

    def error(page: str, who: str, demo: str, text: str) -> None:
        if (page, who, text) in said:
            return
        said.add((page, who, text))
        messages.append(
            checks.Error(
                f"Game {kit.slug!r}, part 'pages': the page {page!r} ({who}) of the demo "
                f"{demo!r} {text}",
                hint=HINT,
                obj=f"game {kit.slug}",
                id=ID,
            )
        )

    def look(client: Client, page: str, args: dict[str, Any], marking: Marking, who: str, demo):
        try:
            response = client.get(reverse(page, kwargs=args), secure=True)
        except Exception as exc:  # noqa: BLE001 - a page that breaks is a message
            error(page, who, demo, f"raised {type(exc).__name__}: {exc}")
            return
        if response.status_code >= 500:
            error(page, who, demo, f"answered {response.status_code}.")
            return
        if getattr(response, "streaming", False):
            return
        for path in marking.shown(response.content.decode("utf-8", "replace")):
            error(
                page,
                who,
                demo,
                f"shows {who} the secret at {path!r}, which their view does not hold.",
            )

    try:
        with transaction.atomic():
            owner = get_user_model().objects.create_user(f"leak-check-{uuid.uuid4().hex[:12]}")
            for name, script in kit.demos(DEMO_NOW):
                table = import_script(dict(script), owner, name=name)
                table = Table.objects.get(pk=table.pk)
                real = table.state
                if real is None or table.state_seq != table.last_seq:
                    continue
                seated = Seat.objects.filter(table=table).values_list("name", "token", "position")
                tokens = {n: t for n, t, _p in seated}
                positions = {n: p for n, _t, p in seated}
                viewers: list[tuple[str | None, str]] = [(None, "the owner")]
                viewers += [(seat, f"seat {seat!r}") for seat in real.get("seats", [])]
                for seat, who in viewers:
                    marking = Marking(referee, real, seat)
                    Table.objects.filter(pk=table.pk).update(state=marking.state)
                    with _asked_with_the_real_state(referee, marking):
                        if seat is None:
                            owner_client = Client(HTTP_HOST=_host())
                            owner_client.force_login(owner)
                            anyone = Client(HTTP_HOST=_host())
                            for page in table_pages:
                                look(owner_client, page, {"pk": table.pk}, marking, who, name)
                                look(anyone, page, {"pk": table.pk}, marking, "a spectator", name)
                        elif seat in tokens:
                            client = Client(HTTP_HOST=_host())
                            for page in seat_pages:
                                look(client, page, {"token": tokens[seat]}, marking, who, name)
                            laptop = Client(HTTP_HOST=_host())
                            laptop.force_login(owner)
                            args = {"pk": table.pk, "position": positions[seat]}
                            for page in passed_pages:
                                look(
                                    laptop,
                                    page,
                                    args,
                                    marking,
                                    f"{who} on the owner's screen",
                                    name,
                                )
                Table.objects.filter(pk=table.pk).update(state=real)

                def file_error(what: str, text: str, demo: str = name) -> None:
                    message = checks.Error(
                        f"Game {kit.slug!r}, part 'files': the {what} of the demo {demo!r} {text}",
                        hint=FILES_HINT,
                        obj=f"game {kit.slug}",
                        id=ID,
                    )
                    if message not in messages:
                        messages.append(message)

                check_files(kit, table, real, name, file_error)
            raise _Rollback
    except _Rollback:
        pass
    except DatabaseError as exc:
        # An information, not a warning: `check --deploy` runs before `migrate` on a new
        # machine (and in the tests of the served settings), where there is nothing to check
        # yet; it must not stop what a warning would stop.
        return [
            checks.Info(
                f"The pages' secrets were not checked: the database cannot hold a demo table "
                f"({type(exc).__name__}: {exc}).",
                hint="Run `manage.py migrate`, then `manage.py check --deploy` again.",
                id="games.I023",
            )
        ]
    return messages


@checks.register("games", deploy=True)
def check_page_secrets(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """The deep check of every registered game's pages (``manage.py check --deploy``)."""
    found: list[checks.CheckMessage] = []
    try:
        tables = set(connection.introspection.table_names())
    except DatabaseError:
        tables = set()
    if Table._meta.db_table not in tables or get_user_model()._meta.db_table not in tables:
        # Not migrated yet (a new machine, where `serve` checks before it migrates): there is
        # no page to check, and nothing to say.
        return found
    for kit in registry.kits():
        for message in check_pages(kit):
            if message not in found:  # the database's one complaint, once for every game
                found.append(message)
    return found


__all__ = ["ID", "Marking", "check_pages", "leaves", "pages"]
