"""The contest through the pages, the helpers its view tests share (test_views_*.py,
test_seat_decisions.py, tests/test_languages.py): a table made by the new-table form, moves
posted as the pages post them, characters made at the table, a virtual game dealt from a fixed
seed and its hands."""

from __future__ import annotations

import json
import re

from django.urls import reverse

from games.models import Table
from games.services import reading

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
    return reading.state_of(table)


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
