"""The contest table through the test client: a whole physical game tapped in card by card,
the private seat pages of a virtual game (only your own hand, never one on the game master's
screen), a win's point credited once, and the table's own small views."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse

from games import registry, services
from games.contest import characters
from games.contest.models import Character, SeatCharacter
from games.models import Table

pytestmark = pytest.mark.django_db

OPTIONS = {
    "opt_hand_size": 8,
    "opt_attribute_points": 12,
    "opt_attribute_min": 1,
    "opt_attribute_max": 5,
    "opt_control_seconds": 60,
    "opt_pretzel_limit": 5,
    "opt_eat_limit": 3,
    "opt_ties": "replay",
}


def new_table(client, players="Ana\nBo", deck_mode="physical", **extra) -> Table:
    data = {"game": "contest", "players": players, "deck_mode": deck_mode, **OPTIONS}
    data.update(extra)
    response = client.post(reverse("games:table_new"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Table.objects.latest("pk")


def post(client, url, table, htmx=False, **fields):
    table.refresh_from_db()
    fields.setdefault("expected_seq", table.last_seq)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(url, fields, **headers)


def move(client, table, **fields):
    return post(client, reverse("games:move", args=[table.pk]), table, **fields)


def build(client, table, pending: dict, pick: str | None = None, htmx=False):
    fields = {"move": json.dumps(pending)}
    if pick:
        fields["pick"] = pick
    return post(client, reverse("contest:build", args=[table.pk]), table, htmx, **fields)


def state(table) -> dict:
    table.refresh_from_db()
    return services.state_of(table)


def make_character(client, table, by, name, brains=3, muscle=3, moves=3, coolness=3, keep=True):
    fields = {
        "by": by,
        "name": name,
        "brains": brains,
        "muscle": muscle,
        "moves": moves,
        "coolness": coolness,
        "extra_points": 0,
    }
    if keep:
        fields["keep"] = "true"
    url = reverse("contest:table_character", args=[table.pk])
    return post(client, url, table, **fields)


def test_a_whole_physical_game_tapped_in(gm_client, gm):
    table = new_table(gm_client, opt_pretzel_limit=1)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "Make a new character" in page
    assert make_character(gm_client, table, "Ana", "Zed").status_code == 302
    response = make_character(gm_client, table, "Bo", "Yum", brains=2, muscle=4)
    assert response.status_code == 302
    assert state(table)["phase"] == "story"
    # Kept for later games, and linked to the seats that played them.
    assert set(Character.objects.filter(owner=gm).values_list("name", flat=True)) == {"Zed", "Yum"}
    assert SeatCharacter.objects.filter(seat__table=table).count() == 2

    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "Zed (Ana) controls the story" in page
    assert "data-countdown" in page and 'data-seconds="60"' in page
    assert "Forgot to use the character’s name" in page

    response = move(
        gm_client,
        table,
        by="Ana",
        do="challenge",
        target="Bo",
        contest="a car chase",
        attribute="moves",
        named="true",
        text="Zed floors it through the market.",
    )
    assert response.status_code == 302
    response = move(gm_client, table, by="Bo", do="accept", attribute="brains")
    assert response.status_code == 302

    # Ana's 5♦ on moves chains K♦ (a face card keeps the chain) and stops at 3♠.
    play = {"by": "Ana", "do": "play"}
    response = build(gm_client, table, play, "5D", htmx=True)
    assert response.status_code == 200
    body = response.content.decode()
    assert "chain goes on" in body and 'name="pick" value="5D"' in body
    assert re.search(r'value="5D"[^>]*disabled', body)  # already tapped
    pending = {"by": "Ana", "do": "play", "card": "5D"}
    response = build(gm_client, table, pending, "KD")  # plain post: redirect to the builder
    assert response.status_code == 302 and "/contest/build/?move=" in response["Location"]
    assert "chain goes on" in gm_client.get(response["Location"]).content.decode()
    response = build(gm_client, table, {**pending, "draws": ["KD"]}, "3S")
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    s = state(table)
    assert s["contest"]["cards"]["Ana"] == ["5D", "KD", "3S"]
    assert s["contest"]["totals"]["Ana"] == 11

    # Bo's 4♠ on brains chains 9♣: 2 + 4 + 9 = 15.
    build(gm_client, table, {"by": "Bo", "do": "play"}, "4S")
    build(gm_client, table, {"by": "Bo", "do": "play", "card": "4S"}, "9C")
    s = state(table)
    assert s["phase"] == "penalty" and s["owed"] == {"Ana": 1}
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "2 + 4 + 9 =" in page and "Lose a card…" in page

    # The loser names the card lost: two taps (open the grid, tap the card).
    response = build(gm_client, table, {"by": "Ana", "do": "lose_card"}, htmx=True)
    assert "Tap the card Zed (Ana) loses" in response.content.decode()
    build(gm_client, table, {"by": "Ana", "do": "lose_card"}, "10H")
    s = state(table)
    assert s["phase"] == "story" and s["players"]["Ana"]["lost"] == ["10H"]
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "Zed floors it through the market." in page  # the narration, in the story
    assert "Yum (Bo) wins against Zed (Ana) with the higher total." in page

    # One pretzel is the limit at this table: Ana is out and Bo wins.
    assert move(gm_client, table, by="Bo", do="throw_pretzel").status_code == 302
    s = state(table)
    assert s["finished"] and s["winners"] == ["Bo"]
    assert table.status == Table.Status.FINISHED
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "Yum (Bo) wins the game!" in page
    assert "buried under pretzels" in page
    assert "Yum earned 1 point: spend it on the character’s sheet." in page
    yum = Character.objects.get(name="Yum")
    assert yum.unspent_points == 1
    assert Character.objects.get(name="Zed").unspent_points == 0


def test_stale_moves_and_bad_picks_are_refused_with_a_message(gm_client):
    table = new_table(gm_client)
    make_character(gm_client, table, "Ana", "Zed", keep=False)
    make_character(gm_client, table, "Bo", "Yum", keep=False)
    response = move(gm_client, table, expected_seq=0, by="Bo", do="throw_pretzel")
    assert response.status_code == 409 and "moved on" in response.content.decode()
    move(gm_client, table, by="Ana", do="challenge", target="Bo", contest="x", attribute="muscle")
    move(gm_client, table, by="Bo", do="accept", attribute="muscle")
    build(gm_client, table, {"by": "Ana", "do": "play"}, "5S")
    # 5♠ is face up on the table: tapping it again is refused and nothing is played.
    response = build(gm_client, table, {"by": "Bo", "do": "play"}, "5S", htmx=True)
    assert response.status_code == 400
    assert "already face up" in response.content.decode()
    assert state(table)["contest"]["played"] == ["Ana"]
    response = build(gm_client, table, {"by": "Ana", "do": "nonsense"})
    assert response.status_code == 400
    response = build(gm_client, table, {"by": "Bo", "do": "play"}, "ZZ")
    assert response.status_code == 400 and "no such card" in response.content.decode()


def test_the_unnamed_challenge_button_applies_the_penalty(gm_client):
    table = new_table(gm_client)
    make_character(gm_client, table, "Ana", "Zed", keep=False)
    make_character(gm_client, table, "Bo", "Yum", keep=False)
    move(
        gm_client,
        table,
        by="Ana",
        do="challenge",
        target="Bo",
        contest="a staring match",
        attribute="coolness",
        named="false",
    )
    s = state(table)
    assert s["phase"] == "penalty" and s["owed"] == {"Ana": 1}
    move(gm_client, table, by="Ana", do="drink")
    assert state(table)["players"]["Ana"]["drinks"] == 1


def virtual_game(client) -> Table:
    table = new_table(client, players="Ana\nBo\nCy", deck_mode="virtual")
    # A fixed shuffle, so what the tests look for in the hands is always dealt (a new
    # table draws its seed at random). The cache was made with the old seed: drop it.
    Table.objects.filter(pk=table.pk).update(seed=7, state=None)
    table.refresh_from_db()
    for by, name in (("Ana", "Zed"), ("Bo", "Yum"), ("Cy", "Kit")):
        assert make_character(client, table, by, name, keep=False).status_code == 302
    return table


def hands(table) -> dict[str, list[str]]:
    return {n: p["hand"] for n, p in state(table)["players"].items()}


def shown_cards(html: str) -> set[str]:
    return set(re.findall(r'data-(?:hand-)?card="([^"]+)"', html))


def test_each_seat_sees_only_its_own_hand_and_the_game_master_none(gm_client, gm):
    table = virtual_game(gm_client)
    real = hands(table)
    assert all(len(h) == 8 for h in real.values())
    every_card = {c for h in real.values() for c in h}

    gm_page = gm_client.get(table.get_absolute_url()).content.decode()
    assert not shown_cards(gm_page) & every_card
    assert "data-hand-card" not in gm_page
    for seat in table.seats.all():
        assert reverse("contest:seat_qr", args=[table.pk, seat.position]) in gm_page

    anonymous = Client()  # the token is the credential: no login
    for seat in table.seats.all():
        page = anonymous.get(reverse("contest:seat", args=[seat.token])).content.decode()
        mine = set(re.findall(r'data-hand-card="([^"]+)"', page))
        assert mine == set(real[seat.name])
        others = every_card - set(real[seat.name])
        assert not shown_cards(page) & others

    # A challenge, accepted: each contestant plays from their own page.
    move(
        gm_client,
        table,
        by="Ana",
        do="challenge",
        target="Bo",
        contest="a duel",
        attribute="muscle",
    )
    move(gm_client, table, by="Bo", do="accept", attribute="moves")
    gm_page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "Waiting for Zed (Ana) to play a card from their own page." in gm_page
    assert not shown_cards(gm_page) & {c for h in hands(table).values() for c in h}

    ana = table.seats.get(name="Ana")
    url = reverse("contest:seat_move", args=[ana.token])
    card = real["Ana"][0]
    table.refresh_from_db()
    response = anonymous.post(
        url, {"expected_seq": table.last_seq, "do": "play", "card": card, "by": "Bo"}
    )
    assert response.status_code == 302
    s = state(table)
    assert s["contest"]["played"] == ["Ana"]  # in the seat's own name, whatever was posted
    assert s["contest"]["cards"]["Ana"][0] == card
    # A stale page gets a 409 and a message, and nothing is played.
    bo = table.seats.get(name="Bo")
    response = anonymous.post(
        reverse("contest:seat_move", args=[bo.token]),
        {"expected_seq": 0, "do": "play", "card": real["Bo"][0]},
    )
    assert response.status_code == 409
    gm_page = gm_client.get(table.get_absolute_url()).content.decode()
    assert not shown_cards(gm_page) & {c for h in hands(table).values() for c in h}
    assert "data-hand-card" not in gm_page


def test_a_wrong_token_is_not_found(gm_client, client):
    table = virtual_game(gm_client)
    assert client.get(reverse("contest:seat", args=["not-a-real-token"])).status_code == 404
    assert (
        client.post(reverse("contest:seat_move", args=["nope"]), {"do": "play"}).status_code == 404
    )
    amnesia = services.create_table(table.owner, "amnesia", ["Ana", "Bo"])
    token = amnesia.seats.first().token
    assert client.get(reverse("contest:seat", args=[token])).status_code == 404


def test_the_qr_code_is_an_svg_of_the_seat_link_for_the_owner_only(gm_client, other_client):
    table = virtual_game(gm_client)
    url = reverse("contest:seat_qr", args=[table.pk, 0])
    response = gm_client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg")
    assert other_client.get(url).status_code == 404
    assert other_client.get(table.get_absolute_url()).status_code == 404


def test_polling_answers_204_until_the_table_moves(gm_client):
    # The table page follows the table through the generic poll (games.live).
    table = virtual_game(gm_client)
    table.refresh_from_db()
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert f'data-version="{table.version}"' in page
    assert reverse("games:poll", args=[table.pk]) + "?key=" in page
    url = reverse("games:poll", args=[table.pk])
    hx = {"HTTP_HX_REQUEST": "true"}
    assert gm_client.get(url, {"since": table.version}, **hx).status_code == 204
    response = gm_client.get(url, {"since": table.version - 1}, **hx)
    assert response.status_code == 200 and response["HX-Trigger"] == "table-changed"
    # a seat's page polls its own token-guarded twin, answered the same way
    seat_poll = reverse("games:seat_poll", args=[table.seats.first().token])
    assert Client().get(seat_poll, {"since": table.version}).status_code == 204
    assert Client().get(seat_poll, {"since": table.version - 1}).status_code == 200


def test_htmx_moves_get_the_panel_only(gm_client):
    table = virtual_game(gm_client)
    response = move(gm_client, table, htmx=True, by="Bo", do="throw_pretzel")
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="table-panel"') and "<html" not in body


def test_drinks_can_be_shown_as_penalty_points(gm_client):
    table = new_table(gm_client, drinks_as="penalty_points")
    assert table.extra == {"drinks_as": "penalty_points"}
    make_character(gm_client, table, "Ana", "Zed", keep=False)
    make_character(gm_client, table, "Bo", "Yum", keep=False)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "2 penalty points" in page and "Penalty points" in page
    url = reverse("contest:display", args=[table.pk])
    assert gm_client.post(url, {"drinks_as": "drinks"}).status_code == 302
    table.refresh_from_db()
    assert table.extra == {}
    assert "2 drinks" in gm_client.get(table.get_absolute_url()).content.decode()
    # A display setting, not a rule: the exported script replays to the same state.
    assert gm_client.post(url, {"drinks_as": "sips"}).status_code == 302
    table.refresh_from_db()
    assert services.script_of(table)["drinks_as"] == "sips"
    assert services.rebuild_state(table) == services.state_of(table)


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


def test_a_refusal_names_its_lost_card_in_two_taps(gm_client):
    table = new_table(gm_client)
    make_character(gm_client, table, "Ana", "Zed", keep=False)
    make_character(gm_client, table, "Bo", "Yum", keep=False)
    move(gm_client, table, by="Ana", do="challenge", target="Bo", contest="x", attribute="brains")
    refusal = {"by": "Bo", "do": "refuse", "penalty": ["drink", "card"]}
    response = build(gm_client, table, refusal, htmx=True)
    body = response.content.decode()
    assert response.status_code == 200 and "Tap the card Yum (Bo) loses" in body
    assert "Take back the last card" not in body
    build(gm_client, table, refusal, "KS")
    s = state(table)
    assert s["phase"] == "story"
    assert s["players"]["Bo"]["lost"] == ["KS"] and s["players"]["Bo"]["drinks"] == 1


def test_a_player_takes_control_with_a_face_card_from_their_own_page(gm_client):
    table = virtual_game(gm_client)
    s = state(table)
    taker, face = next(
        (name, card)
        for name in ("Bo", "Cy")
        for card in s["players"][name]["hand"]
        if card[:-1] in ("J", "Q", "K")
    )
    seat = table.seats.get(name=taker)
    client = Client()
    page = client.get(reverse("contest:seat", args=[seat.token])).content.decode()
    assert "Take control of the story" in page and f'name="card" value="{face}"' in page
    gm_page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "face card: from their phone" in gm_page
    table.refresh_from_db()
    response = client.post(
        reverse("contest:seat_move", args=[seat.token]),
        {"expected_seq": table.last_seq, "do": "take_control", "with": "face_card", "card": face},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and 'id="seat-panel"' in response.content.decode()
    s = state(table)
    assert s["controller"] == taker and face not in s["players"][taker]["hand"]
    assert len(s["players"][taker]["hand"]) == 8


def test_the_demo_games_replay_one_finished_one_in_play(gm):
    from datetime import UTC, datetime

    from games.contest.demo import demos

    finished, playing = (
        services.import_script(script, gm, name) for name, script in demos(datetime.now(UTC))
    )
    assert finished.status == Table.Status.FINISHED and finished.deck_mode == "physical"
    assert playing.status == Table.Status.ACTIVE and playing.deck_mode == "virtual"
    assert services.state_of(playing)["phase"] == "contest"


# -- hostile input, resends and pretzels at once -------------------------------------------------
def test_a_character_that_is_no_number_or_no_character_gets_400(gm_client, gm):
    table = new_table(gm_client)
    url = reverse("contest:bring", args=[table.pk])
    for raw in ("abc", "", "-1", "1" * 40, "１"):
        response = post(gm_client, url, table, by="Bo", character=raw)
        assert response.status_code == 400, raw
        assert "Choose one of your saved characters" in response.content.decode()
    # No text may hold a NUL (amnesia_site.middleware): refused before the view.
    response = post(gm_client, url, table, by="Bo", character="3\x00")
    assert response.status_code == 400 and "NUL character" in response.content.decode()
    assert not table.moves.exists() and not SeatCharacter.objects.exists()


def test_a_saved_character_brought_twice_by_a_resend_sits_once(gm_client, gm):
    zed = Character.objects.create(owner=gm, name="Zed", brains=3, muscle=3, moves=3, coolness=3)
    table = new_table(gm_client)
    url = reverse("contest:bring", args=[table.pk])
    data = {"by": "Bo", "character": zed.pk, "expected_seq": 0, "client_id": "bring-1"}
    assert gm_client.post(url, data).status_code == gm_client.post(url, data).status_code == 302
    assert table.moves.count() == 1 and SeatCharacter.objects.count() == 1


def test_a_character_made_and_kept_by_a_resend_is_kept_once(gm_client, gm):
    table = new_table(gm_client)
    url = reverse("contest:table_character", args=[table.pk])
    data = {"by": "Ana", "name": "Zed", "brains": 3, "muscle": 3, "moves": 3, "coolness": 3}
    data |= {"extra_points": 0, "keep": "true", "expected_seq": 0, "client_id": "make-1"}
    assert gm_client.post(url, data).status_code == gm_client.post(url, data).status_code == 302
    assert Character.objects.count() == 1 and table.moves.count() == 1


@pytest.mark.parametrize(
    "fields, says",
    [
        ({"name": "Z" * 61}, "not one this move can take"),
        ({"name": "Zed\x00"}, "NUL"),
        ({"extra_points": "9" * 5000}, "The points won before must be a whole number"),
        ({"extra_points": 2**40, "brains": 3 + 2**40}, "not one this move can take"),
        ({"mood": "grim"}, "reads no field called"),
        ({"move": "[" * 50_000 + "]" * 50_000}, "levels deep"),
        ({"move": '{"by": "Ana", "name": "Zed", "brains": 1' + "0" * 5000 + "}"}, "too long"),
    ],
)
def test_a_malformed_character_at_the_table_gets_400_and_keeps_nothing(gm_client, fields, says):
    table = new_table(gm_client)
    data = {"by": "Ana", "name": "Zed", "brains": 3, "muscle": 3, "moves": 3, "coolness": 3}
    data |= {"extra_points": 0, "keep": "true", **fields}
    response = post(gm_client, reverse("contest:table_character", args=[table.pk]), table, **data)
    assert response.status_code == 400 and says in response.content.decode()
    assert not table.moves.exists() and not Character.objects.exists()


@pytest.mark.parametrize(
    "fields",
    [
        {"do": "character", "name": "Zed", "mood": "grim"},
        {"move": "[" * 50_000 + "]" * 50_000},
        {"move": '{"do": "character", "brains": ' + "7" * 5000 + "}"},
        {"move": '{"do": "character", "name": "Zed", "brains": NaN}'},
        {"do": "character", "name": "Zed", "expected_turn": "x" * 500},
        {"do": "character", "name": "Zed", "client_id": "no spaces allowed"},
    ],
)
def test_a_malformed_seat_move_gets_400_and_plays_nothing(gm_client, client, fields):
    """A seat's link needs no login: whoever holds it may send anything."""
    table = new_table(gm_client)
    seat = table.seats.get(name="Ana")
    data = {"brains": 3, "muscle": 3, "moves": 3, "coolness": 3, "extra_points": 0, **fields}
    response = client.post(reverse("contest:seat_move", args=[seat.token]), data)
    assert response.status_code == 400
    assert 'class="alert error"' in response.content.decode()
    assert not table.moves.exists()


def test_a_seat_move_with_a_nul_gets_400_in_words_and_plays_nothing(gm_client, client):
    table = new_table(gm_client)
    seat = table.seats.get(name="Ana")
    data = {"do": "character", "name": "Zed\x00", "brains": 3, "muscle": 3, "moves": 3}
    response = client.post(reverse("contest:seat_move", args=[seat.token]), data)
    assert response.status_code == 400 and "NUL character" in response.content.decode()
    assert not table.moves.exists()


@pytest.mark.parametrize(
    "move_text",
    [
        "[" * 50_000 + "]" * 50_000,
        '{"do": "play", "by": "Ana", "ham": ' + "9" * 5000 + "}",
        '{"do": "play", "by": "Ana", "draws": 5}',
        '{"do": "play", "by": "Ana", "card": ["7H"]}',
        '{"do": "play", "by": "Ana", "junk": 1}',
        '{"do": "play", "by": "An\\u0000a"}',
        '{"do": "play", "by": "' + "y" * 20_000 + '"}',  # it would ride in the next address
        '{"do": "refuse", "by": "Ana", "penalty": "' + "p" * 20_000 + '"}',
    ],
)
def test_the_builder_refuses_what_it_cannot_build(gm_client, move_text):
    table = new_table(gm_client)
    response = post(gm_client, reverse("contest:build", args=[table.pk]), table, move=move_text)
    assert response.status_code == 400 and not table.moves.exists()


def test_pretzels_thrown_from_one_page_at_once_all_land(gm_client):
    table = virtual_game(gm_client)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    form = re.search(r'<form [^>]*class="pretzels move-row".*?</form>', page, re.S)
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(0)))
    assert hidden["expected_turn"] == "control/1"
    url = reverse("games:move", args=[table.pk])
    for thrower in ("Bo", "Cy"):  # both tapped before the page heard of the other's throw
        response = gm_client.post(url, {**hidden, "client_id": f"p-{thrower}", "by": thrower})
        assert response.status_code == 302
    assert state(table)["players"]["Ana"]["pretzels"] == 2


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


def test_the_winners_phone_no_longer_says_it_controls_the_story(gm):
    """The referee keeps the last narrator in an ended game; the winner's phone showed them
    "you control the story" after the end (the demo's winner, Bo, held control at the last
    card)."""
    script = registry.kit("contest").demos(datetime(2026, 1, 2, tzinfo=UTC))[0][1]
    table = services.import_script(script, gm)
    s = state(table)
    assert s["finished"] and s["winners"] == ["Bo"] and s["controller"] == "Bo"
    page = Client().get(reverse("contest:seat", args=[table.seats.get(name="Bo").token]))
    body = page.content.decode()
    assert "wins the game!" in body
    assert "you control the story" not in body and "narrates</span>" not in body
