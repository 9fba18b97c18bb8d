"""The crawl's world and its walk (tests/test_crawl.py): each game's demo tables in every
phase they reach, a book of each, a lab study, a ruleset (``make_world``); and the walk that
follows every link, GET form and htmx target from them, reading each address once per person
and language (``crawl``)."""

from __future__ import annotations

import copy
import functools
import io
import re
import zipfile
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from urllib.parse import urldefrag, urlsplit

from django.contrib.auth.models import Group
from django.template.base import Template
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, get_urlconf
from django.urls.exceptions import Resolver404

from games import registry
from games.models import Table
from games.playtests import lab_bounds, lab_chunks, lab_start
from games.playtests.models import DESIGNERS_GROUP
from games.rules.script import parse_script, replay, rules_part
from games.services.new_tables import import_script
from stories import printing
from stories.models import Story, story_for
from tests.crawl_reading import FREE_TEXT, LANGUAGES, LICENCE, SCRUB, Visible, visible
from tests.pdfs import page_texts

# -- the world --------------------------------------------------------------------------------


def scrubbed(script: dict) -> dict:
    script = copy.deepcopy(script)
    for move in script["moves"]:
        for key in FREE_TEXT & set(move):
            move[key] = SCRUB
        if "abilities" in move:
            move["abilities"] = [SCRUB for _ in move["abilities"]]
    return script


def phase_prefixes(script: dict) -> list[tuple[str, dict]]:
    """One script per phase the demo reaches: its moves up to the first time in that phase,
    and the whole script (the demo's last phase, or its end)."""
    setup, moves = parse_script(script)
    seen: dict[str, int] = {}
    for n in range(len(moves) + 1):
        state = replay(setup, [rules_part(m) for m in moves[:n]]).state
        seen.setdefault(state.get("phase", "?"), n)
    cuts = sorted({*seen.values(), len(moves)})
    return [(f"{n} moves", {**script, "moves": script["moves"][:n]}) for n in cuts]


@dataclass
class World:
    designer: object
    gms: dict[str, object]  # a game master per language, whose tables speak it
    seats: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    extra: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))  # the gm's
    shared: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))  # links
    people: set[str] = field(default_factory=set)


def make_world(django_user_model) -> World:
    designer = django_user_model.objects.create_user(username="designer", password="pw-des-1")
    designer.groups.add(Group.objects.get_or_create(name=DESIGNERS_GROUP)[0])
    gms = {
        language: django_user_model.objects.create_user(username=f"gm{number}", password="pw-1")
        for number, language in enumerate(("en", *LANGUAGES))
    }
    world = World(designer=designer, gms=gms, people={"designer", *map(str, gms.values()), SCRUB})
    now = datetime(2026, 3, 14, 19, 0, tzinfo=UTC)
    for kit in registry.kits():
        for number, (name, script) in enumerate(kit.demos(now)):
            world.people.update(name.split())
            world.people.update(kit.credit.designer.split())
            world.people.update(kit.bots or ())
            for cut, (_label, partial) in enumerate(phase_prefixes(scrubbed(script))):
                for language in LANGUAGES:
                    table = import_script(
                        {**partial, "language": language},
                        gms[language],
                        f"{SCRUB} {len(world.seats) * 100 + Table.objects.count()}",
                    )
                    table.report_sharing = Table.ReportSharing.NAMES
                    table.save(update_fields=["report_sharing"])
                    world.people.update(table.players)
                    for move in partial["moves"]:
                        if isinstance(move.get("name"), str):
                            world.people.update(move["name"].split())
                    if number == 0 and cut == 0:
                        world.seats[language] += [s.token for s in table.seats.all()]
                    if table.game == "amnesia_stories":
                        world.extra[language].append(f"/tables/{table.pk}/projector/")
                    if table.status == Table.Status.FINISHED:
                        story = story_for(table, language)
                        story.title = SCRUB
                        story.visibility = Story.Visibility.UNLISTED  # its link is shared
                        story.publish()
                        story.save()
                        printing.ask(story, "a5")
                        world.shared[language].append(f"/stories/s/{story.secret}/")
    world.people |= {w for p in list(world.people) for w in str(p).split()}
    for game in lab_bounds.simulable_games():
        referee = registry.kit(game).referee
        run = lab_start.start(
            designer, game, None, players=referee.min_players, games=2, bots=["random"]
        )
        lab_chunks.run_everything(run)
    return world


# -- the crawl --------------------------------------------------------------------------------

SKIPPED_PREFIXES = ("/static/", "/media/", "/admin/", "/django-admin/", "/i18n/")
# Addresses a GET would leave the crawl by (logging the reader out, or in as the demo user).
LEAVES = {"logout", "demo_login"}
READ_AS_TEXT = {"text/html"}
# A pattern's addresses read at most by one person (one of each game's tables in each phase;
# a file, that takes seconds to print, once whatever its query asks: its size or preset).
VARIANTS = 8


def route_of(path: str) -> str | None:
    """The pattern serving ``path`` (its view name, or its route), or None. The walk asks it of
    every link it sees, each address many times (11,829 asks of 779 paths in a crawl, 43 us a
    resolve): kept per URL conf (a new resolver when the URL conf changes)."""
    return _route(get_resolver(get_urlconf()), path)


@functools.cache
def _route(resolver: URLResolver, path: str) -> str | None:
    try:
        match = resolver.resolve(path)
    except Resolver404:
        return None
    return match.view_name or match.route


def pattern_names() -> set[str]:
    def walk(resolver, prefix: str, namespace: str):
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                inner = namespace + (f"{entry.namespace}:" if entry.namespace else "")
                yield from walk(entry, prefix + str(entry.pattern), inner)
            else:
                assert isinstance(entry, URLPattern)
                yield (namespace + entry.name) if entry.name else prefix + str(entry.pattern)

    return {
        name
        for name in walk(get_resolver(), "", "")
        if not name.startswith(("admin:", "admin/", "django-admin"))
    }


@dataclass
class Page:
    status: int
    kind: str
    parts: list[str]
    links: list[str]
    posts: list[str]


def fetch(client: Client, url: str, language: str) -> Page:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    kind = response.get("Content-Type", "").split(";")[0].strip()
    if response.status_code in (301, 302):
        return Page(response.status_code, kind, [], [response["Location"]], [])
    if response.status_code != 200:
        return Page(response.status_code, kind, [], [], [])
    body = b"".join(response) if response.streaming else response.content
    if kind == "text/html":
        parser = Visible()
        parser.feed(body.decode())
        return Page(200, kind, parser.parts, parser.links, parser.posts)
    if kind == "application/pdf":
        parts = [line for text in page_texts(body) for line in text.splitlines() if line.strip()]
        return Page(200, kind, parts, [], [])
    if kind == "application/epub+zip":
        parts = []
        with zipfile.ZipFile(io.BytesIO(body)) as book:
            for name in sorted(book.namelist()):
                if name.endswith((".xhtml", ".html")) and not LICENCE.search(name):
                    parts += visible(book.read(name).decode())
        return Page(200, kind, parts, [], [])
    return Page(200, kind, [], [], [])


def normal(url: str, base: str) -> str | None:
    url = urldefrag(url)[0]
    if not url or url.startswith(("mailto:", "tel:", "data:", "javascript:", "#")):
        return None
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        if parts.netloc not in {"testserver", ""}:
            return None
        url = parts.path + (f"?{parts.query}" if parts.query else "")
    if not url.startswith("/"):
        url = base.rsplit("/", 1)[0] + "/" + url
    if url.startswith(SKIPPED_PREFIXES):
        return None
    return url


# Files a page links to, read in pt-BR and ja only (the English page is read for its place).
FILES = {
    "games:components",
    "stories:pdf",
    "stories:epub",
    "stories:single_html",
    "stories:shared_pdf",
    "stories:shared_epub",
    "stories:shared_single_html",
    "playtests:table_report_pdf",
    "playtests:ruleset_pdf",
}


# A shared link's files are the author's files, byte for byte (read under the author's link):
# the crawl sees them linked and does not print them twice.
SAME_FILES = {
    "stories:shared_pdf",
    "stories:shared_epub",
    "stories:shared_single_html",
    "stories:shared_cover",
}


@contextmanager
def plain_templates():
    """Templates rendered as the site renders them, without the test runner's instrument:
    under it every template rendered (37,000 in a crawl, each include and widget) sends a
    signal the test client answers by copying the whole context, for ``response.context``,
    which the crawl never reads (it reads the HTML)."""
    instrumented = Template._render
    Template._render = _render
    try:
        yield
    finally:
        Template._render = instrumented


def _render(self: Template, context) -> str:  # django.template.base.Template._render
    return self.nodelist.render(context)


def crawl(
    clients: dict[str, Client], seeds: dict[str, list[str]], language: str, files: bool = True
):
    """Every page each person reaches from their seeds: {(person, url): Page}; and the
    patterns seen but not read (POST targets, ``SAME_FILES``)."""
    with plain_templates():
        return _crawl(clients, seeds, language, files)


def _crawl(clients: dict[str, Client], seeds: dict[str, list[str]], language: str, files: bool):
    pages: dict[tuple[str, str], Page] = {}
    posted: set[str] = set()
    files_read: set[str] = set()  # a file is read once, by the first person who reaches it
    for person, client in clients.items():
        todo = list(seeds[person])
        variants: dict[str | None, int] = defaultdict(int)
        while todo:
            url = re.sub(r"[?&]next=[^&]*$", "", todo.pop(0))
            route = route_of(urlsplit(url).path)
            if (person, url) in pages or (route in FILES and url.split("?")[0] in files_read):
                continue
            if route is None or route in LEAVES or (route in FILES and not files):
                continue
            variants[route] += 1
            if variants[route] > VARIANTS:
                continue
            page = fetch(client, url, language)
            if route in FILES:
                files_read.add(url.split("?")[0])
            pages[person, url] = page
            for post in page.posts:
                target = normal(post, url)
                if target and (name := route_of(urlsplit(target).path)):
                    posted.add(name)
            for link in page.links:
                target = normal(link, url)
                if target and route_of(urlsplit(target).path) in SAME_FILES:
                    posted.add(str(route_of(urlsplit(target).path)))
                    continue
                if target and (person, target) not in pages:
                    todo.append(target)
    return pages, posted


def seat_links(world: World, language: str) -> list[str]:
    from django.urls import reverse

    links = []
    for token in world.seats[language]:
        table = Table.objects.get(seats__token=token)
        kit = registry.kit(table.game)
        if kit.seat_page:
            links.append(reverse(kit.seat_page, args=[token]))
    return links
