"""Persistent contest characters: making and editing one, spending won points, and the
history read back from the tables it played."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.contest import characters
from games.contest.models import Character, SeatCharacter
from games.services import new_tables, reading, writing

pytestmark = pytest.mark.django_db

ATTRS = {"brains": 3, "muscle": 4, "moves": 3, "coolness": 2}


def test_making_a_character_checks_the_points_and_bounds(gm_client, gm):
    url = reverse("contest:character_new")
    page = gm_client.get(url).content.decode()
    assert 'name="brains"' in page and "Spread 12 points" in page
    response = gm_client.post(url, {"name": "Zed", **ATTRS, "brains": 4})
    assert response.status_code == 400 and "must add up to 12" in response.content.decode()
    response = gm_client.post(url, {"name": "Zed", **ATTRS, "brains": 6, "coolness": -1})
    assert response.status_code == 400 and "Between 1 and 5" in response.content.decode()
    response = gm_client.post(url, {"name": "Zed", **ATTRS, "bfa": "on"})
    zed = Character.objects.get(owner=gm, name="Zed")
    assert response.status_code == 302 and response["Location"] == reverse(
        "contest:character", args=[zed.pk]
    )
    assert (zed.brains, zed.muscle, zed.moves, zed.coolness, zed.bfa) == (3, 4, 3, 2, True)
    response = gm_client.post(url, {"name": "zed", **ATTRS})
    assert response.status_code == 400 and "already have a character" in response.content.decode()


def test_characters_are_private_to_their_owner(gm_client, other_client, gm):
    zed = Character.objects.create(owner=gm, name="Zed")
    assert "Zed" in gm_client.get(reverse("contest:characters")).content.decode()
    assert "Zed" not in other_client.get(reverse("contest:characters")).content.decode()
    for name in ("contest:character", "contest:character_edit"):
        assert other_client.get(reverse(name, args=[zed.pk])).status_code == 404
    url = reverse("contest:character_spend", args=[zed.pk])
    assert other_client.post(url, {"attribute": "brains"}).status_code == 404


def test_spending_a_won_point_raises_an_attribute_once(gm_client, gm):
    zed = Character.objects.create(owner=gm, name="Zed", unspent_points=1, **ATTRS)
    url = reverse("contest:character_spend", args=[zed.pk])
    page = gm_client.get(reverse("contest:character", args=[zed.pk])).content.decode()
    assert "+1 Muscle" in page and "1 won point to spend" in page
    assert gm_client.post(url, {"attribute": "muscle"}).status_code == 302
    assert gm_client.post(url, {"attribute": "muscle"}).status_code == 302  # nothing left
    zed.refresh_from_db()
    assert (zed.muscle, zed.extra_points, zed.unspent_points) == (5, 1, 0)
    assert gm_client.post(url, {"attribute": "charm"}).status_code == 302
    zed.refresh_from_db()
    assert zed.muscle == 5
    # The point now counts at a table: 13 points, muscle may go one over the maximum.
    move = characters.character_move(zed, "Ana")
    assert move["extra_points"] == 1 and sum(move[a] for a in ATTRS) == 13


def test_editing_before_and_after_the_first_game(gm_client, gm):
    zed = Character.objects.create(owner=gm, name="Zed", **ATTRS)
    url = reverse("contest:character_edit", args=[zed.pk])
    response = gm_client.post(url, {"name": "Zed the Bold", **ATTRS, "brains": 2, "moves": 4})
    assert response.status_code == 302
    zed.refresh_from_db()
    assert (zed.name, zed.brains, zed.moves) == ("Zed the Bold", 2, 4)
    table = new_tables.create_table(gm, "contest", ["Ana", "Bo"], deck_mode="physical")
    characters.bring(table, "Ana", zed, None, gm)
    # Once played, the attributes only grow by won points: a posted change is ignored.
    page = gm_client.get(url).content.decode()
    assert "grow only by spending" in page
    response = gm_client.post(url, {"name": "Zed", **ATTRS, "brains": 5, "bfa": "on"})
    assert response.status_code == 302
    zed.refresh_from_db()
    assert (zed.name, zed.brains, zed.bfa) == ("Zed", 2, True)


def play_out(table, gm, moves) -> None:
    for move in moves:
        table.refresh_from_db()
        writing.play_many(table, [move], table.last_seq, gm)


def test_the_sheet_reads_its_history_from_the_tables(gm_client, gm):
    zed = Character.objects.create(owner=gm, name="Zed", **ATTRS)
    yum = Character.objects.create(owner=gm, name="Yum", brains=2, muscle=4, moves=3, coolness=3)
    table = new_tables.create_table(
        gm,
        "contest",
        ["Ana", "Bo"],
        name="The fair",
        deck_mode="physical",
        options={"pretzel_limit": 2},
    )
    characters.bring(table, "Ana", zed, None, gm)
    characters.bring(table, "Bo", yum, None, gm)
    play_out(
        table,
        gm,
        [
            {
                "by": "Ana",
                "do": "challenge",
                "target": "Bo",
                "contest": "a car chase",
                "attribute": "moves",
            },
            {"by": "Bo", "do": "accept", "attribute": "brains"},
            {"by": "Ana", "do": "play", "card": "5D", "draws": ["KD", "3S"]},
            {"by": "Bo", "do": "play", "card": "4S", "draws": ["9C"]},
            {"by": "Ana", "do": "lose_card", "card": "10H"},
            {
                "by": "Ana",
                "do": "challenge",
                "target": "Bo",
                "contest": "arm wrestling",
                "attribute": "muscle",
            },
            {"by": "Bo", "do": "forfeit", "penalty": "drink"},
            {"by": "Bo", "do": "throw_pretzel"},
            {"by": "Bo", "do": "take_control", "with": "drinks"},
            {"by": "Ana", "do": "throw_pretzel"},
            {"by": "Ana", "do": "take_control", "with": "drinks"},
            {"by": "Bo", "do": "throw_pretzel"},
        ],
    )
    table.refresh_from_db()
    assert reading.state_of(table)["winners"] == ["Bo"]
    zed_history = characters.history(zed)
    assert (zed_history["played"], zed_history["wins"]) == (1, 0)
    assert (zed_history["contests_won"], zed_history["contests_lost"]) == (1, 1)
    yum_history = characters.history(yum)
    assert (yum_history["wins"], yum_history["contests_won"], yum_history["contests_lost"]) == (
        1,
        1,
        1,
    )
    game = yum_history["games"][0]
    assert game["won"] and game["earned"] == 1 and game["credited"]
    assert [c["kind"] for c in game["contests"]] == ["a car chase", "arm wrestling"]
    yum.refresh_from_db()
    assert yum.unspent_points == 1

    page = gm_client.get(reverse("contest:character", args=[yum.pk])).content.decode()
    assert "The fair" in page and "won the game" in page
    assert "Contests: 1 won, 1 lost." in page
    assert "against Zed, won" in page and "against Zed, lost" in page
    # Not stored twice: the record is the table's; the link only says who sat where.
    assert SeatCharacter.objects.filter(character=yum).count() == 1


def test_a_character_made_at_the_table_can_be_kept(gm_client, gm):
    table = new_tables.create_table(gm, "contest", ["Ana", "Bo"], deck_mode="virtual")
    url = reverse("contest:table_character", args=[table.pk])
    fields = {"by": "Ana", "name": "Zed", **ATTRS, "extra_points": 0, "expected_seq": 0}
    assert gm_client.post(url, {**fields, "keep": "true", "bfa": "true"}).status_code == 302
    zed = Character.objects.get(owner=gm, name="Zed")
    assert zed.bfa and SeatCharacter.objects.get(character=zed).seat.name == "Ana"
    # Keeping a second "Zed" is refused, and the move with it: nothing half-done.
    table2 = new_tables.create_table(gm, "contest", ["Ana", "Bo"], deck_mode="virtual")
    url2 = reverse("contest:table_character", args=[table2.pk])
    response = gm_client.post(url2, {**fields, "keep": "true"})
    assert response.status_code == 400 and "already keep a character" in response.content.decode()
    # The page drawn with the refusal is the table as stored, not the rolled-back move's.
    assert 'name="expected_seq" value="0"' in response.content.decode()
    assert 'name="expected_seq" value="1"' not in response.content.decode()
    table2.refresh_from_db()
    assert table2.last_seq == 0
    # Without keeping, it is just the move.
    assert gm_client.post(url2, fields).status_code == 302
    assert Character.objects.filter(owner=gm).count() == 1
