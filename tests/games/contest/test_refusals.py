"""The contest's refused moves, posted through its pages as a person would (the table page:
characters, challenges, the physical deck's builder; a seat's page on a phone; plain form
posts and htmx): each answered inside its page, with what was typed or chosen kept and one
sentence in the reader's language (tests/refusals.py says what every answer must be)."""

from __future__ import annotations

import json

from django.urls import reverse

from games.contest.rules import GAME
from games.models import Table
from games.services import reading, writing
from tests.refusals import Refusal, check_everywhere
from tests.tables import contest_in_play

CODES = (*GAME.moves, *(key for fields in GAME.fields.values() for key in fields))
ATTRIBUTES = {"brains": "4", "muscle": "3", "moves": "3", "coolness": "3"}


def _speaking(table: Table):
    def set_language(code: str) -> None:
        Table.objects.filter(pk=table.pk).update(language=code)  # a seat page speaks it

    return set_language


def _case(table: Table, id: str, url: str, data: dict, kept: dict, status=400, **kw) -> Refusal:
    seq = table.last_seq if status == 400 else table.last_seq - 1
    return Refusal(
        id=id,
        url=url,
        data={"expected_seq": seq, **data},
        kept=kept,
        status=status,
        codes=CODES,
        **kw,
    )


def test_refusals_of_a_character_made_at_the_table(gm_client, make_table):
    table = make_table("contest", ("Ana", "Bo"), deck_mode="physical")
    url = reverse("contest:table_character", args=[table.pk])
    typed = {"name": "Zed the Bold", **ATTRIBUTES, "bfa": "true"}
    cases = [
        _case(
            table,
            "character: the attributes do not add up",
            url,
            {"by": "Ana", **typed},
            {**{k: [v] for k, v in typed.items()}, "keep": None},
        ),
        _case(
            table,
            "character: a word for an attribute",
            url,
            {"by": "Bo", **typed, "brains": "three", "keep": "true"},
            {"name": ["Zed the Bold"], "brains": ["three"], "moves": ["3"], "keep": ["true"]},
        ),
        _case(
            table,
            "character: no name",
            url,
            {"by": "Ana", **typed, "name": "  "},
            {"name": ["  "], "brains": ["4"]},
        ),
    ]
    for case in cases:
        check_everywhere(gm_client, case, _speaking(table))


def test_refusals_of_a_challenge(gm_client, gm):
    table = contest_in_play(gm, deck_mode="physical", seed=7)
    url = reverse("games:move", args=[table.pk])
    by = reading.state_of(table)["controller"]
    target = "Bo" if by == "Ana" else "Ana"
    challenge = {"by": by, "do": "challenge", "named": "true"}
    told = "Zed eyes the pies & <grins>."  # the narration box rides with the form
    cases = [
        _case(
            table,
            "challenge: no attribute chosen",
            url,
            {**challenge, "target": target, "contest": "a pie-eating contest", "text": told},
            {"contest": ["a pie-eating contest"], "text": [told]},
        ),
        _case(
            table,
            "challenge: nothing said of the contest",
            url,
            {**challenge, "target": target, "contest": "", "attribute": "moves"},
            {"attribute": ["moves"]},
        ),
        _case(
            table,
            "challenge: a page drawn before the last move",
            url,
            {**challenge, "target": target, "contest": "a staring match", "attribute": "brains"},
            {"contest": ["a staring match"], "attribute": ["brains"]},
            status=409,
        ),
    ]
    for case in cases:
        check_everywhere(gm_client, case, _speaking(table))


def test_refusals_of_the_builder(gm_client, gm):
    """The physical deck's builder: a card that is no card of the deck, and a move the page
    cannot build (an address cut short, a page from another game) answered in the page, not
    with a bare line of text."""
    table = contest_in_play(gm, deck_mode="physical", seed=7)
    url = reverse("contest:build", args=[table.pk])
    by = reading.state_of(table)["controller"]
    face = json.dumps({"by": by, "do": "take_control", "with": "face_card"})
    cases = [
        _case(table, "build: no such card", url, {"move": face, "pick": "ZZ"}, {}),
        _case(table, "build: no move to build", url, {"move": '{"do": "nothing"}'}, {}),
    ]
    for case in cases:
        check_everywhere(gm_client, case, _speaking(table))


def test_refusals_on_a_seat_page(gm_client, gm):
    table = contest_in_play(gm, deck_mode="virtual", seed=7)
    by = reading.state_of(table)["controller"]
    target = "Bo" if by == "Ana" else "Ana"
    writing.play_many(
        table,
        [
            {
                "by": by,
                "do": "challenge",
                "target": target,
                "contest": "a duel",
                "attribute": "muscle",
            }
        ],
        None,
    )
    writing.play_many(table, [{"by": target, "do": "accept", "attribute": "moves"}], None)
    table.refresh_from_db()
    state = reading.state_of(table)
    legal = {m["do"]: m for m in GAME.legal_moves(state, by) if "with" not in m}
    card = legal["play"]["choices"]["card"][-1]
    seat = table.seats.get(name=by)
    url = reverse("contest:seat_move", args=[seat.token])
    stale = _case(
        table,
        "seat play: a page drawn before the last move",
        url,
        {"do": "play", "card": card},
        {"card": [card]},
        status=409,
        panel="seat-panel",
    )
    check_everywhere(gm_client, stale, _speaking(table))
