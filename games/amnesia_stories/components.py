"""Amnesia Stories to print and play: the area cards, the number, start and red cards, and a
score sheet (the kit's ``components``; games.components lays them out for duplex).

An area card prints its illustration and id on the face, its adventure text on the back, in
the request's language; a custom deck prints the same way from its own pictures and texts.
"""

from __future__ import annotations

import mimetypes
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.amnesia_stories.area_store import BOOK_PICTURES
from games.amnesia_stories.area_texts import AREA_IDS, area_text
from games.amnesia_stories.card_faces import text_language
from games.amnesia_stories.models import CustomCard, CustomDeck
from games.amnesia_stories.rules import GAME
from games.components import Card, CardSheet, Components, ComponentsError, PrintRequest, Sheet

TEMPLATE = "amnesia_stories/components.html"
AREA_CARD = (88.0, 63.0)  # mm, landscape like the illustrations (3:2)
# The face's id and the back's first line start this far from the card's left and top edges,
# in the same font and size: a card's back text sits exactly behind its id (the duplex test
# reads both positions back).
AREA_INSET = (5.0, 3.0)
SMALL_CARD = (44.0, 63.0)
PICTURE_PATH = "/components/area/"
LONG_TEXT = 220  # characters: a longer custom text prints smaller to stay on its card
MAX_SCORE_ROWS = 24  # turns on one score sheet
# The seed's box is for four players: 5 sets of number cards (25), 4 red cards, 4 score cards
# (one marked S) and a score cube each. A print for more (or fewer) players scales these.
SEED_PLAYERS = 4
SEED_RED_CARDS = 4  # the box's red cards, whatever the player count (more players, more)
# The VP a score card's track shows: below zero too, since the red-card penalty at the end can
# take a player under it; past the top, a second lap.
SCORE_TRACK = range(-5, 25)


def _part(name: str, **context: Any) -> SafeString:
    return render_to_string(f"{TEMPLATE}#{name}", context)


def _area_cards(request: PrintRequest) -> tuple[list[dict[str, Any]], dict, str]:
    """[{id, text, picture}], the pictures to serve, and the deck's name."""
    deck_id = request.extra.get("custom_deck")
    if deck_id is None:
        lang = text_language()
        resources = {
            f"{PICTURE_PATH}{card_id}": (BOOK_PICTURES.picture(card_id), "image/jpeg")
            for card_id in AREA_IDS
        }
        cards = [
            {"id": card_id, "text": area_text(card_id, lang), "picture": PICTURE_PATH + card_id}
            for card_id in AREA_IDS
        ]
        return cards, resources, _("the 48 built-in area cards")
    deck = CustomDeck.objects.filter(pk=deck_id).first() if isinstance(deck_id, int) else None
    if deck is None:
        raise ComponentsError(f"No custom deck {deck_id!r}.")
    cards, resources = [], {}
    rows: list[CustomCard] = list(deck.cards.order_by("position"))
    for position, row in enumerate(rows):
        picture = None
        if row.image:
            with row.image.open("rb") as handle:
                body = handle.read()
            mime = mimetypes.guess_type(row.image.name)[0] or "application/octet-stream"
            # By position alone (one print holds one deck): the document is the deck's
            # content, whatever its row's id, so the same deck prints and caches alike.
            picture = f"{PICTURE_PATH}deck/{position}"
            resources[picture] = (body, mime)
        cards.append({"id": row.card_id, "text": row.text, "picture": picture})
    return cards, resources, _("the deck “%(name)s”") % {"name": deck.name}


def counts(options: dict[str, Any], players: int) -> dict[str, int]:
    """How many of each part a print holds for ``players`` players (the area cards aside)."""
    reds = max(players, SEED_RED_CARDS) if options["red_card_on_all_wrong"] else 0
    return {
        "number_sets": players + 1,  # each player's, and the table's selection slots
        "number_cards": (players + 1) * options["choices"],
        "red_cards": reds,
        "score_cards": players,  # one of them marked S
        "score_markers": players,
    }


def _scoring(options: dict[str, Any]) -> list[str]:
    lines = [
        _("Each step the listener matched: +%(n)s VP to that listener.")
        % {"n": options["audience_points"]},
        _("Some, not all, listeners matched a step: +%(n)s VP to the bard.")
        % {"n": options["bard_points"]},
    ]
    if options.get("all_matched") == "zero_at_climax":
        lines.append(
            _("All matched: +%(n)s VP to the bard, except on the story's last step.")
            % {"n": options["bard_points"]}
        )
    else:
        lines.append(_("All listeners matched a step: nothing to the bard."))
    if options["red_card_on_all_wrong"]:
        lines.append(_("Nobody matched a step: the bard takes a red card."))
    else:
        lines.append(_("Nobody matched a step: nothing to the bard."))
    lines.append(
        _("Same numbers as the bard, in any order: +%(n)s VP more.") % {"n": options["set_bonus"]}
    )
    if options["red_card_on_all_wrong"]:
        lines.append(_("At the end, whoever holds the most red cards loses that many VP."))
    return lines


def components(request: PrintRequest) -> Components:
    options = dict(request.options)
    choices = options["choices"]
    players = request.players or SEED_PLAYERS
    inset_x, inset_y = AREA_INSET
    reds_used = bool(options["red_card_on_all_wrong"])
    count = counts(options, players)

    cards, resources, deck_name = _area_cards(request)
    long_cards = {c["id"] for c in cards if len(c["text"]) > LONG_TEXT}
    area = CardSheet(
        title=_("Area cards"),
        size=AREA_CARD,
        note=_(
            "%(deck)s, %(n)s cards: illustration and id on the face, adventure text on the "
            "back. Print both sides, flipping on the long edge."
        )
        % {"deck": deck_name, "n": len(cards)},
        cards=[
            Card(
                face=_part("area_face", card=c, inset_x=inset_x, inset_y=inset_y),
                back=_part(
                    "area_back",
                    card=c,
                    inset_x=inset_x,
                    inset_y=inset_y,
                    long=c["id"] in long_cards,
                ),
            )
            for c in cards
        ],
    )

    sets, reds = count["number_sets"], count["red_cards"]
    small_back = _part("small_back")
    small = [
        Card(face=_part("number_face", number=n), back=small_back)
        for _set in range(sets)
        for n in range(1, choices + 1)
    ]
    small += [Card(face=_part("red_face"), back=small_back)] * reds
    number_note = ngettext(
        "%(sets)s sets of 1 to %(choices)s: one for each of %(players)s player and one for "
        "the selection slots.",
        "%(sets)s sets of 1 to %(choices)s: one for each of %(players)s players and one for "
        "the selection slots.",
        players,
    ) % {"sets": sets, "choices": choices, "players": players}
    if reds:
        number_note += " " + ngettext(
            "Then %(reds)s red card (use anything if they run out).",
            "Then %(reds)s red cards (use anything if they run out).",
            reds,
        ) % {"reds": reds}
    numbers = CardSheet(
        title=_("Number and red cards") if reds else _("Number cards"),
        size=SMALL_CARD,
        note=number_note,
        cards=small,
    )
    # The seed's start: deal the score cards at random; whoever gets the one marked S starts.
    track = SCORE_TRACK
    score_cards = CardSheet(
        title=_("Score cards"),
        size=SMALL_CARD,
        note=ngettext(
            "%(n)s score card, one marked S (the start player), and a marker for each: deal "
            "them at random.",
            "%(n)s score cards, one marked S (the start player), and a marker for each: deal "
            "them at random.",
            count["score_cards"],
        )
        % {"n": count["score_cards"]},
        cards=[
            Card(face=_part("score_face", start=i == 0, track=track), back=small_back)
            for i in range(count["score_cards"])
        ],
    )
    markers = Sheet(
        title=_("Score markers"),
        html=_part("score_markers", markers=range(1, count["score_markers"] + 1)),
    )

    turns = options["rounds"] * players
    score = Sheet(
        title=_("Score sheet"),
        html=_part(
            "score_sheet",
            players=range(1, min(players, GAME.max_players) + 1),
            turns=range(1, min(turns, MAX_SCORE_ROWS) + 1),
            more_turns=turns > MAX_SCORE_ROWS,
            starting_vp=options["starting_vp"],
            questions=options["questions"],
            scoring=_scoring(options),
            red_cards=reds_used,
        ),
    )
    return Components(
        title=_("Amnesia Stories: print and play"),
        parts=[area, numbers, score_cards, markers, score],
        resources=resources,
        stylesheet="amnesia_stories/print.css",
    )
