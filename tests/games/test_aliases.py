"""A player who asked to be left out: their name replaced by a label in the table's story, book,
exports and playtest reports, while the move log stays as it was played."""

from __future__ import annotations

import csv
import json
import re
from datetime import UTC, datetime
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games import exports, registry
from games.aliases import Aliases, aliases_of, clear_alias, free_label, set_alias
from games.models import Table
from games.playtests.models import DESIGNERS_GROUP, Impression
from games.playtests.service import ensure_report
from games.rules.script import replay_script
from games.services import new_tables, reading
from stories import services as story_services
from stories.models import Story, story_for
from tests.pdfs import all_text
from tests.stories.conftest import played_at, weasyprint_once  # noqa: F401 - a fixture

NOW = datetime(2026, 1, 1, tzinfo=UTC)
GOLDEN = Path(__file__).resolve().parents[1] / "scripts"
# The games (the registry's): in each one's finished demo, its second player asks to be left
# out (every player narrates).
SLUGS = [kit.slug for kit in registry.kits()]


def absent(name: str, text: str) -> bool:
    """No trace of the name as a word ("Bo" may well be inside "Book")."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is None


def pdf_words(data: bytes) -> str:
    return all_text(data, "\n")


# -- reading through the labels ------------------------------------------------------------------
def test_prose_loses_the_name_where_it_stands_as_a_word():
    aliases = Aliases({"Ana": "Player 1", "美咲": "プレイヤー3"})
    assert aliases.text("Ana's banana: ANA, Anabel and Ana.") == (
        "Player 1's banana: ANA, Anabel and Player 1."
    )
    # Japanese has no spaces between words: the name counts wherever it stands.
    assert aliases.text("美咲は走った") == "プレイヤー3は走った"
    assert aliases.data({"Ana": ["Ana", 3, "Banana"]}) == {"Player 1": ["Player 1", 3, "Banana"]}
    assert Aliases().text("Ana") == "Ana" and not Aliases()


def test_a_move_keeps_its_verb_time_and_cards():
    aliases = Aliases({"Ana": "P1"}, keep=("card",))
    move = {"by": "Ana", "do": "Ana", "card": "Ana", "at": "Ana", "text": "Ana runs.", "to": "Ana"}
    assert aliases.move(move) == {
        "by": "P1",
        "do": "Ana",
        "card": "Ana",
        "at": "Ana",
        "text": "P1 runs.",
        "to": "P1",
    }


# -- one table of each game ----------------------------------------------------------------------
def finished_demo(game: str) -> dict:
    for _name, script in registry.kit(game).demos(NOW):
        if replay_script(script)[1].get("finished"):
            return script
    raise AssertionError(f"{game} has no finished demo")


@pytest.fixture
def designer_gm(gm):
    gm.groups.add(Group.objects.get_or_create(name=DESIGNERS_GROUP)[0])
    return gm


def everything_shown(client, table: Table, story: Story) -> dict[str, str]:
    """Every page and file that shows the table's players, as text."""
    game = table.game
    out, real = StringIO(), StringIO()
    call_command("referee", "export", str(table.pk), stdout=out)
    call_command("playtest", "stats", str(table.pk), stdout=real)
    pages = {
        "export": reverse("games:export", args=[table.pk]),
        "story data": reverse("games:narrative", args=[table.pk]),
        "story page": reverse("stories:detail", args=[story.pk]),
        "report": reverse("playtests:table_report", args=[table.pk]),
        "report csv": reverse("playtests:export_csv", args=[game]),
        "report json": reverse("playtests:export_json", args=[game]),
        "dashboard": reverse("playtests:dashboard", args=[game]),
    }
    shown = {}
    for what, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, what
        shown[what] = response.content.decode()
    shown["referee export"] = out.getvalue()
    shown["playtest stats"] = real.getvalue()
    shown["archive search"] = client.get(reverse("stories:archive"), {"q": "x"}).content.decode()
    return shown


@pytest.mark.django_db
@pytest.mark.parametrize("game", SLUGS)
def test_a_removed_name_is_nowhere_the_table_is_shown(game, designer_gm, gm_client):
    name = finished_demo(game)["players"][1]
    table = new_tables.import_script(finished_demo(game), designer_gm)
    position = table.players.index(name)
    assert name in table.name  # the default name lists the players
    story = story_for(table)
    story.publish()
    story.visibility = Story.Visibility.PUBLIC
    story.save()
    story_services.edit_narration(
        story, reading.live_moves(table)[0].seq, f"{name} was there first.", designer_gm
    )
    seat = table.seats.get(name=name)
    Impression.objects.create(
        report=ensure_report(table),
        seat=seat,
        player=name,
        fun=5,
        length=4,
        clarity=3,
        downtime=4,
        decisions=5,
        again=5,
        best_moment=f"When {name} won the crowd.",
    )
    state = reading.state_of(table)
    before = everything_shown(gm_client, table, story)
    assert not any(absent(name, text) for text in before.values())  # else the test proves nothing
    searched = Client().get(reverse("stories:archive"), {"q": name}).content.decode()
    assert story.get_absolute_url() in searched

    set_alias(table, position, "Player 9")

    after = everything_shown(gm_client, table, story)
    for what, text in after.items():
        assert absent(name, text), what
    assert "Player 9" in after["export"] and "Player 9" in after["story page"]
    story.refresh_from_db()
    assert absent(name, story.search_text) and absent(name, story.title)
    if len(name) > 2:  # the archive searches substrings: "Bo" is in every "book"
        searched = Client().get(reverse("stories:archive"), {"q": name}).content.decode()
        assert story.get_absolute_url() not in searched
    # The renamed script replays to the same game, the label where the name was.
    code, replayed = replay_script(json.loads(after["export"]))
    assert code == 0 and replayed == Aliases({name: "Player 9"}).data(state)
    # The log is untouched: the operator's export with the names is the original game.
    out = StringIO()
    call_command("referee", "export", str(table.pk), "--real-names", stdout=out)
    assert json.loads(out.getvalue()) == reading.script_of(table)
    assert reading.rebuild_state(table) == state


def printed(client, story: Story):
    """The story's book, asked for as the story page asks (a POST prints a short one)."""
    asked = client.post(reverse("stories:pdf_status", args=[story.pk]) + "?size=a5")
    assert asked.status_code == 302
    return client.get(asked["Location"])


# Played at a fixed time, the books print alike on both engines: make test's PostgreSQL run
# reads the SQLite run's (weasyprint_once).
@pytest.mark.usefixtures("weasyprint_once")
@pytest.mark.django_db
def test_the_book_and_report_pdfs_lose_the_name_too(designer_gm, gm_client):
    script = json.loads((GOLDEN / "amnesia" / "11_finale_and_end_story.json").read_text())
    table = new_tables.import_script(played_at(script["script"]), designer_gm)  # a short book
    story = story_for(table)
    before = pdf_words(printed(gm_client, story).content)
    assert "Bruno" in before
    Impression.objects.create(
        report=ensure_report(table),
        player="Bruno",
        fun=5,
        length=4,
        clarity=3,
        downtime=4,
        decisions=5,
        again=5,
        change="Bruno would like fewer rules.",
    )
    set_alias(table, table.players.index("Bruno"), "Player 2")
    book = printed(gm_client, story)
    assert book.status_code == 200
    text = pdf_words(book.content)
    assert absent("Bruno", text) and "Player 2" in text
    report = gm_client.get(reverse("playtests:table_report_pdf", args=[table.pk]))
    text = pdf_words(report.content)
    assert absent("Bruno", text) and "Player 2" in text and "fewer rules" in text


@pytest.mark.django_db
def test_csv_export_columns_carry_the_label(designer_gm, gm_client):
    table = new_tables.import_script(finished_demo("amnesia_stories"), designer_gm)
    set_alias(table, 1, "Player 2")
    rows = list(
        csv.DictReader(
            StringIO(
                gm_client.get(
                    reverse("playtests:export_csv", args=["amnesia_stories"])
                ).content.decode()
            )
        )
    )
    assert rows[0]["participants"] == "Ana; Player 2; Caio"


# -- the label ----------------------------------------------------------------------------------
@pytest.mark.django_db
def test_a_label_that_is_somebody_else_is_refused(make_table):
    table = make_table("amnesia")
    for taken in ("Ana", " caio ", "Bruno"):
        with pytest.raises(ValidationError):
            set_alias(table, 1, taken)
    set_alias(table, 0, "Player 1")
    with pytest.raises(ValidationError):
        set_alias(table, 1, "player 1")
    with pytest.raises(ValidationError):
        set_alias(table, 1, "   ")
    for naming in ("Bruno's seat", "Caio 2"):
        with pytest.raises(ValidationError, match="cannot hold a player's name"):
            set_alias(table, 1, naming)
    assert aliases_of(table).labels == {"Ana": "Player 1"}


@pytest.mark.django_db
def test_a_label_the_rules_would_read_differently_is_refused(gm):
    """A contest character named like the label: the renamed game would not replay."""
    table = new_tables.import_script(finished_demo("contest"), gm)
    with pytest.raises(ValidationError, match="would not replay"):
        set_alias(table, table.players.index("Bo"), "Zed")
    assert aliases_of(table).labels == {}


@pytest.mark.django_db
def test_the_name_can_be_shown_again_but_rewritten_titles_stay(gm, make_table):
    table = make_table("amnesia")
    story = story_for(table)
    assert "Bruno" in story.title
    set_alias(table, 1, "Player 2")
    story.refresh_from_db()
    table.refresh_from_db()
    assert "Bruno" not in story.title and "Player 2" in table.name
    clear_alias(table, 1)
    assert exports.export_script(table)["players"] == ["Ana", "Bruno", "Caio"]
    table.refresh_from_db()
    assert "Player 2" in table.name


# -- the owner's page ---------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_label_offered_is_free(make_table):
    table = make_table("amnesia", ("Ana", "Player 2", "Caio"))
    seats = list(table.seats.all())
    assert [free_label(s, seats) for s in seats] == ["Player 1", "Player 5", "Player 3"]
    table = make_table("amnesia", ("Player", "Bo"))
    seats = list(table.seats.all())
    assert [free_label(s, seats) for s in seats] == ["Seat 1", "Seat 2"]


@pytest.mark.django_db
def test_the_names_page_is_the_owners(make_table, gm_client, other_client):
    table = make_table("amnesia")
    url = reverse("games:names", args=[table.pk])
    assert other_client.get(url).status_code == 404
    assert other_client.post(url, {"position": 1, "label": "X"}).status_code == 404
    page = gm_client.get(url).content.decode()
    assert 'value="Player 2"' in page  # the label offered
    assert url in gm_client.get(table.get_absolute_url()).content.decode()
    response = gm_client.post(url, {"position": 1, "label": "Player 2", "action": "replace"})
    assert response.status_code == 302
    assert aliases_of(table).labels == {"Bruno": "Player 2"}
    refused = gm_client.post(url, {"position": 2, "label": "Ana", "action": "replace"})
    assert refused.status_code == 400 and "already a name" in refused.content.decode()
    assert gm_client.post(url, {"position": 7, "label": "Z"}).status_code == 404
    assert gm_client.post(url, {"position": "x"}).status_code == 400
    gm_client.post(url, {"position": 1, "action": "restore"})
    assert aliases_of(table).labels == {}
