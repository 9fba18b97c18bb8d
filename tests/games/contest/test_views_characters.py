"""The contest's characters through the pages: a win credited once and taken back with the
end, a saved character brought to the table, the new-table form's check of them, another's
tables and characters, points won before."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.contest import characters
from games.contest.models import Character, SeatCharacter
from games.models import Table
from tests.games.contest.pages import OPTIONS, make_character, move, new_table, post, state

pytestmark = pytest.mark.django_db


def test_a_win_is_credited_once_and_undoing_the_end_takes_it_back(gm_client, gm):
    zed = Character.objects.create(owner=gm, name="Zed")
    yum = Character.objects.create(owner=gm, name="Yum", brains=2, muscle=4)
    table = new_table(
        gm_client, opt_pretzel_limit=1, **{f"bring_{zed.pk}": "1", f"bring_{yum.pk}": "2"}
    )
    assert state(table)["phase"] == "story"
    assert state(table)["players"]["Ana"]["character"] == "Zed"
    move(gm_client, table, by="Bo", do="throw_pretzel")  # Ana (Zed) is out: Bo (Yum) wins
    yum.refresh_from_db()
    assert yum.unspent_points == 1
    assert characters.credit(table) == 0  # already credited: nothing more
    yum.refresh_from_db()
    assert yum.unspent_points == 1
    assert SeatCharacter.objects.get(character=yum).credited

    response = post(gm_client, reverse("games:undo", args=[table.pk]), table)
    assert response.status_code == 302
    yum.refresh_from_db()
    assert yum.unspent_points == 0 and not SeatCharacter.objects.get(character=yum).credited
    move(gm_client, table, by="Bo", do="throw_pretzel")
    yum.refresh_from_db()
    assert yum.unspent_points == 1


def test_a_saved_character_is_brought_at_the_table(gm_client, gm):
    zed = Character.objects.create(
        owner=gm, name="Zed", brains=4, muscle=3, moves=3, coolness=3, extra_points=1
    )
    table = new_table(gm_client)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "Bring" in page and "Zed" in page
    url = reverse("contest:bring", args=[table.pk])
    assert post(gm_client, url, table, by="Bo", character=zed.pk).status_code == 302
    s = state(table)
    assert s["players"]["Bo"]["character"] == "Zed"
    assert s["players"]["Bo"]["attributes"]["brains"] == 4
    assert s["players"]["Bo"]["extra_points"] == 1
    assert SeatCharacter.objects.get(seat__table=table).character == zed
    # The same character cannot sit twice at one table.
    response = post(gm_client, url, table, by="Ana", character=zed.pk)
    assert response.status_code == 400


def test_the_new_table_form_checks_the_seats_characters_are_brought_to(gm_client, gm):
    zed = Character.objects.create(owner=gm, name="Zed")
    yum = Character.objects.create(owner=gm, name="Yum")
    data = {"game": "contest", "players": "Ana\nBo", "deck_mode": "virtual", **OPTIONS}
    page = gm_client.get(reverse("games:table_new") + "?game=contest").content.decode()
    assert f'name="bring_{zed.pk}"' in page and 'name="drinks_as"' in page
    response = gm_client.post(reverse("games:table_new"), {**data, f"bring_{zed.pk}": "3"})
    assert response.status_code == 400 and "only 2 players" in response.content.decode()
    response = gm_client.post(
        reverse("games:table_new"), {**data, f"bring_{zed.pk}": "1", f"bring_{yum.pk}": "1"}
    )
    assert response.status_code == 400 and "already brings" in response.content.decode()
    # Options the saved character does not fit: refused, and no table is left behind.
    response = gm_client.post(
        reverse("games:table_new"),
        {**data, "opt_attribute_points": 16, f"bring_{zed.pk}": "1"},
    )
    assert response.status_code == 400 and "add up to 16" in response.content.decode()
    assert not Table.objects.exists()


def test_other_tables_and_characters_are_not_yours(gm_client, other_client, gm):
    table = new_table(gm_client)
    zed = Character.objects.create(owner=gm, name="Zed")
    url = reverse("contest:bring", args=[table.pk])
    assert other_client.post(url, {"by": "Ana", "character": zed.pk}).status_code == 404
    url = reverse("contest:build", args=[table.pk])
    assert other_client.post(url, {"move": "{}"}).status_code == 404


def test_points_won_before_come_from_the_saved_character_not_from_a_box(gm_client, gm):
    """A character made at the table starts with no points won; a saved one brings its own."""
    Character.objects.create(
        owner=gm, name="Vet", brains=4, muscle=4, moves=3, coolness=3, extra_points=2
    )
    table = new_table(gm_client)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert 'name="extra_points"' not in page
    assert "Vet (♠4 ♣4 ♦3 ♥3 · 2 points won before)" in page
    # a post that still claims earlier points is held to the 12 of a new character
    response = make_character(gm_client, table, "Ana", "Zed", brains=4, muscle=4, moves=3)
    assert response.status_code == 400
    url = reverse("contest:table_character", args=[table.pk])
    fields = {"by": "Ana", "name": "Zed", "brains": 3, "muscle": 3, "moves": 3, "coolness": 3}
    response = post(gm_client, url, table, **fields, extra_points=5)
    assert response.status_code == 400 and "bring a saved character" in response.content.decode()
    assert post(gm_client, url, table, **fields).status_code == 302
    assert state(table)["players"]["Ana"]["extra_points"] == 0
    vet = Character.objects.get(name="Vet")
    assert (
        post(
            gm_client, reverse("contest:bring", args=[table.pk]), table, by="Bo", character=vet.pk
        ).status_code
        == 302
    )
    assert state(table)["players"]["Bo"]["extra_points"] == 2
