"""The toy game's registration: every part a kit needs, each as small as it can be."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils.html import format_html

from games.components import Components, Sheet
from games.registry import GameKit, PlaytestParts
from stories.books import chronicle
from tests.games.toy.rules import GAME


def page_context(snap) -> dict[str, Any]:
    turn = snap.view.get("turn")
    return {"turn_moves": snap.legal.get(turn, {}) if turn else {}}


def script(start: datetime, finished: bool = True) -> dict[str, Any]:
    moves = [
        {"by": "Ana", "do": "say", "text": "Once upon a time."},
        {"by": "Bruno", "do": "say", "text": "There was a toy."},
        {"by": "Ana", "do": "stop"},
    ]
    if not finished:
        moves = moves[:-1]
    for i, move in enumerate(moves):
        move["at"] = (start + timedelta(seconds=30 * i)).isoformat()
    return {"game": "toy", "players": ["Ana", "Bruno"], "seed": 1, "moves": moves}


def demos(now: datetime) -> list[tuple[str, dict[str, Any]]]:
    return [
        ("Toy: a finished game", script(now - timedelta(hours=1))),
        ("Toy: in play", script(now - timedelta(minutes=5), finished=False)),
    ]


def figures(setup, moves, initial, states, elapsed) -> dict[str, Any]:
    final = states[-1] if states else initial
    return {"lines": final["lines"]}


def balance(entries, figs) -> list[dict[str, Any]]:
    return []


def figure_rows(report: dict[str, Any]) -> list[tuple[str, str]]:
    return [("Lines", str(report["figures"]["lines"]))]


def charts(report: dict[str, Any]) -> list[dict[str, Any]]:
    return []


def components(request) -> Components:
    """A sheet to tally the lines said at a real table."""
    lines = request.options["max_lines"]
    sheet = format_html("<p>Tick a box for each line said (at most {}).</p>", lines)
    return Components(title="Toy: print and play", parts=[Sheet(title="Tally", html=sheet)])


KIT = GameKit(
    slug="toy",
    title="Toy",
    summary="Say something, or stop and win.",
    referee=GAME,
    page_context=page_context,
    table_template="toy/table.html",
    rules_template="toy/rules.html",
    book=chronicle,
    demos=demos,
    playtest=PlaytestParts(
        figures=figures, balance=balance, figure_rows=figure_rows, charts=charts
    ),
    components=components,
    option_labels={"max_lines": "Lines before someone must stop"},
    presets={"short": {"label": "Short", "options": {"max_lines": 2}}},
    rulesets=({"name": "Toy: first draft", "options": {"polite": True}, "changelog": "First."},),
)
