"""Contest to print and play: character sheets, a reference card and a pretzel and drinks
tally (the kit's ``components``; games.components lays them out for duplex)."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.components import Card, CardSheet, Components, PrintRequest, Sheet
from games.contest.cards import attribute_info
from games.contest.rules import GAME
from games.contest.rules.core import ATTRIBUTES

TEMPLATE = "contest/components.html"
SHEET_CARD = (90.0, 125.0)  # mm: four to a page, character sheets and reference cards alike


def _part(name: str, **context) -> SafeString:
    return render_to_string(f"{TEMPLATE}#{name}", context)


def uses() -> dict[str, str]:
    return {
        "brains": _("thinking, noticing, science, psychic powers"),
        "muscle": _("lifting, throwing, breaking, fighting"),
        "moves": _("running, dodging, shooting, lock-picking"),
        "coolness": _("persuasion, lies, style, spells"),
    }


def components(request: PrintRequest) -> Components:
    o = dict(request.options)
    players = request.players or GAME.max_players
    scale = list(range(o["attribute_min"], o["attribute_max"] + 1))
    attributes = [
        {**attribute_info(attr), "uses": uses()[attr], "scale": scale} for attr in ATTRIBUTES
    ]
    character = Card(
        face=_part("character_face", o=o, attributes=attributes),
        back=_part("character_back", o=o, hand=range(1, o["hand_size"] + 1)),
    )
    reference = Card(
        face=_part("reference_face", o=o, attributes=attributes),
        back=_part("reference_back", o=o),
    )
    counts = {"n": players}
    parts = [
        CardSheet(
            title=_("Character sheets"),
            size=SHEET_CARD,
            note=ngettext(
                "%(n)s sheet, one for each player: attributes on the face, lost cards and "
                "notes on the back.",
                "%(n)s sheets, one for each player: attributes on the face, lost cards and "
                "notes on the back.",
                players,
            )
            % counts,
            cards=[character] * players,
        ),
        CardSheet(
            title=_("Reference cards"),
            size=SHEET_CARD,
            note=ngettext(
                "%(n)s card, one for each player: a contest on the face; ties, penalties and "
                "control on the back.",
                "%(n)s cards, one for each player: a contest on the face; ties, penalties and "
                "control on the back.",
                players,
            )
            % counts,
            cards=[reference] * players,
        ),
        Sheet(
            title=_("Pretzel and drinks tally"),
            html=_part(
                "tally",
                o=o,
                players=range(1, players + 1),
                pretzels=range(1, o["pretzel_limit"] + 1),
                eaten=range(1, o["eat_limit"] + 1),
            ),
        ),
    ]
    return Components(
        title=_("Contest: print and play"), parts=parts, stylesheet="contest/print.css"
    )
