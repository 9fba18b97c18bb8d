"""Amnesia to print and play: the opening card the first teller reads aloud, a reference card
per player and a mat for the bank, the discard and the pot (the kit's ``components``;
games.components lays them out for duplex)."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.amnesia.rules import GAME
from games.components import Card, CardSheet, Components, PrintRequest, Sheet

TEMPLATE = "amnesia/components.html"
REFERENCE_CARD = (90.0, 125.0)  # mm: four to a page


def _part(name: str, **context) -> SafeString:
    return render_to_string(f"{TEMPLATE}#{name}", context)


def components(request: PrintRequest) -> Components:
    options = dict(request.options)
    players = request.players or GAME.max_players
    context = {"o": options, "refuse_at_cap": options.get("pass_at_cap") != "allow"}
    card = Card(face=_part("reference_face", **context), back=_part("reference_back", **context))
    reference = CardSheet(
        title=_("Reference cards"),
        size=REFERENCE_CARD,
        note=ngettext(
            "%(n)s copy, one for each player: your turn on the face, the challenge and the "
            "finale on the back.",
            "%(n)s copies, one for each player: your turn on the face, the challenge and the "
            "finale on the back.",
            players,
        )
        % {"n": players},
        cards=[card] * players,
    )
    # The seed's opening situation, read aloud before the first turn: one card for the table.
    opening = CardSheet(
        title=_("The opening"),
        size=REFERENCE_CARD,
        note=_("One card for the table: read it aloud before the first turn."),
        cards=[Card(face=_part("opening_face"), back=_part("opening_back"))],
    )
    # The memory of the room may be told once the discard holds more than factor × players.
    thresholds = [
        (n, options["finale_factor"] * n + 1) for n in range(GAME.min_players, GAME.max_players + 1)
    ]
    mat = Sheet(
        title=_("Bank and discard mat"),
        html=_part("mat", o=options, thresholds=thresholds, total=options["start_tokens"]),
    )
    return Components(
        title=_("Amnesia: print and play"),
        parts=[opening, reference, mat],
        stylesheet="amnesia/print.css",
    )
