"""The permission matrix's rows for the accounts, the table engine, Amnesia Stories and the
contest (tests/permission_rows.py says what a row holds)."""

from __future__ import annotations

import json

from games.services import reading
from tests.permission_rows import (
    ATTRIBUTES,
    Row,
    amnesia_move,
    expected_seq,
    laptop_seat,
    picture,
    pk,
)
from tests.permission_world import (
    EVERYONE,
    LOGGED_IN,
    LOGGED_IN_POST,
    LOGIN,
    OWNER,
    OWNER_POST,
    SENT_ON,
    TOKEN,
    TOKEN_POST,
)

TABLE_ROWS: list[Row] = [
    Row("favicon.ico", (301,) * 5, path=lambda w, a: "/favicon.ico"),
    # -- accounts and languages --
    Row("signup", (200, 302, 200, 302, 302)),
    Row("login", EVERYONE),
    Row("logout", (405,) * 5),
    Row("password_change", LOGGED_IN),
    Row("password_change_done", LOGGED_IN),
    Row("password_reset", EVERYONE),
    Row("password_reset_done", EVERYONE),
    Row("password_reset_confirm", EVERYONE, lambda w, a: ["MQ", "set-password"]),
    Row("password_reset_complete", EVERYONE),
    Row("set_language", (302,) * 5),
    Row(
        "profile",
        LOGGED_IN,
        post=LOGGED_IN_POST,
        data=lambda w: {"display_name": "Vandal"},
        owner_changes=True,
    ),
    # A POST that logs in as the demo account; this world has none, so it answers 404.
    Row("demo_login", (405,) * 5, post=(404,) * 5),
    # -- the table engine --
    Row("games:home", EVERYONE),
    Row("games:table_new", LOGGED_IN, post=LOGGED_IN_POST),
    Row(
        "games:table_import",
        LOGGED_IN,
        post=LOGGED_IN_POST,
        data=lambda w: {"script_text": json.dumps(reading.script_of(w.amnesia))},
        owner_changes=True,
    ),
    Row("games:table", OWNER, pk("amnesia")),
    Row(
        "games:move",
        SENT_ON,
        pk("amnesia"),
        post=OWNER_POST,
        data=amnesia_move,
        owner_changes=True,
    ),
    Row(
        "games:undo",
        SENT_ON,
        pk("amnesia"),
        post=OWNER_POST,
        data=expected_seq(lambda w: w.amnesia),
        owner_changes=True,
    ),
    Row(
        "games:draft",
        SENT_ON,
        pk("amnesia"),
        post=OWNER_POST,
        data=lambda w: {"text": "Vandalised"},
        owner_changes=True,
    ),
    Row("games:export", OWNER, pk("amnesia")),
    Row(
        "games:names",
        OWNER,
        pk("amnesia"),
        post=OWNER_POST,
        data=lambda w: {"position": 0, "label": "Player 1"},
        owner_changes=True,
    ),
    Row("games:narrative", OWNER, pk("amnesia")),
    Row("games:story", OWNER, pk("amnesia")),
    Row("games:picture", OWNER, lambda w, a: [w.laptop.pk, *picture(w, a)]),
    Row("games:seat_picture", TOKEN, lambda w, a: [w.token(w.laptop, a), *picture(w, a)]),
    # The rules are public; a table's own rules follow the table, a seat's its link.
    Row("games:rules", EVERYONE, lambda w, a: ["amnesia"]),
    Row("games:table_rules", OWNER, pk("contest")),
    Row("games:seat_rules", TOKEN, lambda w, a: [w.token(w.contest, a)]),
    # A poll answers 404, never a redirect to the login page, to whoever may not follow the
    # table: what would an htmx page do with a login form?
    Row("games:poll", (404, 404, 404, 200, 404), pk("amnesia")),
    Row("games:seat_poll", TOKEN, lambda w, a: [w.token(w.contest, a)]),
    Row("games:join", OWNER, pk("contest")),
    Row("games:join_qr", OWNER, lambda w, a: [w.contest.pk, 0]),
    # Revoking a seat's link (and making a new one) is the owner's; a GET goes to the join
    # screen, which the owner alone sees.
    Row(
        "games:reissue_link",
        SENT_ON,
        lambda w, a: [w.contest.pk, 1],
        post=OWNER_POST,
        owner_changes=True,
    ),
    # The print-and-play sheets are public, like the rules they go with.
    Row("games:components", EVERYONE, lambda w, a: ["amnesia"]),
    # -- Amnesia Stories --
    Row("amnesia_stories:projector", OWNER, pk("laptop")),
    Row("amnesia_stories:handoff", OWNER, laptop_seat),
    Row(
        "amnesia_stories:answer",
        OWNER,
        laptop_seat,
        post=OWNER_POST,
        data=lambda w: {"pick-1": 1, "pick-2": 2, "expected_seq": w.laptop.last_seq},
        owner_changes=True,
    ),
    Row("amnesia_stories:revealed", SENT_ON, pk("laptop"), post=OWNER_POST),
    # Opening a step of the reveal: the owner's; a GET opens nothing and shows the table.
    Row(
        "amnesia_stories:reveal",
        (LOGIN, 404, LOGIN, 302, 404),
        pk("laptop"),
        post=OWNER_POST,
        data=lambda w: {"turn": 1, "step": 1},
    ),
    Row(
        "amnesia_stories:timer",
        SENT_ON,
        pk("laptop"),
        post=OWNER_POST,
        data=lambda w: {"seconds": 30, "action": "set"},
    ),
    Row("amnesia_stories:area_image", EVERYONE, lambda w, a: ["A01", "thumb"]),
    Row("amnesia_stories:decks", LOGGED_IN),
    Row("amnesia_stories:deck_upload", LOGGED_IN, post=LOGGED_IN_POST),
    Row("amnesia_stories:deck", OWNER, pk("deck")),
    Row(
        "amnesia_stories:deck_delete",
        SENT_ON,
        pk("deck"),
        post=OWNER_POST,
        owner_changes=True,
    ),
    Row("amnesia_stories:deck_picture", OWNER, lambda w, a: [w.deck.pk, w.card.pk, "thumb"]),
    # -- the contest --
    Row(
        "contest:build",
        OWNER,
        pk("contest"),
        query=lambda w: {"move": json.dumps({"by": "Ada", "do": "play"})},
        post=OWNER_POST,
    ),
    Row("contest:table_character", SENT_ON, pk("contest"), post=OWNER_POST),
    Row(
        "contest:bring",
        SENT_ON,
        pk("contest"),
        post=OWNER_POST,
        data=lambda w: {"by": "Ada", "character": w.character.pk},
    ),
    Row(
        "contest:display",
        SENT_ON,
        pk("contest"),
        post=OWNER_POST,
        data=lambda w: {"drinks_as": "penalty_points"},
        owner_changes=True,
    ),
    Row("contest:seat_qr", OWNER, lambda w, a: [w.contest.pk, 0]),
    Row("contest:seat", TOKEN, lambda w, a: [w.token(w.contest, a)]),
    Row(
        "contest:seat_move",
        (302,) * 5,
        lambda w, a: [w.token(w.contest, a)],
        post=TOKEN_POST,
    ),
    Row("amnesia:seat", TOKEN, lambda w, a: [w.token(w.amnesia, a)]),
    Row(
        "amnesia:seat_move",
        (302,) * 5,
        lambda w, a: [w.token(w.amnesia, a)],
        post=TOKEN_POST,
    ),
    Row("amnesia_stories:seat", TOKEN, lambda w, a: [w.token(w.laptop, a)]),
    Row(
        "amnesia_stories:seat_move",
        (302,) * 5,
        lambda w, a: [w.token(w.laptop, a)],
        post=TOKEN_POST,
    ),
    Row("contest:characters", LOGGED_IN),
    Row(
        "contest:character_new",
        LOGGED_IN,
        post=LOGGED_IN_POST,
        data=lambda w: {"name": "Yum", **ATTRIBUTES},
        owner_changes=True,
    ),
    Row("contest:character", OWNER, pk("character")),
    Row(
        "contest:character_edit",
        OWNER,
        pk("character"),
        post=OWNER_POST,
        data=lambda w: {"name": "Vandal", **ATTRIBUTES},
        owner_changes=True,
    ),
    Row(
        "contest:character_spend",
        SENT_ON,
        pk("character"),
        post=OWNER_POST,
        data=lambda w: {"attribute": "brains"},
        owner_changes=True,
    ),
]
