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

import hashlib
import json
import os
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse

from games import services
from games import views as games_views
from games.amnesia_stories import decks
from games.amnesia_stories.models import CustomCard
from games.contest.models import Character
from games.models import Ruleset, Table
from games.playtests import dashboard_views, report_views
from games.playtests.models import DESIGNERS_GROUP, ExternalReport, SimulationRun
from games.rules import get_game
from stories import formats as story_formats
from stories import pdf as story_pdf
from stories import views as story_views
from stories.models import Story, story_for
from tests.games.amnesia_stories.test_decks import good_files, make_zip
from tests.playtests.conftest import finished_table

ACTORS = ("anonymous", "other", "seat", "owner", "designer")
HOLDERS = frozenset({"seat", "owner"})  # who holds the seat links

LOGIN = "login"  # a redirect to the site's login page
ADMIN = "admin"  # a redirect to the admin's login page
X = None  # in a POST expectation: an actor who may POST (not posted by the refusal test)

# The usual rows, one status per actor in ACTORS order.
EVERYONE = (200, 200, 200, 200, 200)
LOGGED_IN = (LOGIN, 200, LOGIN, 200, 200)
OWNER = (LOGIN, 404, LOGIN, 200, 404)
OWNER_OR_DESIGNER = (LOGIN, 404, LOGIN, 200, 200)
TOKEN = (404, 404, 200, 200, 404)
STAFF = (ADMIN,) * 5
POST_ONLY = (LOGIN, 405, LOGIN, 405, 405)  # a GET of a view that only takes POST
# A GET of a URL that only writes (a move, an undo...): sent on to the page it writes to, which
# then decides who may see it (games.answers.write_url), so an address left in the bar works.
SENT_ON = (LOGIN, 302, LOGIN, 302, 302)
# What a POST from someone who may not gets.
OWNER_POST = (LOGIN, 404, LOGIN, X, 404)
TOKEN_POST = (404, 404, X, X, 404)
LOGGED_IN_POST = (LOGIN, X, LOGIN, X, X)

FAKE_PDF = b"%PDF-1.7 fake for the permission matrix"


# -- the world ----------------------------------------------------------------------------
@dataclass
class World:
    owner: Any
    other: Any
    designer: Any
    amnesia: Table  # active
    contest: Table  # active
    laptop: Table  # Amnesia Stories with the owner's deck, players answering
    finished: Table  # a finished Amnesia Stories playtest, on the owner's ruleset
    deck: Any
    card: CustomCard
    stories: dict[str, Story]
    character: Character
    ruleset: Ruleset
    external: ExternalReport
    unshared: Table | None = None  # a finished table whose owner does not share its report
    run: SimulationRun | None = None  # the owner's simulated run (the lab), not shared
    guesses: dict[str, str] = field(default_factory=dict)

    def token(self, table: Table, actor: str) -> str:
        """The seat link's token for those who hold it; a made-up one for the others."""
        real = table.seats.order_by("position").first().token
        if actor in HOLDERS:
            return real
        return self.guesses.setdefault(real, secrets.token_urlsafe(24))


def deck_table(owner, deck, name: str) -> Table:
    return services.create_table(
        owner,
        "amnesia_stories",
        ["Ana", "Bruno", "Caio"],
        name=name,
        options={"choices": 3, "questions": 2, "rounds": 1},
        seed=7,
        extra=decks.table_extra(deck),
    )


def make_world(gm, other, designer) -> World:
    deck = decks.import_deck(gm, "Forest deck", make_zip(good_files()))
    laptop = deck_table(gm, deck, "The laptop")
    state = services.state_of(laptop)
    tell = {"by": state["bard"], "do": "tell", "story": state["journey"][:2], "text": "Far."}
    services.play(laptop, tell, laptop.last_seq)
    stories = {}
    for key, visibility, published in [
        ("private", Story.Visibility.PRIVATE, True),
        ("unlisted", Story.Visibility.UNLISTED, True),
        ("public", Story.Visibility.PUBLIC, True),
        ("draft", Story.Visibility.PUBLIC, False),
    ]:
        table = laptop if key == "private" else deck_table(gm, deck, f"Deck {key}")
        story = story_for(table)
        story.title = f"Story {key}"
        story.visibility = visibility
        if published:
            story.publish()
        story.save()
        stories[key] = story
    ruleset = Ruleset.objects.create(
        game="amnesia_stories", name="The owner's draft", options={}, owner=gm, created_by=gm
    )
    # Its owner shares its report (with the ruleset's owner and the designers group).
    finished = finished_table(
        gm,
        "amnesia_stories/01_judging_branches",
        ruleset=ruleset,
        report_sharing=Table.ReportSharing.NAMES,
    )
    # The same game unshared: its report is its owner's alone.
    unshared = finished_table(gm, "amnesia_stories/01_judging_branches", ruleset=ruleset)
    # Approved, and its sender agreed to publication: a designer may publish it.
    external = ExternalReport.objects.create(
        game="amnesia_stories",
        ruleset=ruleset,
        played_on="2026-03-01",
        players=4,
        duration_minutes=50,
        ip_hash="x" * 64,
        approved=True,
        publish_consent=ExternalReport.Consent.WITH_NAMES,
    )
    run = SimulationRun.objects.create(
        owner=gm,
        game="amnesia_stories",
        ruleset=ruleset,
        ruleset_label=f"{ruleset.name}@1",
        players=4,
        games_asked=3,
        bots=["random"],
        options={},
        changed={"bard_points": 3},
        status=SimulationRun.Status.DONE,
        games_done=3,
        figures={"moves": {"n": 3, "kind": "mean", "value": 40.0}},
    )
    amnesia = services.create_table(gm, "amnesia", ["Ana", "Bruno"], seed=7)
    services.play(amnesia, {"by": "Ana", "do": "continue", "text": "It began."}, 0)
    return World(
        owner=gm,
        other=other,
        designer=designer,
        amnesia=amnesia,
        contest=services.create_table(gm, "contest", ["Ada", "Bea"], seed=7),
        laptop=laptop,
        finished=finished,
        deck=deck,
        card=deck.cards.order_by("position").first(),
        stories=stories,
        character=Character.objects.create(owner=gm, name="Zed", unspent_points=1),
        ruleset=ruleset,
        external=external,
        unshared=unshared,
        run=run,
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


# -- the rows -----------------------------------------------------------------------------
Args = Callable[[World, str], Any]


@dataclass
class Row:
    key: str  # the pattern's namespaced name, or its route when it has none
    get: tuple  # the GET status of each actor, in ACTORS order
    args: Args = lambda w, actor: []  # noqa: E731 - positional URL arguments
    variant: str = ""
    query: Callable[[World], dict] | None = None
    post: tuple | None = None  # the status of a refused POST, X where the actor may POST
    data: Callable[[World], dict] | None = None
    # The owner's POST of ``data`` changes something (checked by the last test).
    owner_changes: bool = False
    path: Args | None = None  # for a pattern with no name: the URL itself

    def url(self, world: World, actor: str) -> str:
        if self.path is not None:
            return self.path(world, actor)
        return reverse(self.key, args=self.args(world, actor))


def story_rows(name: str, by: str, expected: dict[str, tuple], extra: Args | None = None):
    """Rows of a story view for each visibility (``by`` the story's id or its secret)."""
    rows = []
    for key, statuses in expected.items():

        def args(w: World, actor: str, key=key) -> list:
            story = w.stories[key]
            first = story.pk if by == "pk" else story.secret
            return [first, *(extra(w, actor) if extra else [])]

        rows.append(Row(f"stories:{name}", statuses, args, variant=key))
    return rows


def redirected(statuses: tuple) -> tuple:
    """The same people, sent on (302) where the others see the page (200)."""
    return tuple(302 if status == 200 else status for status in statuses)


def guessed_secret_row(name: str, extra: Args | None = None) -> Row:
    def args(w: World, actor: str) -> list:
        return [secrets.token_urlsafe(18), *(extra(w, actor) if extra else [])]

    return Row(f"stories:{name}", (404,) * 5, args, variant="guessed secret")


# A reader who is not an author: by id only a published public story; by the secret link a
# published unlisted or public one. The owner is the story's author.
AUTHOR_ONLY = (404, 404, 404, 200, 404)  # the story views ask nobody to log in
BY_ID = {"private": AUTHOR_ONLY, "unlisted": AUTHOR_ONLY, "public": EVERYONE, "draft": AUTHOR_ONLY}
BY_SECRET = {"private": AUTHOR_ONLY, "unlisted": EVERYONE, "public": EVERYONE, "draft": AUTHOR_ONLY}


def picture(w: World, actor: str) -> list:
    return [w.card.pk, "large"]


def pk(attr: str) -> Args:
    return lambda w, actor: [getattr(w, attr).pk]


def laptop_seat(w: World, actor: str) -> list:
    """A seat of the laptop table that has not answered yet."""
    state = services.state_of(w.laptop)
    name = next(n for n in state["seats"] if n not in state["answered"])
    return [w.laptop.pk, w.laptop.seats.get(name=name).position]


def expected_seq(table: Callable[[World], Table]) -> Callable[[World], dict]:
    def data(w: World) -> dict:
        found = table(w)
        found.refresh_from_db()
        return {"expected_seq": found.last_seq}

    return data


def amnesia_move(w: World) -> dict:
    """A legal move at the Amnesia table, by the player whose turn it is (one with no fields:
    the referee's first)."""
    w.amnesia.refresh_from_db()
    state = services.state_of(w.amnesia)
    legal = get_game("amnesia").legal_moves(state, state["turn"])
    return {"by": state["turn"], "do": legal[0]["do"], "expected_seq": w.amnesia.last_seq}


ATTRIBUTES = {"brains": 3, "muscle": 4, "moves": 3, "coolness": 2}
STORY_EDIT = {"title": "Vandalised", "subtitle": "", "language": "en", "blurb": "", "tags": ""}
IMPRESSION = {
    "fun": 5,
    "length": 5,
    "clarity": 5,
    "downtime": 5,
    "decisions": 5,
    "again": 5,
    "change": "Vandalised",
}
ROWS: list[Row] = [
    Row("favicon.ico", (301,) * 5, path=lambda w, a: "/favicon.ico"),
    # -- accounts and languages --
    Row("signup", (200, 302, 200, 302, 302)),
    Row("login", EVERYONE),
    Row("logout", (405,) * 5),
    Row("password_change", LOGGED_IN),
    Row("password_change_done", LOGGED_IN),
    Row("password_reset", EVERYONE),
    Row("password_reset_done", EVERYONE),
    Row("password_reset_confirm", EVERYONE, lambda w, a: ["MQ", "set-password"]),
    Row("password_reset_complete", EVERYONE),
    Row("set_language", (302,) * 5),
    Row(
        "profile",
        LOGGED_IN,
        post=LOGGED_IN_POST,
        data=lambda w: {"display_name": "Vandal"},
        owner_changes=True,
    ),
    # A POST that logs in as the demo account; this world has none, so it answers 404.
    Row("demo_login", (405,) * 5, post=(404,) * 5),
    # -- the table engine --
    Row("games:home", EVERYONE),
    Row("games:table_new", LOGGED_IN, post=LOGGED_IN_POST),
    Row(
        "games:table_import",
        LOGGED_IN,
        post=LOGGED_IN_POST,
        data=lambda w: {"script_text": json.dumps(services.script_of(w.amnesia))},
        owner_changes=True,
    ),
    Row("games:table", OWNER, pk("amnesia")),
    Row(
        "games:move",
        SENT_ON,
        pk("amnesia"),
        post=OWNER_POST,
        data=amnesia_move,
        owner_changes=True,
    ),
    Row(
        "games:undo",
        SENT_ON,
        pk("amnesia"),
        post=OWNER_POST,
        data=expected_seq(lambda w: w.amnesia),
        owner_changes=True,
    ),
    Row(
        "games:draft",
        SENT_ON,
        pk("amnesia"),
        post=OWNER_POST,
        data=lambda w: {"text": "Vandalised"},
        owner_changes=True,
    ),
    Row("games:export", OWNER, pk("amnesia")),
    Row(
        "games:names",
        OWNER,
        pk("amnesia"),
        post=OWNER_POST,
        data=lambda w: {"position": 0, "label": "Player 1"},
        owner_changes=True,
    ),
    Row("games:narrative", OWNER, pk("amnesia")),
    Row("games:story", OWNER, pk("amnesia")),
    Row("games:picture", OWNER, lambda w, a: [w.laptop.pk, *picture(w, a)]),
    Row("games:seat_picture", TOKEN, lambda w, a: [w.token(w.laptop, a), *picture(w, a)]),
    # The rules are public; a table's own rules follow the table, a seat's its link.
    Row("games:rules", EVERYONE, lambda w, a: ["amnesia"]),
    Row("games:table_rules", OWNER, pk("contest")),
    Row("games:seat_rules", TOKEN, lambda w, a: [w.token(w.contest, a)]),
    # A poll answers 404, never a redirect to the login page, to whoever may not follow the
    # table: what would an htmx page do with a login form?
    Row("games:poll", (404, 404, 404, 200, 404), pk("amnesia")),
    Row("games:seat_poll", TOKEN, lambda w, a: [w.token(w.contest, a)]),
    Row("games:join", OWNER, pk("contest")),
    Row("games:join_qr", OWNER, lambda w, a: [w.contest.pk, 0]),
    # Revoking a seat's link (and making a new one) is the owner's; a GET goes to the join
    # screen, which the owner alone sees.
    Row(
        "games:reissue_link",
        SENT_ON,
        lambda w, a: [w.contest.pk, 1],
        post=OWNER_POST,
        owner_changes=True,
    ),
    # The print-and-play sheets are public, like the rules they go with.
    Row("games:components", EVERYONE, lambda w, a: ["amnesia"]),
    # -- Amnesia Stories --
    Row("amnesia_stories:projector", OWNER, pk("laptop")),
    Row("amnesia_stories:handoff", OWNER, laptop_seat),
    Row(
        "amnesia_stories:answer",
        OWNER,
        laptop_seat,
        post=OWNER_POST,
        data=lambda w: {"pick-1": 1, "pick-2": 2, "expected_seq": w.laptop.last_seq},
        owner_changes=True,
    ),
    Row("amnesia_stories:revealed", SENT_ON, pk("laptop"), post=OWNER_POST),
    # Opening a step of the reveal: the owner's; a GET opens nothing and shows the table.
    Row(
        "amnesia_stories:reveal",
        (LOGIN, 404, LOGIN, 302, 404),
        pk("laptop"),
        post=OWNER_POST,
        data=lambda w: {"turn": 1, "step": 1},
    ),
    Row(
        "amnesia_stories:timer",
        SENT_ON,
        pk("laptop"),
        post=OWNER_POST,
        data=lambda w: {"seconds": 30, "action": "set"},
    ),
    Row("amnesia_stories:area_image", EVERYONE, lambda w, a: ["A01", "thumb"]),
    Row("amnesia_stories:decks", LOGGED_IN),
    Row("amnesia_stories:deck_upload", LOGGED_IN, post=LOGGED_IN_POST),
    Row("amnesia_stories:deck", OWNER, pk("deck")),
    Row(
        "amnesia_stories:deck_delete",
        SENT_ON,
        pk("deck"),
        post=OWNER_POST,
        owner_changes=True,
    ),
    Row("amnesia_stories:deck_picture", OWNER, lambda w, a: [w.deck.pk, w.card.pk, "thumb"]),
    # -- the contest --
    Row(
        "contest:build",
        OWNER,
        pk("contest"),
        query=lambda w: {"move": json.dumps({"by": "Ada", "do": "play"})},
        post=OWNER_POST,
    ),
    Row("contest:table_character", SENT_ON, pk("contest"), post=OWNER_POST),
    Row(
        "contest:bring",
        SENT_ON,
        pk("contest"),
        post=OWNER_POST,
        data=lambda w: {"by": "Ada", "character": w.character.pk},
    ),
    Row(
        "contest:display",
        SENT_ON,
        pk("contest"),
        post=OWNER_POST,
        data=lambda w: {"drinks_as": "penalty_points"},
        owner_changes=True,
    ),
    Row("contest:seat_qr", OWNER, lambda w, a: [w.contest.pk, 0]),
    Row("contest:seat", TOKEN, lambda w, a: [w.token(w.contest, a)]),
    Row(
        "contest:seat_move",
        (302,) * 5,
        lambda w, a: [w.token(w.contest, a)],
        post=TOKEN_POST,
    ),
    Row("amnesia:seat", TOKEN, lambda w, a: [w.token(w.amnesia, a)]),
    Row(
        "amnesia:seat_move",
        (302,) * 5,
        lambda w, a: [w.token(w.amnesia, a)],
        post=TOKEN_POST,
    ),
    Row("amnesia_stories:seat", TOKEN, lambda w, a: [w.token(w.laptop, a)]),
    Row(
        "amnesia_stories:seat_move",
        (302,) * 5,
        lambda w, a: [w.token(w.laptop, a)],
        post=TOKEN_POST,
    ),
    Row("contest:characters", LOGGED_IN),
    Row(
        "contest:character_new",
        LOGGED_IN,
        post=LOGGED_IN_POST,
        data=lambda w: {"name": "Yum", **ATTRIBUTES},
        owner_changes=True,
    ),
    Row("contest:character", OWNER, pk("character")),
    Row(
        "contest:character_edit",
        OWNER,
        pk("character"),
        post=OWNER_POST,
        data=lambda w: {"name": "Vandal", **ATTRIBUTES},
        owner_changes=True,
    ),
    Row(
        "contest:character_spend",
        SENT_ON,
        pk("character"),
        post=OWNER_POST,
        data=lambda w: {"attribute": "brains"},
        owner_changes=True,
    ),
    # -- playtests --
    Row("playtests:index", LOGGED_IN),
    Row(
        "playtests:table_report",
        OWNER_OR_DESIGNER,
        pk("finished"),
        post=(LOGIN, 404, LOGIN, X, 403),
        data=lambda w: {"place": "Vandalised"},
        owner_changes=True,
    ),
    Row("playtests:table_report", OWNER, pk("unshared"), variant="not shared"),
    Row("playtests:table_report_pdf", OWNER_OR_DESIGNER, pk("finished")),
    Row("playtests:table_report_pdf", OWNER, pk("unshared"), variant="not shared"),
    Row(
        "playtests:table_sharing",
        OWNER,
        pk("unshared"),
        post=OWNER_POST,
        data=lambda w: {"report_sharing": "names"},
        owner_changes=True,
    ),
    Row(
        "playtests:gm_impression",
        OWNER,
        lambda w, a: [w.finished.pk, 0],
        post=OWNER_POST,
        data=lambda w: IMPRESSION,
        owner_changes=True,
    ),
    # A seat's impressions link as a QR code: the secret link, for the owner's report only.
    Row("playtests:seat_impression_qr", OWNER, lambda w, a: [w.finished.pk, 0]),
    Row(
        "playtests:seat_impression",
        TOKEN,
        lambda w, a: [w.token(w.finished, a)],
        post=TOKEN_POST,
        data=lambda w: {**IMPRESSION, "change": "Vandalised by a seat"},
        owner_changes=True,
    ),
    Row(
        "playtests:rulesets",
        LOGGED_IN,
        lambda w, a: ["amnesia_stories"],
        post=LOGGED_IN_POST,
    ),
    Row(
        "playtests:ruleset_edit",
        (LOGIN, 403, LOGIN, 200, 200),
        pk("ruleset"),
        post=(LOGIN, 403, LOGIN, X, X),
        data=lambda w: {"changelog": "Vandalised"},
    ),
    Row("playtests:ruleset_pdf", (LOGIN, 403, LOGIN, 200, 200), pk("ruleset")),
    Row("playtests:dashboard", (LOGIN, 403, LOGIN, 200, 200), lambda w, a: ["amnesia_stories"]),
    Row("playtests:export_csv", (LOGIN, 403, LOGIN, 200, 200), lambda w, a: ["amnesia_stories"]),
    Row("playtests:export_json", (LOGIN, 403, LOGIN, 200, 200), lambda w, a: ["amnesia_stories"]),
    Row(
        "playtests:review_external",
        POST_ONLY,
        pk("external"),
        post=(LOGIN, 403, LOGIN, X, X),
        data=lambda w: {"decision": "approve"},
        owner_changes=True,
    ),
    Row(
        "playtests:publish_external",
        POST_ONLY,
        pk("external"),
        post=(LOGIN, 403, LOGIN, X, X),
        data=lambda w: {"publish": "1"},
        owner_changes=True,
    ),
    # -- the lab: designers of the game; a run is its owner's unless shared --
    Row(
        "playtests:lab",
        (LOGIN, 403, LOGIN, 200, 200),
        lambda w, a: ["amnesia_stories"],
        post=(LOGIN, 403, LOGIN, X, X),
        data=lambda w: {"players": 4, "games": 1, "bots": "random", "seed": 1},
        owner_changes=True,
    ),
    Row("playtests:run_detail", OWNER, pk("run")),
    # A run read as a study, and one of its games replayed (the run's owner only).
    Row("playtests:study", OWNER, pk("run")),
    Row("playtests:run_game", OWNER, lambda w, a: [w.run.pk, 1]),
    Row("playtests:run_game_open", (LOGIN, 404, LOGIN, 302, 404), pk("run")),
    Row(
        "playtests:study_new",
        (LOGIN, 403, LOGIN, 200, 200),
        lambda w, a: ["amnesia_stories"],
        post=(LOGIN, 403, LOGIN, X, X),
    ),
    Row("playtests:run_compare", OWNER, pk("run"), query=lambda w: {"other": w.run.pk}),
    Row("playtests:run_export", OWNER, lambda w, a: [w.run.pk, "csv"]),
    Row("playtests:run_export", OWNER, lambda w, a: [w.run.pk, "json"], variant="json"),
    Row("playtests:run_cancel", POST_ONLY, pk("run"), post=OWNER_POST),
    Row("playtests:run_delete", POST_ONLY, pk("run"), post=OWNER_POST),
    Row(
        "playtests:run_share",
        POST_ONLY,
        pk("run"),
        post=OWNER_POST,
        data=lambda w: {"username": "designer"},
        owner_changes=True,
    ),
    Row(
        "playtests:run_save_ruleset",
        POST_ONLY,
        pk("run"),
        post=OWNER_POST,
        data=lambda w: {"name": "Vandalised"},
        owner_changes=True,
    ),
    Row("playtests:published", EVERYONE, lambda w, a: ["amnesia_stories"]),
    Row("playtests:public_report", EVERYONE, lambda w, a: ["amnesia_stories"]),
    Row(
        "playtests:public_report_for",
        EVERYONE,
        lambda w, a: ["amnesia_stories", w.ruleset.pk],
    ),
    # -- stories --
    Row("stories:archive", EVERYONE),
    Row(
        "stories:for_table",
        (LOGIN, 404, LOGIN, 302, 404),
        lambda w, a: [w.stories["private"].table_id],
        variant="private",
    ),
    Row(
        "stories:for_table",
        (LOGIN, 302, LOGIN, 302, 302),
        lambda w, a: [w.stories["public"].table_id],
        variant="public",
    ),
    # No draft made yet: the authors' GET shows the button that makes it (a POST), and writes
    # nothing; the owner's POST makes it.
    Row(
        "stories:for_table",
        (LOGIN, 404, LOGIN, 200, 404),
        lambda w, a: [w.amnesia.pk],
        variant="no draft yet",
        post=(LOGIN, 404, LOGIN, X, 404),
        owner_changes=True,
    ),
    *story_rows("detail", "pk", BY_ID),
    # A book not kept: its download (a GET prints nothing) sends the reader to its page, which
    # asks for it with a POST.
    *story_rows("pdf", "pk", {k: redirected(v) for k, v in BY_ID.items()}),
    *story_rows("pdf_status", "pk", BY_ID),
    *story_rows("cover", "pk", BY_ID),
    *story_rows("picture", "pk", BY_ID, extra=picture),
    *story_rows("shared", "secret", BY_SECRET),
    *story_rows("shared_pdf", "secret", {k: redirected(v) for k, v in BY_SECRET.items()}),
    *story_rows("shared_pdf_status", "secret", BY_SECRET),
    guessed_secret_row("shared_pdf_status"),
    *story_rows("shared_cover", "secret", BY_SECRET),
    *story_rows("shared_picture", "secret", BY_SECRET, extra=picture),
    *story_rows("epub", "pk", BY_ID),
    *story_rows("single_html", "pk", BY_ID),
    *story_rows("shared_epub", "secret", BY_SECRET),
    *story_rows("shared_single_html", "secret", BY_SECRET),
    guessed_secret_row("shared_epub"),
    Row("stories:table_play", OWNER, lambda w, a: [w.finished.pk]),
    Row("stories:my_plays_json", LOGGED_IN),
    Row("stories:my_plays_csv", LOGGED_IN),
    Row(
        "stories:bundle_import",
        (LOGIN, 403, LOGIN, 200, 200),
        post=(LOGIN, 403, LOGIN, X, X),
    ),
    guessed_secret_row("shared"),
    guessed_secret_row("shared_picture", extra=picture),
    Row(
        "stories:edit",
        OWNER,
        lambda w, a: [w.stories["public"].pk],
        post=OWNER_POST,
        data=lambda w: {**STORY_EDIT, "visibility": "public"},
        owner_changes=True,
    ),
    Row(
        "stories:publish",
        POST_ONLY,
        lambda w, a: [w.stories["public"].pk],
        post=OWNER_POST,
        data=lambda w: {"action": "unpublish"},
        owner_changes=True,
    ),
    Row(
        "stories:new_link",
        POST_ONLY,
        lambda w, a: [w.stories["unlisted"].pk],
        post=OWNER_POST,
        owner_changes=True,
    ),
    Row(
        "stories:narration",
        OWNER,
        lambda w, a: [w.stories["private"].pk, 1],
        post=OWNER_POST,
        data=lambda w: {"text": "Vandalised"},
        owner_changes=True,
    ),
    Row(
        "stories:revert",
        POST_ONLY,
        lambda w, a: [w.stories["private"].pk, 1],
        post=OWNER_POST,
        data=lambda w: {"version": "original"},
        owner_changes=True,  # after the narration's edit above
    ),
]


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


# Not what a request may change: the log-ins of the actors' clients, the migrations.
UNWATCHED_TABLES = frozenset({"django_session", "django_migrations"})


def rows_digest() -> str:
    """Every row of every watched table (raw SQL: it is taken often)."""
    state = hashlib.sha256()
    with connection.cursor() as cursor:
        for table in sorted(connection.introspection.table_names(cursor)):
            if table not in UNWATCHED_TABLES:
                cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)} ORDER BY 1")
                state.update(repr((table, cursor.fetchall())).encode())
    return state.hexdigest()


UPLOADS = ("decks", "stories")  # the uploads' folders in MEDIA_ROOT


def uploads_digest() -> str:
    """The files under the uploads' folders, by their path in MEDIA_ROOT (os.walk and strings:
    it is taken twice a request, and pathlib's rglob and relative_to were a quarter of the
    matrix's time)."""
    media = settings.MEDIA_ROOT
    files = []
    for folder in UPLOADS:
        for parent, _dirs, names in os.walk(os.path.join(media, folder)):
            inside = os.path.relpath(parent, media).replace(os.sep, "/")
            files += [f"{inside}/{name}" for name in names]
    return repr(sorted(files))


def digest() -> str:
    """Every row of every table and the list of uploads: what a refused POST must not change."""
    return rows_digest() + uploads_digest()


# A statement that cannot change a row. Anything else (INSERT, UPDATE, DELETE, DDL, a PRAGMA, a
# WITH that may hide a write...) makes the next digest read every row again.
READS = re.compile(r"\s*(SELECT|SAVEPOINT|RELEASE|ROLLBACK|BEGIN|COMMIT|SHOW)\b", re.IGNORECASE)


class Changes:
    """``digest()`` for the thousands of requests of the matrix: the rows are read again only
    when a statement that may write has run on the connection since they were last read (every
    statement passes through ``__call__``, Django's execute wrapper); the uploads are listed
    every time. A request that ran only reads left every row as it was."""

    def __init__(self) -> None:
        self.rows: str | None = None
        self.rereads = 0

    def __call__(self, execute, sql, params, many, context):
        if not READS.match(sql):
            self.rows = None
        return execute(sql, params, many, context)

    def digest(self) -> str:
        if self.rows is None:
            self.rows = rows_digest()
            self.rereads += 1
        return self.rows + uploads_digest()


@pytest.fixture
def changes():
    watcher = Changes()
    with connection.execute_wrapper(watcher):
        yield watcher


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
