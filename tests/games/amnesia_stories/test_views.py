"""Amnesia Stories through the pages: a whole game, pass the laptop, the revealed number cards,
the projector, the physical deal, custom decks, and no pick ever shown before its judging."""

from __future__ import annotations

import html
import random
import re
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games import services
from games.amnesia_stories import decks
from games.amnesia_stories.rules.scoring import judge_turn
from games.models import Move, Table
from games.rules import get_game

pytestmark = pytest.mark.django_db

PLAYERS = ["Ana", "Bruno", "Caio"]


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def new_table(client, players=PLAYERS, **extra) -> Table:
    data = {
        "game": "amnesia_stories",
        "players": "\n".join(players),
        "deck_mode": "virtual",
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
    data.update(extra)
    response = client.post(reverse("games:table_new"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Table.objects.latest("pk")


def seen(table: Table) -> dict:
    table.refresh_from_db()
    return get_game("amnesia_stories").view(services.state_of(table), None)


def post_move(client, table, **fields):
    table.refresh_from_db()
    fields.setdefault("expected_seq", table.last_seq)
    return client.post(reverse("games:move", args=[table.pk]), fields)


def tell(client, table, text="") -> list[str]:
    state = seen(table)
    story = state["journey"][: state["options"]["questions"]]
    response = post_move(client, table, by=state["bard"], do="tell", story=story, text=text)
    assert response.status_code == 302, response.content.decode()[:3000]
    return story


def open_reveal(client, table, step: int | None = None):
    """Open the judged turn's reveal up to ``step`` (all of it by default), as its button."""
    state = seen(table)
    turn = state["last_turn"]
    total = len(turn["story"]) + 1
    response = client.post(
        reverse("amnesia_stories:reveal", args=[table.pk]),
        {"turn": turn["turn_number"], "step": total if step is None else step},
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    return response


def position(table: Table, name: str) -> int:
    return table.seats.get(name=name).position


def answer_by_laptop(client, table, name: str, picks: list[int]):
    table.refresh_from_db()
    pos = position(table, name)
    screen = client.get(reverse("amnesia_stories:handoff", args=[table.pk, pos]))
    assert screen.status_code == 200 and f"I am {name}" in screen.content.decode()
    assert "no-store" in screen["Cache-Control"]
    data = {f"pick-{i + 1}": p for i, p in enumerate(picks)}
    data["expected_seq"] = table.last_seq
    return client.post(reverse("amnesia_stories:answer", args=[table.pk, pos]), data)


def revealed_form(table, picks: dict[str, list[int]]) -> dict:
    table.refresh_from_db()
    data = {"expected_seq": table.last_seq}
    for name, p in picks.items():
        for i, value in enumerate(p):
            data[f"picks-{position(table, name)}-{i + 1}"] = value
    return data


# -- the new-table form -------------------------------------------------------------------------
def test_new_table_form_shows_draft_4_defaults_and_the_draft_3_preset(gm_client):
    url = reverse("games:table_new")
    page = gm_client.get(url + "?game=amnesia_stories").content.decode()
    for name, default in [("choices", 5), ("questions", 3), ("bard_points", 2), ("rounds", 2)]:
        assert re.search(rf'name="opt_{name}"[^>]*value="{default}"', page)
    assert "preset=draft3" in page and 'name="custom_deck"' in page
    page = gm_client.get(url + "?game=amnesia_stories&preset=draft3").content.decode()
    for name, value in [("choices", 6), ("questions", 4), ("bard_points", 1), ("set_bonus", 2)]:
        assert re.search(rf'name="opt_{name}"[^>]*value="{value}"', page), name
    # red cards for a step nobody matched came with draft 4 (the seed's changelog)
    assert re.search(r'name="opt_red_card_on_all_wrong"', page)
    assert not re.search(r'name="opt_red_card_on_all_wrong"[^>]*checked', page)
    # Amnesia's own form is unchanged: no preset, no deck
    amnesia = gm_client.get(url + "?game=amnesia").content.decode()
    assert "preset=" not in amnesia and "custom_deck" not in amnesia


def test_draft_3_table_and_more_players_on_the_built_in_deck(gm_client):
    table = new_table(gm_client, opt_choices=6, opt_questions=4, opt_bard_points=1)
    assert table.options["choices"] == 6 and table.options["questions"] == 4
    assert len(seen(table)["selection"]) == 6
    # The deck refills from the discarded selections (contract ruling): five players may play
    # the built-in 48 cards; only the 3..8 players of the game itself are checked.
    data = {"game": "amnesia_stories", "deck_mode": "virtual"}
    data |= {f"opt_{k}": v for k, v in table.options.items() if not isinstance(v, bool)}
    response = gm_client.post(reverse("games:table_new"), data | {"players": "A\nB\nC\nD\nE"})
    assert response.status_code == 302
    assert Table.objects.latest("pk").seats.count() == 5
    players = "\n".join("ABCDEFGHI")
    response = gm_client.post(reverse("games:table_new"), data | {"players": players})
    assert response.status_code == 400 and "3 to 8 players" in response.content.decode()


def test_the_draft_3_preset_starts_a_table_with_four_players(gm_client):
    """What the form shows for the draft 3 preset, posted back as it is, with 4 players:
    6 choices x 2 rounds x 4 players would draw 54 of the 48 cards without the refill."""
    url = reverse("games:table_new")
    page = gm_client.get(url + "?game=amnesia_stories&preset=draft3").content.decode()
    data = {"game": "amnesia_stories", "players": "Ana\nBruno\nCaio\nDuda"}
    data["deck_mode"] = "virtual"
    for name, value in re.findall(r'<input type="number" name="(opt_\w+)" value="(-?\d+)"', page):
        data[name] = value
    for name in re.findall(r'<input type="checkbox" name="(opt_\w+)"[^>]*checked', page):
        data[name] = "on"
    for name, body in re.findall(r'<select name="(opt_\w+)"[^>]*>(.*?)</select>', page, re.S):
        data[name] = re.search(r'<option value="(\w+)" selected', body).group(1)
    assert data["opt_all_matched"] == "zero_at_climax" and "opt_red_card_on_all_wrong" not in data
    response = gm_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    table = Table.objects.latest("pk")
    assert table.seats.count() == 4
    # the corrected draft 3 (version 2), not version 1, which missed the climax exception
    assert (table.ruleset.name, table.ruleset.version) == ("Amnesia Stories draft 3", 2)
    assert table.options == {
        "choices": 6,
        "questions": 4,
        "rounds": 2,
        "bard_points": 1,
        "audience_points": 1,
        "set_bonus": 2,
        "red_card_on_all_wrong": False,
        "starting_vp": 0,
        "all_matched": "zero_at_climax",
    }
    state = seen(table)
    assert (state["turns"], len(state["selection"]), len(state["journey"])) == (8, 6, 6)
    assert state["deck_count"] == 48 - 12


# -- a whole game -------------------------------------------------------------------------------
def test_a_whole_game_through_the_pages(gm_client):
    table = new_table(gm_client, opt_rounds=1)
    rng = random.Random(5)
    expected_vp = dict.fromkeys(PLAYERS, 0)
    for turn in range(3):
        state = seen(table)
        bard = state["bard"]
        page = gm_client.get(table.get_absolute_url()).content.decode()
        assert f"{bard} is the bard" in page and 'value="tell"' in page
        for card in state["journey"]:
            assert f'value="{card}"' in page  # the journey, offered for the story
        story = tell(gm_client, table, text=f"Tale number {turn + 1}, told by {bard}.")
        picks = {p: rng.sample(range(1, 6), 3) for p in PLAYERS}
        gains, _reds = judge_turn(table.options, bard, picks)
        for p in PLAYERS:
            expected_vp[p] += gains[p]
        if turn % 2 == 0:  # pass the laptop, in the order the page offers it
            for _ in PLAYERS:
                state = seen(table)
                page = gm_client.get(table.get_absolute_url()).content.decode()
                name = re.search(r"Hand the laptop to (\w+)", page).group(1)
                assert name not in state["answered"]
                response = answer_by_laptop(gm_client, table, name, picks[name])
                assert response.status_code == 302
        else:  # physical number cards: everyone's, entered after the reveal
            response = gm_client.post(
                reverse("amnesia_stories:revealed", args=[table.pk]), revealed_form(table, picks)
            )
            assert response.status_code == 302, response.content.decode()[:3000]
        state = seen(table)
        assert state["history"][-1]["picks"] == picks
        assert state["history"][-1]["story"] == story
        if turn < 2:
            open_reveal(gm_client, table)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    state = seen(table)
    worst = max(state["red_cards"].values())
    for p in PLAYERS:
        penalty = worst if worst and state["red_cards"][p] == worst else 0
        assert state["vp"][p] == expected_vp[p] - penalty
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "Final standings" not in page
    for turn in range(3):  # the story so far: every bard's narration
        assert f"Tale number {turn + 1}" in page
    # the last story is being revealed: no winner before its steps are open
    assert 'id="reveal"' in page and page.count('data-reveal-step="') == 4
    assert "wins!" not in page and "A draw between" not in page and "data-pick" not in page
    open_reveal(gm_client, table)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    if len(state["winners"]) > 1:
        assert "A draw between" in page
    else:
        assert f"{state['winners'][0]} wins!" in page
    # once the reveal is open, the last turn's picks are shown
    last = state["last_turn"]
    assert f'data-pick="{last["picks"][last["bard"]][0]}"' in page


def test_the_reveal_says_who_matched_with_points_and_red_cards(gm_client):
    table = new_table(gm_client)
    tell(gm_client, table)
    # Ana is the bard: step 1 Bruno matches (some), step 2 both (all), step 3 nobody (red card)
    picks = {"Ana": [1, 2, 3], "Bruno": [1, 2, 4], "Caio": [5, 2, 4]}
    response = gm_client.post(
        reverse("amnesia_stories:revealed", args=[table.pk]), revealed_form(table, picks)
    )
    assert response.status_code == 302 and response["Location"].endswith("#reveal")
    open_reveal(gm_client, table)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    reveal = page[page.index('id="reveal"') : page.index("</section>", page.index('id="reveal"'))]
    assert "Some of the audience matched: Ana gets +2." in reveal
    assert "Everyone matched" in reveal and "Nobody matched: Ana gets a red card." in reveal
    gains = re.findall(r'class="who">(\w+)</span> <strong>([+-]\d+) VP', reveal)
    assert gains == [("Ana", "+2"), ("Bruno", "+2"), ("Caio", "+1")]
    state = seen(table)
    assert state["vp"] == {"Ana": 2, "Bruno": 2, "Caio": 1}
    assert state["red_cards"]["Ana"] == 1


def test_revealed_cards_are_all_or_nothing(gm_client):
    table = new_table(gm_client)
    tell(gm_client, table)
    answer_by_laptop(gm_client, table, "Ana", [1, 2, 3])
    before = seen(table)
    picks = {"Bruno": [1, 2, 3], "Caio": [4, 4, 5]}  # Caio repeats a number
    response = gm_client.post(
        reverse("amnesia_stories:revealed", args=[table.pk]), revealed_form(table, picks)
    )
    assert response.status_code == 400
    assert "Caio: You hold one card of each number" in response.content.decode()
    table.refresh_from_db()
    assert seen(table)["answered"] == before["answered"] == ["Ana"]
    assert Move.objects.filter(table=table).count() == 2
    # the form offers only who has not answered yet
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert f'name="picks-{position(table, "Ana")}-1"' not in page
    assert f'name="picks-{position(table, "Bruno")}-1"' in page


def test_pass_the_laptop_goes_from_player_to_player_and_back_to_the_table(gm_client):
    table = new_table(gm_client)
    tell(gm_client, table)
    response = answer_by_laptop(gm_client, table, "Ana", [1, 2, 3])
    assert response["Location"] == reverse("amnesia_stories:handoff", args=[table.pk, 1])
    # Ana again: her screen now sends the laptop on, and a second answer is refused
    again = gm_client.get(reverse("amnesia_stories:answer", args=[table.pk, 0]))
    assert again.status_code == 302
    bad = answer_by_laptop(gm_client, table, "Bruno", [1, 1, 2])
    assert bad.status_code == 400 and "picks must all differ" in bad.content.decode()
    assert "checked" not in bad.content.decode()  # the refused picks are not echoed
    answer_by_laptop(gm_client, table, "Bruno", [3, 1, 2])
    response = answer_by_laptop(gm_client, table, "Caio", [3, 1, 2])
    assert response["Location"] == table.get_absolute_url() + "#reveal"


def test_stale_answer_is_409_and_changes_nothing(gm_client):
    table = new_table(gm_client)
    tell(gm_client, table)
    response = gm_client.post(
        reverse("amnesia_stories:answer", args=[table.pk, 1]),
        {"pick-1": 1, "pick-2": 2, "pick-3": 3, "expected_seq": 0},
    )
    assert response.status_code == 409 and "moved on" in response.content.decode()
    assert seen(table)["answered"] == []


# -- secrecy: no view ever shows a pending pick ------------------------------------------------
def normalise(html: str, table: Table) -> str:
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    html = re.sub(r'name="client_id" value="[^"]+"', "", html)  # a fresh id per form
    html = re.sub(r'"x-csrftoken": "[^"]+"', "", html)
    # the answer timer ends a minute after each table's own telling (a time, not a pick)
    html = re.sub(r'data-ends="\d+"', "", html)
    html = re.sub(r"poll/\?key=[0-9a-f]+", "poll/", html)  # the poll key names the table
    html = html.replace(f"/tables/{table.pk}/", "/tables/N/")
    return html.replace(f"stories-{table.pk}-", "stories-N-")


def all_views(client, table: Table) -> dict[str, str]:
    """Every page the room or a player may see during the answer phase."""
    table.refresh_from_db()
    urls = {
        "page": (table.get_absolute_url(), {}),
        "partial": (table.get_absolute_url(), {"HTTP_HX_REQUEST": "true"}),
        "projector": (reverse("amnesia_stories:projector", args=[table.pk]), {}),
        "projector-poll": (
            reverse("amnesia_stories:projector", args=[table.pk]) + "?since=0",
            {"HTTP_HX_REQUEST": "true"},
        ),
    }
    for seat in table.seats.all():
        urls[f"handoff-{seat.name}"] = (
            reverse("amnesia_stories:handoff", args=[table.pk, seat.position]),
            {},
        )
        urls[f"answer-{seat.name}"] = (
            reverse("amnesia_stories:answer", args=[table.pk, seat.position]),
            {},
        )
    pages = {}
    for key, (url, headers) in urls.items():
        response = client.get(url, **headers)
        assert response.status_code in (200, 302), key
        pages[key] = (
            response.content.decode() if response.status_code == 200 else response["Location"]
        )
    return pages


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_view_shows_a_pick_before_the_turn_is_judged(gm_client, seed):
    """Two tables, identical but for the pending picks: every view renders the same HTML.

    Whatever a view shows during the answer phase cannot depend on the picks, so it cannot
    reveal them. The answering order and the picks are random (seeded)."""
    rng = random.Random(seed)
    players = ["Ana", "Bruno", "Caio", "Duda"]
    tables = [new_table(gm_client, players=players, name="Twin") for _ in range(2)]
    for table in tables:
        table.seed = 1234
        table.save(update_fields=["seed"])
        table.state = None  # the cache was built with the old seed: replay
        table.save(update_fields=["state"])
    # a first, judged turn with the same picks on both tables, so there is history to show
    first = {p: rng.sample(range(1, 6), 3) for p in players}
    for table in tables:
        tell(gm_client, table, text="Same tale.")
        for p in players:
            answer_by_laptop(gm_client, table, p, first[p])
        open_reveal(gm_client, table)
    order = rng.sample(players, len(players))
    for table in tables:
        tell(gm_client, table, text="Second tale.")
    for name in order[:-1]:
        picks = rng.sample(range(1, 6), 3)
        other = [p for p in range(1, 6) if p not in picks][:2] + [picks[0]]
        for table, p in zip(tables, (picks, other), strict=True):
            assert answer_by_laptop(gm_client, table, name, p).status_code == 302
        views = [all_views(gm_client, t) for t in tables]
        for key in views[0]:
            a, b = (normalise(v[key], t) for v, t in zip(views, tables, strict=True))
            assert a == b, f"{key} differs with different pending picks"
            assert "data-pick" not in a, key
            assert not re.search(r'name="pick-\d+"[^>]*checked', a), key
            assert not re.search(r"<option[^>]*selected[^>]*>\d</option>", a), key
        answered = seen(tables[0])["answered"]
        assert name in answered
        answer_page = views[0][f"answer-{name}"]
        assert answer_page.startswith("/tables/")  # an answered player's screen is gone
    # the last answer judges the turn: now, and only now, the picks appear
    last = order[-1]
    for table in tables:
        answer_by_laptop(gm_client, table, last, [1, 2, 3])
    page = gm_client.get(tables[0].get_absolute_url()).content.decode()
    assert "data-pick" not in page  # judged, but not one step is open yet
    open_reveal(gm_client, tables[0], step=1)
    page = gm_client.get(tables[0].get_absolute_url()).content.decode()
    assert "data-pick" in page


def test_projector_shows_only_the_slots_and_polls_cheaply(gm_client):
    table = new_table(gm_client)
    tell(gm_client, table, text="A secret journey text should not be here.")
    url = reverse("amnesia_stories:projector", args=[table.pk])
    page = gm_client.get(url).content.decode()
    state = seen(table)
    assert page.count('class="slot"') == 5
    assert 'hx-trigger="table-changed"' in page and 'http-equiv="refresh"' in page
    assert f'data-poll="{reverse("games:poll", args=[table.pk])}?key=' in page
    assert "A secret journey text" not in page and "Tell the story" not in page
    for card in state["journey"]:
        assert f"/areas/{card}/" not in page or card in state["selection"].values()
    # the live poll follows the table: a restarted answer timer is something every screen shows
    poll = html.unescape(re.search(r'data-poll="([^"]+)"', page).group(1))
    version = int(re.search(r'data-version="(\d+)"', page).group(1))
    assert gm_client.get(f"{poll}&since={version}").status_code == 204
    restarted = gm_client.post(
        reverse("amnesia_stories:timer", args=[table.pk]), {"seconds": 60, "action": "restart"}
    )
    assert restarted.status_code == 302
    assert gm_client.get(f"{poll}&since={version}").status_code == 200
    again = gm_client.get(url, HTTP_HX_REQUEST="true")
    assert again.status_code == 200 and again.content.decode().lstrip().startswith(
        '<div id="screen"'
    )


def test_another_user_sees_none_of_the_stories_pages(gm_client, other_client):
    table = new_table(gm_client)
    tell(gm_client, table)
    for url in (
        reverse("amnesia_stories:projector", args=[table.pk]),
        reverse("amnesia_stories:handoff", args=[table.pk, 0]),
        reverse("amnesia_stories:answer", args=[table.pk, 0]),
    ):
        assert other_client.get(url).status_code == 404
    response = other_client.post(
        reverse("amnesia_stories:answer", args=[table.pk, 0]),
        {"pick-1": 1, "pick-2": 2, "pick-3": 3},
    )
    assert response.status_code == 404
    assert (
        other_client.post(reverse("amnesia_stories:revealed", args=[table.pk])).status_code == 404
    )
    assert Move.objects.filter(table=table).count() == 1


# -- pictures -------------------------------------------------------------------------------------
def test_card_pictures_are_drawn_on_first_use_and_cached(client, media):
    url = reverse("amnesia_stories:area_image", args=["A07", "thumb"])
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] in ("image/webp", "image/jpeg")
    assert "max-age" in response["Cache-Control"]
    body = b"".join(response.streaming_content)
    assert len(body) > 500
    files = sorted(p.name for p in (media / "areas").iterdir())
    assert len(files) == 2 and files[0].startswith("A07")  # the large one came along
    assert (
        client.get(reverse("amnesia_stories:area_image", args=["A99", "thumb"])).status_code == 404
    )
    assert (
        client.get(reverse("amnesia_stories:area_image", args=["A07", "huge"])).status_code == 404
    )


def test_the_table_page_uses_the_card_picture_urls(gm_client):
    table = new_table(gm_client)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    for card in seen(table)["selection"].values():
        assert reverse("amnesia_stories:area_image", args=[card, "large"]) in page


# -- physical deck --------------------------------------------------------------------------------
def test_physical_deal_through_the_page(gm_client):
    table = new_table(gm_client, deck_mode="physical", opt_rounds=1)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "deal the cards" in page
    assert page.count('name="slots"') == 5 and page.count('name="journey"') == 5
    assert page.count('class="deal-card"') == 48
    slots = ["A10", "A20", "A30", "A40", "A05"]
    journey = ["A01", "A02", "A03", "A04", "A06"]
    response = post_move(gm_client, table, by="Ana", do="deal", slots=slots, journey=journey)
    assert response.status_code == 302
    state = seen(table)
    assert state["phase"] == "tell" and list(state["selection"].values()) == slots
    tell(gm_client, table)
    for name in PLAYERS:
        answer_by_laptop(gm_client, table, name, [1, 2, 3])
    open_reveal(gm_client, table)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    # turn 2: only the journey is dealt; the dealt cards are no longer offered
    assert page.count('name="slots"') == 0 and page.count('name="journey"') == 5
    assert page.count('class="deal-card"') == 38
    assert 'data-card="A01"' not in page


# -- custom decks ---------------------------------------------------------------------------------
def test_a_table_with_a_custom_deck(gm, gm_client):
    from tests.games.amnesia_stories.test_decks import IDS, good_files, make_zip

    deck = decks.import_deck(gm, "Forest deck", make_zip(good_files()))
    page = gm_client.get(reverse("games:table_new") + "?game=amnesia_stories").content.decode()
    assert "Forest deck" in page
    table = new_table(gm_client, custom_deck=deck.pk, opt_choices=3, opt_questions=2, opt_rounds=1)
    assert table.extra["area_ids"] == IDS and table.extra["custom_deck"] == deck.pk
    state = seen(table)
    assert set(state["selection"].values()) <= set(IDS)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    card = deck.cards.get(card_id=state["selection"]["1"])
    # The pictures come through the table's own door, never from MEDIA_URL (test_deck_pictures)
    assert reverse("games:picture", args=[table.pk, card.pk, "large"]) in page
    assert "/media/" not in page and card.image.name not in page
    assert "The hero passed by place" in page  # the journey's texts come from the CSV
    # too small a deck for the options: the referee says so on the form
    response = gm_client.post(
        reverse("games:table_new"),
        {
            "game": "amnesia_stories",
            "players": "A\nB\nC",
            "deck_mode": "virtual",
            "custom_deck": deck.pk,
        }
        | {f"opt_{k}": v for k, v in table.options.items() if not isinstance(v, bool)}
        | {"opt_choices": 7},
    )
    # 7 choices deal 14 cards at the start (the discard refills the deck after that)
    assert response.status_code == 400 and "deck holds only 12" in response.content.decode()


def test_demo_tables_load(gm):
    from io import StringIO

    from django.core.management import call_command

    call_command("demo", stdout=StringIO())
    finished = Table.objects.get(name="The hero who forgot")
    ongoing = Table.objects.get(name="Footprints in the sand")
    assert finished.status == Table.Status.FINISHED
    assert services.state_of(finished)["penalty"]["Caio"] == 2
    assert finished.moves.exclude(text="").count() == 6
    state = services.state_of(ongoing)
    assert state["phase"] == "answer" and len(state["seats"]) == 4


def test_htmx_gets_the_panel_for_moves_and_revealed_cards(gm_client):
    table = new_table(gm_client)
    state = seen(table)
    response = gm_client.post(
        reverse("games:move", args=[table.pk]),
        {"by": "Ana", "do": "tell", "story": state["journey"][:3], "expected_seq": 0},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="table-panel"')
    assert "Everyone answers in secret" in body and "<html" not in body
    picks = {"Ana": [1, 2, 3], "Bruno": [3, 2, 1], "Caio": [2, 1, 3]}
    response = gm_client.post(
        reverse("amnesia_stories:revealed", args=[table.pk]),
        revealed_form(table, picks),
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert response.status_code == 200 and 'id="reveal"' in body and "<html" not in body
    assert "The reveal of Ana’s story" in body and "Bruno is the bard</h2>" not in body
    response = gm_client.post(
        reverse("amnesia_stories:reveal", args=[table.pk]),
        {"turn": 1, "step": 4},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="table-panel"')
    assert "Bruno is the bard</h2>" in body and "<html" not in body


def test_the_reveal_says_when_an_obvious_step_still_pays_the_bard():
    from types import SimpleNamespace

    from games.amnesia_stories import page

    turn = {
        "turn_number": 1,
        "bard": "Ana",
        "story": ["A01", "A02", "A03"],
        "picks": {"Ana": [1, 2, 3], "Bruno": [1, 2, 3], "Caio": [1, 2, 3]},
        "gains": {"Ana": 4, "Bruno": 5, "Caio": 5},
        "red_cards": {"Ana": 0, "Bruno": 0, "Caio": 0},
    }
    draft3 = {"audience_points": 1, "bard_points": 2, "set_bonus": 2}
    draft3 |= {"red_card_on_all_wrong": False, "all_matched": "zero_at_climax"}
    shown = page.reveal(turn, {}, draft3, lambda c: {"id": c})
    # every step all matched: the bard scores before the climax, not at it
    assert [(s["outcome"], s["bard_points"]) for s in shown["steps"]] == [
        ("all", 2),
        ("all", 2),
        ("all", 0),
    ]
    assert shown["bonus"] == [{"name": "Bruno", "points": 2}, {"name": "Caio", "points": 2}]
    shown = page.reveal(turn, {}, {**draft3, "all_matched": "zero"}, lambda c: {"id": c})
    assert [s["bard_points"] for s in shown["steps"]] == [0, 0, 0]
    # a physical table that cannot deal a journey may deal its discard again
    table = SimpleNamespace(extra={"area_ids": [f"c{i}" for i in range(1, 7)]})
    seen = {
        "turn_number": 2,
        "options": {"choices": 3},
        "discard": [],
        "selection": {"1": "c1", "2": "c2", "3": "c3"},
        "journey": ["c4", "c5", "c6"],
    }
    assert page.undealt(table, seen) == ["c1", "c2", "c3"]
    table.extra["area_ids"] = [f"c{i}" for i in range(1, 10)]
    assert page.undealt(table, seen) == ["c7", "c8", "c9"]


# -- answers sent at once, and sent again -------------------------------------------------------
def form_fields(html: str, action: str = "") -> dict[str, str]:
    """The hidden inputs of the page's first form (of the one posting to ``action``)."""
    form = re.search(rf'<form method="post"[^>]*{re.escape(action)}.*?</form>', html, re.S)
    assert form, "no such form on the page"
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(0)))


@pytest.mark.django_db(transaction=True)
def test_three_players_answering_one_story_at_once_are_all_stored(gm):
    """Three phones open their answer screens, then all post at the same moment, each
    request on its own database connection: every answer counts, none is a 409."""
    clients = []
    for _ in PLAYERS:
        client = Client()
        client.force_login(gm)
        clients.append(client)
    table = new_table(clients[0])
    tell(clients[0], table)
    posts = []
    for client, name in zip(clients, PLAYERS, strict=True):
        url = reverse("amnesia_stories:answer", args=[table.pk, position(table, name)])
        hidden = form_fields(client.get(url).content.decode())
        assert hidden["expected_turn"].startswith("answer/1/") and hidden["client_id"]
        posts.append((client, url, {**hidden, "pick-1": 1, "pick-2": 2, "pick-3": 3}))
    statuses: list[int] = []
    barrier = threading.Barrier(len(posts))

    def send(client, url, data) -> None:
        try:
            barrier.wait()
            statuses.append(client.post(url, data).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=p) for p in posts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == [302, 302, 302]
    assert Move.objects.filter(table=table).count() == 4
    table.refresh_from_db()
    assert seen(table)["turn_number"] == 2 and seen(table)["last_turn"]["picks"] == {
        name: [1, 2, 3] for name in PLAYERS
    }


def test_an_answer_to_a_turn_that_is_over_is_a_409(gm_client):
    table = new_table(gm_client)
    tell(gm_client, table)
    url = reverse("amnesia_stories:answer", args=[table.pk, position(table, "Caio")])
    stale = form_fields(gm_client.get(url).content.decode())
    for name in PLAYERS:
        assert answer_by_laptop(gm_client, table, name, [1, 2, 3]).status_code == 302
    open_reveal(gm_client, table)
    tell(gm_client, table)  # the next turn: Caio's old screen is for the turn before
    response = gm_client.post(url, {**stale, "pick-1": 3, "pick-2": 2, "pick-3": 1})
    assert response.status_code == 409 and "That turn is over" in response.content.decode()
    assert "Caio" not in seen(table)["answered"]


def test_the_revealed_cards_sent_twice_are_stored_once(gm_client):
    table = new_table(gm_client)
    tell(gm_client, table)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    hidden = form_fields(page, "revealed")
    data = {**hidden, **revealed_form(table, {n: [1, 2, 3] for n in PLAYERS})}
    url = reverse("amnesia_stories:revealed", args=[table.pk])
    first = gm_client.post(url, data)
    again = gm_client.post(url, data)  # the answer to the first was lost: the same post again
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert table.moves.count() == 4 and seen(table)["turn_number"] == 2
