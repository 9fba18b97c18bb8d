"""Three Cards' kit: the parts docs/adding-a-game.md asks for."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils.html import format_html

from games.components import Card, CardSheet, Components
from games.registry import GameKit, PlaytestParts
from games.rules.setup import Setup
from stories.books import chronicle
from tests.games.three_cards import views
from tests.games.three_cards.rules import CARDS, GAME, value


def page_context(snap) -> dict[str, Any]:
    """The table page shows what everyone may see: the view, never the hands."""
    seen = snap.view
    return {"scores": seen["scores"], "played": seen["played"][-5:], "left": seen["left"]}


def script(start: datetime, players: list[str], seed: int, moves: int | None = None) -> dict:
    """A game played by taking the lowest card in hand each turn (``moves``: stop early)."""
    options = {"hand_size": 3}
    setup = Setup(game=GAME.name, players=players, start=players[0], options=options, seed=seed)
    state = GAME.initial_state(setup)
    played = []
    while not state["finished"] and (moves is None or len(played) < moves):
        by = state["turn"]
        card = min(state["hands"][by], key=value)
        move = {"by": by, "do": "play", "card": card, "text": f"{by} plays {value(card)}."}
        state = GAME.apply(state, move)
        played.append({**move, "at": (start + timedelta(seconds=20 * len(played))).isoformat()})
    return {"game": GAME.name, "players": players, "seed": seed, "moves": played}


def demos(now: datetime) -> list[tuple[str, dict[str, Any]]]:
    return [
        ("Three Cards: a finished game", script(now - timedelta(hours=1), ["Ana", "Bruno"], 3)),
        (
            "Three Cards: in play",
            script(now - timedelta(minutes=5), ["Ana", "Bruno", "Caio"], 4, 5),
        ),
    ]


def figures(setup, moves, initial, states, elapsed) -> dict[str, Any]:
    final = states[-1] if states else initial
    return {"plays": len(final["played"]), "top_score": max(final["scores"].values())}


def balance(entries, figs) -> list[dict[str, Any]]:
    return []


def figure_rows(report: dict[str, Any]) -> list[tuple[str, str]]:
    figs = report["figures"]
    return [("Cards played", str(figs["plays"])), ("Top score", str(figs["top_score"]))]


def charts(report: dict[str, Any]) -> list[dict[str, Any]]:
    return []


def components(request) -> Components:
    """The fifteen cards, to cut out and play at a real table."""
    back = format_html("<p>{}</p>", "Three Cards")
    deck = [Card(face=format_html("<p>{}</p>", value(c)), back=back) for c in CARDS]
    return Components(
        title="Three Cards: print and play",
        parts=[CardSheet(title="Cards", size=(63.0, 88.0), cards=deck)],
    )


KIT = GameKit(
    slug="three_cards",
    title="Three Cards",
    summary="Play your cards, highest total wins.",
    referee=GAME,
    page_context=page_context,
    table_template="three_cards/table.html",
    rules_template="three_cards/rules.html",
    book=chronicle,
    demos=demos,
    playtest=PlaytestParts(
        figures=figures, balance=balance, figure_rows=figure_rows, charts=charts
    ),
    components=components,
    seat_page="three_cards:seat",
    seat_template="three_cards/seat.html",
    seat_context=views.seat_context,
    urls="tests.games.three_cards.urls",
    option_labels={"hand_size": "Cards in each hand"},
)
