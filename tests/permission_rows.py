"""What the permission matrix's rows are made of (tests/test_permission_matrix.py): a ``Row``
(a URL pattern, what each actor gets on GET and on a refused POST, the body the owner's POST
sends) and the helpers that fill a row's arguments from the world."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from games.models import Table
from games.rules import get_game
from games.services import reading
from tests.permission_world import EVERYONE, World

# -- the rows -----------------------------------------------------------------------------
Args = Callable[[World, str], Any]


@dataclass
class Row:
    key: str  # the pattern's namespaced name, or its route when it has none
    get: tuple  # the GET status of each actor, in ACTORS order
    args: Args = lambda w, actor: []  # noqa: E731 - positional URL arguments
    variant: str = ""
    query: Callable[[World], dict] | None = None
    post: tuple | None = None  # the status of a refused POST, X where the actor may POST
    data: Callable[[World], dict] | None = None
    # The owner's POST of ``data`` changes something (checked by the last test).
    owner_changes: bool = False
    path: Args | None = None  # for a pattern with no name: the URL itself

    def url(self, world: World, actor: str) -> str:
        if self.path is not None:
            return self.path(world, actor)
        return reverse(self.key, args=self.args(world, actor))


def story_rows(name: str, by: str, expected: dict[str, tuple], extra: Args | None = None):
    """Rows of a story view for each visibility (``by`` the story's id or its secret)."""
    rows = []
    for key, statuses in expected.items():

        def args(w: World, actor: str, key=key) -> list:
            story = w.stories[key]
            first = story.pk if by == "pk" else story.secret
            return [first, *(extra(w, actor) if extra else [])]

        rows.append(Row(f"stories:{name}", statuses, args, variant=key))
    return rows


def redirected(statuses: tuple) -> tuple:
    """The same people, sent on (302) where the others see the page (200)."""
    return tuple(302 if status == 200 else status for status in statuses)


def guessed_secret_row(name: str, extra: Args | None = None) -> Row:
    def args(w: World, actor: str) -> list:
        return [secrets.token_urlsafe(18), *(extra(w, actor) if extra else [])]

    return Row(f"stories:{name}", (404,) * 5, args, variant="guessed secret")


# A reader who is not an author: by id only a published public story; by the secret link a
# published unlisted or public one. The owner is the story's author.
AUTHOR_ONLY = (404, 404, 404, 200, 404)  # the story views ask nobody to log in
BY_ID = {"private": AUTHOR_ONLY, "unlisted": AUTHOR_ONLY, "public": EVERYONE, "draft": AUTHOR_ONLY}
BY_SECRET = {"private": AUTHOR_ONLY, "unlisted": EVERYONE, "public": EVERYONE, "draft": AUTHOR_ONLY}


def picture(w: World, actor: str) -> list:
    return [w.card.pk, "large"]


def pk(attr: str) -> Args:
    return lambda w, actor: [getattr(w, attr).pk]


def laptop_seat(w: World, actor: str) -> list:
    """A seat of the laptop table that has not answered yet."""
    state = reading.state_of(w.laptop)
    name = next(n for n in state["seats"] if n not in state["answered"])
    return [w.laptop.pk, w.laptop.seats.get(name=name).position]


def expected_seq(table: Callable[[World], Table]) -> Callable[[World], dict]:
    def data(w: World) -> dict:
        found = table(w)
        found.refresh_from_db()
        return {"expected_seq": found.last_seq}

    return data


def amnesia_move(w: World) -> dict:
    """A legal move at the Amnesia table, by the player whose turn it is (one with no fields:
    the referee's first)."""
    w.amnesia.refresh_from_db()
    state = reading.state_of(w.amnesia)
    legal = get_game("amnesia").legal_moves(state, state["turn"])
    return {"by": state["turn"], "do": legal[0]["do"], "expected_seq": w.amnesia.last_seq}


ATTRIBUTES = {"brains": 3, "muscle": 4, "moves": 3, "coolness": 2}
STORY_EDIT = {"title": "Vandalised", "subtitle": "", "language": "en", "blurb": "", "tags": ""}
IMPRESSION = {
    "fun": 5,
    "length": 5,
    "clarity": 5,
    "downtime": 5,
    "decisions": 5,
    "again": 5,
    "change": "Vandalised",
}
