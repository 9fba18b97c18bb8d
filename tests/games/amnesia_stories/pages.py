"""Amnesia Stories through the pages, the helpers its view tests share (test_views_*.py,
test_reveal.py, test_timer.py): a table made by the new-table form, moves posted as the pages
post them, answers on the passed laptop, every page a seat or the room may see; and ``media``,
each test's own media folder (autouse where it is imported)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Table
from games.rules import get_game
from games.services import reading

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
    return get_game("amnesia_stories").view(reading.state_of(table), None)


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


# -- answers sent at once, and sent again -------------------------------------------------------
def form_fields(html: str, action: str = "") -> dict[str, str]:
    """The hidden inputs of the page's first form (of the one posting to ``action``)."""
    form = re.search(rf'<form method="post"[^>]*{re.escape(action)}.*?</form>', html, re.S)
    assert form, "no such form on the page"
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(0)))
