"""Who may reach every URL of the site: one matrix, generated from the URLconf.

Every pattern of ``get_resolver()`` (walked recursively, named by its namespaced name, or by
its route when it has none) must have at least one row in ``ROWS``; a new URL without a row
fails ``test_every_url_pattern_has_a_row``, and a row for a pattern that is gone fails too.

A row fills the pattern's arguments from the world below (a table of each game, a custom deck
and the tables playing with it, a story of each visibility, seat links, a character, a
ruleset, an external report...) and says what each of five actors gets on GET:

- ``anonymous``: nobody logged in, holding no link;
- ``other``: another user, with no table, story, deck or ruleset of their own;
- ``seat``: a browser with no account that holds the seat links (the token is the credential);
- ``owner``: the owner of everything in the world (its tables, deck, stories, character and
  ruleset; the seat links are theirs to hand out);
- ``designer``: a member of the "designers" group, who owns nothing here.

Token URLs are filled with the real token for the actors who hold it (``seat`` and ``owner``)
and with a made-up one of the same shape for the others. Story secret links are shared links:
every actor gets the real one, and what they see depends on the story's visibility.

For views that take a POST, a row also says what a POST from each actor who may not use the
view gets, and the test checks that it changed nothing (every row of the project's tables,
and the uploaded files). Where the owner's POST body is meant to change something, the test
then posts it as the owner, in the same world, and checks that it does: the refusals were
refusals of a request that would have worked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse

from games import views as games_views
from games.playtests import dashboard_views, report_views
from games.playtests.models import DESIGNERS_GROUP
from stories import formats as story_formats
from stories import pdf as story_pdf
from stories import views as story_views
from tests.permission_digest import Changes
from tests.permission_rows import Row
from tests.permission_rows_playtests import PLAYTEST_ROWS
from tests.permission_rows_stories import STORY_ROWS
from tests.permission_rows_tables import TABLE_ROWS
from tests.permission_world import (
    ACTORS,
    ADMIN,
    EVERYONE,
    FAKE_PDF,
    LOGIN,
    STAFF,
    World,
    X,
    make_world,
)


@pytest.fixture
def designer(db, django_user_model):
    user = django_user_model.objects.create_user(username="designer")
    user.groups.add(Group.objects.get_or_create(name=DESIGNERS_GROUP)[0])
    return user


@pytest.fixture
def world(gm, other, designer, settings, tmp_path, monkeypatch) -> World:
    settings.MEDIA_ROOT = str(tmp_path / "media")
    # Who may download is the question here, not how the PDFs and covers look.
    monkeypatch.setattr(story_pdf, "render_book_pdf", lambda book, size="a5": FAKE_PDF)
    monkeypatch.setattr(story_views, "cover_image", lambda book: (b"PNG", "image/png"))
    monkeypatch.setattr(story_formats, "render_epub", lambda book: b"PK fake epub")
    monkeypatch.setattr(story_formats, "render_single_html", lambda book: b"<p>fake</p>")
    monkeypatch.setattr(report_views, "table_pdf", lambda context: FAKE_PDF)
    monkeypatch.setattr(dashboard_views, "render_pdf", lambda context: FAKE_PDF)
    # The print-and-play sheets: the view checks the game and the request, then asks for this.
    monkeypatch.setattr(games_views, "cached_pdf", lambda kit, print_job, size: FAKE_PDF)
    return make_world(gm, other, designer)


@pytest.fixture
def clients(world) -> dict[str, Client]:
    logged = {"other": world.other, "owner": world.owner, "designer": world.designer}
    out = {}
    for actor in ACTORS:
        out[actor] = Client()
        if actor in logged:
            out[actor].force_login(logged[actor])
    return out


# The whole table, the admin's rows added below.
ROWS: list[Row] = [*TABLE_ROWS, *PLAYTEST_ROWS, *STORY_ROWS]


# -- the admin: staff only, for every model it lists ----------------------------------------
ADMIN_MODELS = (
    "auth.group",
    "auth.user",
    "accounts.profile",
    "games.table",
    "games.seat",
    "games.move",
    "games.ruleset",
    "amnesia_stories.customdeck",
    "amnesia_stories.customcard",
    "contest.character",
    "contest.seatcharacter",
    "playtests.playtestreport",
    "playtests.externalreport",
    "playtests.impression",
    "stories.story",
    "stories.narrationedit",
    "stories.tag",
    # django-axes: the failed logins it counts
    "axes.accessattempt",
    "axes.accesslog",
    "axes.accessfailurelog",
    # django-tasks-db: the queued and finished tasks (books, long runs)
    "django_tasks_database.dbtaskresult",
)


def admin_rows() -> list[Row]:
    rows = [
        Row("admin:index", STAFF),
        Row("admin:login", EVERYONE),
        Row("admin:logout", (302,) * 5),  # to the admin's index, which asks to log in
        Row("admin:password_change", STAFF),
        Row("admin:password_change_done", STAFF),
        Row("admin:autocomplete", STAFF),
        Row("admin:jsi18n", STAFF),
        Row("admin:view_on_site", STAFF, lambda w, a: [1, w.owner.pk]),
        Row("admin:app_list", STAFF, lambda w, a: ["games"]),
        Row("admin:auth_user_password_change", STAFF, lambda w, a: [w.owner.pk]),
        Row("admin/(?P<url>.*)$", STAFF, path=lambda w, a: "/admin/nothing/here/"),
    ]
    for label in ADMIN_MODELS:
        app, model = label.split(".")
        name = f"admin:{app}_{model}"
        rows += [Row(f"{name}_changelist", STAFF), Row(f"{name}_add", STAFF)]
        one = lambda w, a: [w.owner.pk]  # noqa: E731 - any id: nobody here gets that far
        rows += [Row(f"{name}_{view}", STAFF, one) for view in ("history", "delete", "change")]
        route = f"admin/{app}/{model}/<path:object_id>/"
        rows.append(
            Row(route, STAFF, path=lambda w, a, app=app, model=model: f"/admin/{app}/{model}/1/")
        )
    return rows


ROWS += admin_rows()


# -- the walk -----------------------------------------------------------------------------
def url_patterns(patterns=None, prefix: str = "", namespace: str = "") -> list[tuple[str, str]]:
    """(key, route) of every pattern, depth first: the namespaced name, or the route."""
    found = []
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            inner = namespace
            if pattern.namespace:
                inner = f"{namespace}:{pattern.namespace}" if namespace else pattern.namespace
            found += url_patterns(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        else:
            assert isinstance(pattern, URLPattern)
            route = prefix + str(pattern.pattern)
            if pattern.name:
                key = f"{namespace}:{pattern.name}" if namespace else pattern.name
            else:
                key = route
            found.append((key, route))
    return found


def test_every_url_pattern_has_a_row():
    found = [key for key, _route in url_patterns()]
    keys = set(found)
    shared = sorted({key for key in found if found.count(key) > 1})
    assert shared == [], "URL names given to two patterns: the matrix cannot tell them apart"
    covered = {row.key for row in ROWS}
    assert sorted(keys - covered) == [], "URL patterns with no row in the permission matrix"
    assert sorted(covered - keys) == [], "rows for URL patterns that no longer exist"


# -- running the matrix -------------------------------------------------------------------
def is_login(response, url: str) -> bool:
    return response.status_code == 302 and response["Location"].startswith(
        reverse(settings.LOGIN_URL) + "?next="
    )


def is_admin_login(response) -> bool:
    return response.status_code == 302 and response["Location"].startswith(
        reverse("admin:login") + "?next="
    )


def outcome(response, url: str) -> Any:
    """The status, with a redirect to a login page told apart from any other redirect."""
    if is_login(response, url):
        return LOGIN
    if is_admin_login(response):
        return ADMIN
    return response.status_code


@dataclass
class Figures:
    patterns: int = 0
    rows: int = 0
    requests: int = 0
    gets: int = 0
    refused_posts: int = 0
    leaks: list[str] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)
    writers: list[str] = field(default_factory=list)


def granted(status: Any) -> bool:
    return isinstance(status, int) and 200 <= status < 300


def run_row(
    row: Row, world: World, clients: dict[str, Client], figures: Figures, changes: Changes
) -> None:
    label = f"{row.key}" + (f" [{row.variant}]" if row.variant else "")
    if row.path is not None:
        route = resolve(row.path(world, "owner")).route
        if route != row.key:
            figures.mismatches.append(f"{label}: its URL is served by {route}")
    for actor, expected in zip(ACTORS, row.get, strict=True):
        url = row.url(world, actor)
        before = changes.digest()
        response = clients[actor].get(url, row.query(world) if row.query else None)
        figures.requests += 1
        figures.gets += 1
        if changes.digest() != before:
            figures.writers.append(f"GET {label} as {actor}")
        got = outcome(response, url)
        if got != expected:
            figures.mismatches.append(f"GET {label} as {actor}: {got}, expected {expected}")
        if granted(got) and not granted(expected):
            figures.leaks.append(f"GET {label} as {actor}")
    if row.post is None:
        return
    for actor, expected in zip(ACTORS, row.post, strict=True):
        if expected is X:
            continue
        url = row.url(world, actor)
        before = changes.digest()
        response = clients[actor].post(url, row.data(world) if row.data else {})
        figures.requests += 1
        figures.refused_posts += 1
        got = outcome(response, url)
        if got != expected:
            figures.mismatches.append(f"POST {label} as {actor}: {got}, expected {expected}")
        if changes.digest() != before:
            figures.leaks.append(f"POST {label} as {actor} changed something")


@pytest.mark.long
def test_who_may_reach_every_url_and_no_get_writes(world, clients, changes, settings):
    """Who may reach every URL pattern, by GET and by POST; and a GET never writes: no row of
    any table (nor an uploaded file) changes under any of the matrix's GETs, every pattern
    asked by every actor (what is stale is computed and shown, not stored). One sweep answers
    both: a refused POST between two GETs changes nothing either (it is a leak if it does).

    Then, in the same world (the sweep left it as it was, or failed), the owner's POST of the
    same body does change something: the refusals were refusals of requests that would have
    worked (``owner_posts_change_something``; one world built for both, not two)."""
    # Every request comes from one address: the guessed-secret rows alone would reach the
    # link throttle, which has tests of its own (tests/test_guessing.py); here, who may see.
    settings.SECRET_LINK_FAILURES = 10_000
    assert {row.key for row in ROWS} == {key for key, _route in url_patterns()}
    figures = Figures(patterns=len(url_patterns()), rows=len(ROWS))
    for row in ROWS:
        run_row(row, world, clients, figures, changes)
    assert figures.gets == len(ROWS) * len(ACTORS)
    # The rows were read again after each request that ran a statement other than a read
    # (logins touch the session, which is not watched): at least once, at most once a request.
    assert 1 <= changes.rereads <= figures.requests + 1
    assert figures.writers == [], "\n".join(["GETs that wrote:", *figures.writers])
    # The figures, for whoever runs this with -s.
    print(
        f"\npermission matrix: {figures.patterns} URL patterns, {figures.rows} rows, "
        f"{len(ACTORS)} actors, {figures.requests} requests "
        f"({figures.refused_posts} refused POSTs), {len(figures.leaks)} leaks"
    )
    assert not figures.leaks, "\n".join(["Leaks:", *figures.leaks])
    assert not figures.mismatches, "\n".join(["Not as the matrix says:", *figures.mismatches])
    owner_posts_change_something(world, clients, changes)


def owner_posts_change_something(world, clients, changes) -> None:
    """The owner's POST of the same body does change something: the refusals above were
    refusals of requests that would have worked."""
    unchanged = []
    for row in ROWS:
        if not row.owner_changes:
            continue
        before = changes.digest()
        response = clients["owner"].post(
            row.url(world, "owner"), row.data(world) if row.data else {}
        )
        assert response.status_code in (200, 204, 302), (row.key, response.status_code)
        if changes.digest() == before:
            unchanged.append(row.key)
    assert unchanged == []
