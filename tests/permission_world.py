"""The permission matrix's world (tests/test_permission_matrix.py): its five actors, the
statuses a row expects of them, and everything the rows' URLs are filled from (a table of each
game, a custom deck and its tables, a story of each visibility, seat links, a character, a
ruleset, an external report...), built by ``make_world`` (the ``world`` fixture, once a test)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from games.amnesia_stories import decks
from games.amnesia_stories.models import CustomCard
from games.contest.models import Character
from games.models import Ruleset, Table
from games.playtests.models import ExternalReport, SimulationRun
from games.services import new_tables, reading, writing
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
    return new_tables.create_table(
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
    state = reading.state_of(laptop)
    tell = {"by": state["bard"], "do": "tell", "story": state["journey"][:2], "text": "Far."}
    writing.play_many(laptop, [tell], laptop.last_seq)
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
    amnesia = new_tables.create_table(gm, "amnesia", ["Ana", "Bruno"], seed=7)
    writing.play_many(amnesia, [{"by": "Ana", "do": "continue", "text": "It began."}], 0)
    return World(
        owner=gm,
        other=other,
        designer=designer,
        amnesia=amnesia,
        contest=new_tables.create_table(gm, "contest", ["Ada", "Bea"], seed=7),
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
