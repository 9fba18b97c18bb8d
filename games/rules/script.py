"""Game scripts: parsing and validation, replay, and the shape of ``referee replay``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from games.rules import get_game
from games.rules.base import N_, BadScript, IllegalMove, Setup

# Fields of a move that never change the rules.
META_FIELDS = ("text", "at")


def parse_setup(script: Any) -> Setup:
    """Validate everything but the moves; raise BadScript with index None."""
    if not isinstance(script, dict):
        raise BadScript(N_("A script must be a JSON object."))
    name = script.get("game")
    try:
        game = get_game(name) if isinstance(name, str) else None
    except KeyError:
        game = None
    if game is None:
        raise BadScript(N_("Unknown game {name!r}."), name=name)
    players = script.get("players")
    if (
        not isinstance(players, list)
        or not players
        or not all(isinstance(p, str) and p.strip() for p in players)
    ):
        raise BadScript(N_("'players' must be a list of non-empty names."))
    if len(set(players)) != len(players):
        raise BadScript(N_("Player names must be unique."))
    start = script.get("start", players[0])
    if start not in players:
        raise BadScript(N_("The start player {start!r} is not at the table."), start=start)
    raw_options = script.get("options") or {}
    if not isinstance(raw_options, dict):
        raise BadScript(N_("'options' must be an object."))
    options = {}
    for key, value in raw_options.items():
        if key not in game.options:
            raise BadScript(N_("Unknown option {key!r} for {name}."), key=key, name=name)
        game.options[key].check(key, value)
        options[key] = value
    for key, opt in game.options.items():
        options.setdefault(key, opt.default)
    deck_mode = script.get("deck_mode", "virtual")
    if deck_mode not in ("virtual", "physical"):
        raise BadScript(N_("'deck_mode' must be 'virtual' or 'physical'."))
    seed = script.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BadScript(N_("'seed' must be an integer."))
    deck = script.get("deck")
    setup = Setup(
        game=name,
        players=list(players),
        start=start,
        options=options,
        deck_mode=deck_mode,
        seed=seed,
        deck=None,
    )
    known = {
        "game",
        "players",
        "start",
        "options",
        "deck_mode",
        "seed",
        "deck",
        "moves",
    }
    setup.extra = {k: v for k, v in script.items() if k not in known}
    if deck is not None:
        if not isinstance(deck, list):
            raise BadScript(N_("'deck' must be a list of card codes."))
        setup.deck = list(deck)
    game.check_setup(setup)
    if setup.deck is not None:
        for code in setup.deck:
            if not isinstance(code, str) or not game.is_card(code, setup):
                raise BadScript(N_("Unknown card code {code!r} in the deck."), code=code)
    return setup


def check_move_shape(setup: Setup, move: Any, index: int) -> None:
    """What makes a single move malformed (bad_script) rather than illegal."""
    if not isinstance(move, dict):
        raise BadScript(N_("Every move must be a JSON object."), index)
    game = get_game(setup.game)
    for key in game.card_fields:
        value = move.get(key)
        codes = value if isinstance(value, list) else [value]
        for code in codes:
            if isinstance(code, str) and not game.is_card(code, setup):
                raise BadScript(N_("Unknown card code {code!r}."), index, code=code)


def parse_script(script: Any) -> tuple[Setup, list[dict[str, Any]]]:
    setup = parse_setup(script)
    moves = script.get("moves", [])
    if not isinstance(moves, list):
        raise BadScript(N_("'moves' must be a list."))
    for i, move in enumerate(moves):
        check_move_shape(setup, move, i)
    return setup, moves


def rules_part(move: dict[str, Any]) -> dict[str, Any]:
    """The move without narration and timestamp (what the referee reads)."""
    return {k: v for k, v in move.items() if k not in META_FIELDS}


@dataclass
class Replay:
    setup: Setup
    state: dict[str, Any]  # the last legal state
    states: list[dict[str, Any]]  # state after each legal move (when kept)
    error: IllegalMove | None = None
    error_index: int | None = None


def replay(setup: Setup, moves: list[dict[str, Any]], keep_states: bool = False) -> Replay:
    """Apply the moves in order; stop at the first illegal one."""
    game = get_game(setup.game)
    state = game.initial_state(setup)
    states: list[dict[str, Any]] = []
    for i, move in enumerate(moves):
        try:
            state = game.apply(state, move)
        except IllegalMove as exc:
            return Replay(setup, state, states, exc, i)
        if keep_states:
            states.append(state)
    return Replay(setup, state, states)


def replay_script(script: Any) -> tuple[int, dict[str, Any]]:
    """The exit code and JSON output of ``referee replay`` for a parsed script."""
    try:
        setup, moves = parse_script(script)
    except BadScript as exc:
        return 2, {"error": {"index": exc.index, "code": exc.code, "message": exc.message}}
    result = replay(setup, moves)
    if result.error is not None:
        return 1, {
            "error": {"index": result.error_index, **result.error.as_dict()},
            "state": result.state,
        }
    return 0, result.state


def load_json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadScript(
            N_("The script is not valid JSON: {msg} (line {lineno})."),
            msg=exc.msg,
            lineno=exc.lineno,
        ) from exc
