"""The start player on the new-table form: a dropdown of the seats, and each game's own draw
(Amnesia Stories' score cards, the contest's high card) made by the app from the table's seed
with a virtual deck, or entered by the game master at a physical table."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import exports, registry
from games.aliases import set_alias
from games.contest.start import high, high_card
from games.models import Table
from games.services import reading, writing
from games.start import draw_rng, virtual_draw

pytestmark = pytest.mark.django_db

STORIES = {
    "game": "amnesia_stories",
    "opt_choices": 5,
    "opt_questions": 3,
    "opt_rounds": 2,
    "opt_bard_points": 2,
    "opt_audience_points": 1,
    "opt_set_bonus": 2,
    "opt_red_card_on_all_wrong": "on",
    "opt_starting_vp": 0,
    "opt_all_matched": "zero",
}
CONTEST = {
    "game": "contest",
    "opt_hand_size": 8,
    "opt_attribute_points": 12,
    "opt_attribute_min": 1,
    "opt_attribute_max": 5,
    "opt_control_seconds": 60,
    "opt_pretzel_limit": 5,
    "opt_eat_limit": 3,
    "opt_ties": "replay",
}
PLAYERS = "Ana\nBruno\nCaio\nDuda"
SEED = 424242


def create(client, base, **fields) -> Table:
    data = {**base, "players": PLAYERS, "deck_mode": "virtual", **fields}
    response = client.post(reverse("games:table_new"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Table.objects.latest("pk")


@pytest.fixture
def fixed_seed(monkeypatch):
    """Every new table gets the same seed, as two tables made from one script would."""
    monkeypatch.setattr("games.views.new_seed", lambda: SEED)


def test_the_start_player_is_a_dropdown_of_the_seats(gm_client):
    page = gm_client.get(reverse("games:table_new") + "?game=amnesia").content.decode()
    select = re.search(r'<select name="start"[^>]*data-start-seats[^>]*>(.*?)</select>', page, re.S)
    assert select, "the start player is a select"
    options = re.findall(r'<option value="(\d*)"', select.group(1))
    assert options == [""] + [str(n) for n in range(1, 9)]  # Amnesia seats 2 to 8
    assert "Seat 2 (line 2 of the players)" in select.group(1)
    # Amnesia's text has no start-player draw; the other two games offer theirs
    assert 'name="start_method"' not in page
    for game, method in (("amnesia_stories", "score_cards"), ("contest", "high_card")):
        page = gm_client.get(reverse("games:table_new") + f"?game={game}").content.decode()
        assert f'name="start_method" value="{method}"' in page


def test_a_seat_number_picks_the_start_player_and_a_missing_seat_is_refused(gm_client):
    table = create(gm_client, STORIES, start="3")
    assert table.start_player == "Caio"
    assert reading.state_of(table)["bard"] == "Caio"
    assert "start_draw" not in table.extra
    response = gm_client.post(
        reverse("games:table_new"),
        {**STORIES, "players": PLAYERS, "deck_mode": "virtual", "start": "6"},
    )
    assert response.status_code == 400
    assert "There is no seat 6: you listed 4 players." in response.content.decode()
    # the form shown again names the seats it was given (no JavaScript needed)
    assert '<option value="2">2. Bruno</option>' in response.content.decode()
    # a name is still accepted from clients that post one
    assert create(gm_client, STORIES, start="Duda").start_player == "Duda"


def test_the_virtual_score_card_deal_follows_the_seed_and_leaves_the_shuffle_alone(
    gm_client, fixed_seed
):
    drawn = create(gm_client, STORIES, start_method="score_cards", start="1")
    again = create(gm_client, STORIES, start_method="score_cards")
    plain = create(gm_client, STORIES)
    assert drawn.seed == again.seed == plain.seed == SEED
    record = drawn.extra["start_draw"]
    assert record == again.extra["start_draw"]  # same seed, same draw
    method = registry.kit("amnesia_stories").start_method
    assert record == virtual_draw(method, PLAYERS.split(), SEED)
    assert record["method"] == "score_cards" and record["mode"] == "virtual"
    assert drawn.start_player == record["start"] == record["s_card"]  # the chosen seat ignored
    # the draw's stream is not the game's: the area cards come out as without a draw
    a, b = reading.state_of(drawn), reading.state_of(plain)
    assert (a["selection"], a["journey"], a["deck_count"]) == (
        b["selection"],
        b["journey"],
        b["deck_count"],
    )
    assert a["bard"] == record["start"]
    page = gm_client.get(drawn.get_absolute_url()).content.decode()
    assert f"{record['start']} was dealt the S card and is the first bard." in page


def test_the_deal_differs_with_the_seed_and_everyone_can_get_the_s_card() -> None:
    method = registry.kit("amnesia_stories").start_method
    holders = {virtual_draw(method, ["A", "B", "C", "D"], seed)["start"] for seed in range(60)}
    assert holders == {"A", "B", "C", "D"}


def test_the_contest_high_card_draw_from_the_seed(gm_client, fixed_seed):
    drawn = create(gm_client, CONTEST, start_method="high_card")
    plain = create(gm_client, CONTEST)
    record = drawn.extra["start_draw"]
    assert record == virtual_draw(registry.kit("contest").start_method, PLAYERS.split(), SEED)
    first = record["rounds"][0]
    assert [d["player"] for d in first] == PLAYERS.split()
    last = record["rounds"][-1]
    best = max(high(d["card"]) for d in last)
    assert [d["player"] for d in last if high(d["card"]) == best] == [record["start"]]
    assert drawn.start_player == record["start"]
    # the game's own deck is untouched: the same characters are dealt the same hands
    for table in (drawn, plain):
        for i, name in enumerate(PLAYERS.split()):
            writing.play_many(
                table,
                [
                    {
                        "by": name,
                        "do": "character",
                        "name": f"Hero{i}",
                        "brains": 3,
                        "muscle": 3,
                        "moves": 3,
                        "coolness": 3,
                    }
                ],
                None,
            )
    a, b = reading.state_of(drawn), reading.state_of(plain)
    assert {n: p["hand"] for n, p in a["players"].items()} == {
        n: p["hand"] for n, p in b["players"].items()
    }
    assert a["controller"] == record["start"]
    page = gm_client.get(drawn.get_absolute_url()).content.decode()
    assert "Everyone drew a card:" in page
    assert f"{record['start']} drew the highest card and starts." in page


def test_players_tied_for_the_highest_card_draw_again() -> None:
    players = ["Ana", "Bruno", "Caio", "Duda", "Edu", "Fê"]
    tied = None
    for seed in range(500):
        record = high_card(players, draw_rng(seed))
        if len(record["rounds"]) > 1:
            tied = record
            break
    assert tied is not None, "some seed ties"
    for before, after in zip(tied["rounds"], tied["rounds"][1:], strict=False):
        best = max(high(d["card"]) for d in before)
        at_top = [d["player"] for d in before if high(d["card"]) == best]
        assert len(at_top) > 1
        assert [d["player"] for d in after] == at_top  # only the tied draw again
    last = tied["rounds"][-1]
    best = max(high(d["card"]) for d in last)
    assert [d["player"] for d in last if high(d["card"]) == best] == [tied["start"]]
    # no card is drawn twice from the one deck
    codes = [d["card"] for r in tied["rounds"] for d in r]
    assert len(codes) == len(set(codes))
    # ace low, king high
    assert high("AS") < high("2S") < high("10S") < high("JS") < high("KS")


def test_a_physical_table_enters_the_draw_it_made(gm_client):
    url = reverse("games:table_new")
    data = {**CONTEST, "players": PLAYERS, "deck_mode": "physical", "start_method": "high_card"}
    response = gm_client.post(url, data)
    assert response.status_code == 400
    assert "choose who drew the highest" in response.content.decode()
    table = create(gm_client, CONTEST, deck_mode="physical", start_method="high_card", start="4")
    assert table.start_player == "Duda"
    assert table.extra["start_draw"] == {"method": "high_card", "mode": "physical", "start": "Duda"}
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "Drawn at the table with real cards: Duda starts." in page
    stories = create(
        gm_client, STORIES, deck_mode="physical", start_method="score_cards", start="2"
    )
    assert stories.start_player == "Bruno"
    assert stories.extra["start_draw"]["mode"] == "physical"


def test_the_draw_travels_in_the_export_and_back_in_an_import(gm, gm_client):
    table = create(gm_client, CONTEST, start_method="high_card")
    script = exports.export_script(table, with_deck=True)  # in play: its deck too
    assert script["start_draw"] == table.extra["start_draw"]
    assert script["start"] == table.start_player
    copy = exports.import_script(script, gm).table
    assert copy.extra["start_draw"] == table.extra["start_draw"]
    assert copy.start_player == table.start_player
    page = gm_client.get(copy.get_absolute_url()).content.decode()
    assert f"{table.start_player} drew the highest card and starts." in page
    # the referee reads nothing of it: a script with a draw replays as one without
    bare = {k: v for k, v in script.items() if k != "start_draw"}
    assert reading.state_of(copy) == reading.state_of(exports.import_script(bare, gm).table)


def test_an_imported_draw_that_makes_no_sense_is_not_shown(gm, gm_client):
    table = create(gm_client, STORIES)
    script = exports.export_script(table, with_deck=True)  # in play: its deck too
    script["start_draw"] = {"method": "score_cards", "mode": "virtual", "start": 3}
    copy = exports.import_script(script, gm).table
    page = gm_client.get(copy.get_absolute_url())
    assert page.status_code == 200 and 'data-testid="start-draw"' not in page.content.decode()


def test_the_rules_pages_say_how_each_game_chooses_who_starts(gm_client):
    stories = gm_client.get(reverse("games:rules", args=["amnesia_stories"])).content.decode()
    assert "whoever gets the S starts" in stories
    assert "deal them for you (virtual deck)" in stories
    assert "nobody’s answer is sent or cut short" in stories
    contest = gm_client.get(reverse("games:rules", args=["contest"])).content.decode()
    assert "Players tied for the highest draw again" in contest
    assert "clock stands still while a contest is being played" in contest


def test_a_player_shown_as_a_label_is_a_label_in_the_exported_draw(gm_client):
    table = create(gm_client, CONTEST, start_method="high_card")
    set_alias(table, 1, "Player 2")  # Bruno asked to be left out
    script = exports.export_script(table)
    drawn = [d["player"] for d in script["start_draw"]["rounds"][0]]
    assert drawn == ["Ana", "Player 2", "Caio", "Duda"]
    assert "Bruno" not in str(script["start_draw"])
