"""Play records: the JSON is valid under its schema, the CSV reads back as the same records."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from django.urls import reverse

from games.models import Ruleset, Seat, Table
from games.services import new_tables
from stories import playrecords
from stories.models import story_for

from .conftest import make_story

pytestmark = pytest.mark.django_db

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def table_of(owner, path: str):
    script = json.loads((SCRIPTS / path).read_text())["script"]
    return new_tables.import_script(script, owner)


@pytest.fixture
def plays(gm):
    """Finished tables of all three games; one with a ruleset, one with its story, one whose
    player asked to be left out and one whose names would be formulas in a spreadsheet."""
    story = make_story(gm)
    stories_table = table_of(gm, "amnesia_stories/01_judging_branches.json")
    contest = table_of(gm, "contest/last_card_and_winner.json")
    ruleset = Ruleset.objects.create(game=contest.game, name="House rules", version=3)
    contest.ruleset = ruleset
    contest.save(update_fields=["ruleset"])
    Seat.objects.filter(table=stories_table, position=0).update(alias="Player 1")
    return [story.table, stories_table, contest]


def test_the_json_is_valid_under_its_schema(plays, gm):
    document = playrecords.document(playrecords.tables_of(gm), "https://site.example/")
    schema = playrecords.schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    errors = [e.message for e in validator.iter_errors(document)]
    assert errors == []
    assert document["$schema"] == schema["$id"] and document["version"] == 1
    by_uuid = {p["uuid"]: p for p in document["plays"]}
    assert set(by_uuid) == {str(t.uuid) for t in plays}
    # A broken record is caught by the schema (it is a real check, not a formality).
    broken = json.loads(json.dumps(document))
    broken["plays"][0]["players"][0]["seat"] = 0
    assert list(validator.iter_errors(broken))


def test_the_records_say_who_won_what_and_under_which_rules(plays, gm):
    document = playrecords.document(playrecords.tables_of(gm), "https://site.example/")
    by_uuid = {p["uuid"]: p for p in document["plays"]}
    amnesia, stories, contest = (by_uuid[str(t.uuid)] for t in plays)
    assert amnesia["story_url"] == (
        "https://site.example" + reverse("stories:detail", args=[plays[0].story.pk])
    )
    assert contest["ruleset"] == {"name": "House rules", "version": 3}
    assert contest["story_url"] is None
    for play in document["plays"]:
        assert play["winners"] == [p["name"] for p in play["players"] if p["winner"]]
        if play["scores"]:
            assert {p["name"]: p["score"] for p in play["players"]} == play["scores"]
        assert play["duration_seconds"] is not None
    # The player left out is their label, everywhere.
    names = [p["name"] for p in stories["players"]]
    assert names[0] == "Player 1" and "Ana" not in json.dumps(stories)
    assert any(p["winners"] for p in document["plays"])


def test_the_csv_reads_back_as_the_records(plays, gm):
    tables = playrecords.tables_of(gm)
    # Names a spreadsheet would take for formulas come back as they were.
    Seat.objects.filter(table=plays[2], position=1).update(alias="=HYPERLINK(1)")
    Table.objects.filter(pk=plays[2].pk).update(name="=HYPERLINK(2)")
    records = [playrecords.record(t, "https://site.example/") for t in tables]
    text = playrecords.to_csv(records)
    header = text.splitlines()[0].split(",")
    assert header == playrecords.COLUMNS
    assert "'=HYPERLINK(2)" in text
    assert playrecords.read_csv(text) == records


def test_the_downloads(client, gm, other, plays):
    client.force_login(gm)
    response = client.get(reverse("stories:my_plays_json"))
    assert response["Content-Disposition"].startswith("attachment")
    assert len(json.loads(response.content)["plays"]) == 3
    csv_text = client.get(reverse("stories:my_plays_csv")).content.decode()
    assert len(playrecords.read_csv(csv_text)) == 3
    one = client.get(reverse("stories:table_play", args=[plays[1].pk]))
    assert [p["uuid"] for p in json.loads(one.content)["plays"]] == [str(plays[1].uuid)]
    client.force_login(other)
    assert json.loads(client.get(reverse("stories:my_plays_json")).content)["plays"] == []
    assert client.get(reverse("stories:table_play", args=[plays[1].pk])).status_code == 404
    client.logout()
    assert client.get(reverse("stories:my_plays_json")).status_code == 302


def test_an_unfinished_table_is_not_a_play(gm):
    story = story_for(table_of(gm, "amnesia_stories/01_judging_branches.json"))
    story.table.status = story.table.Status.ACTIVE
    story.table.save(update_fields=["status"])
    assert list(playrecords.tables_of(gm)) == []
