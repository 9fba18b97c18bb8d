"""Game scripts: parsing and validation, replay, and the shape of ``referee replay``."""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from typing import Any

from games.rules import available_games, get_game
from games.rules.base import Game
from games.rules.errors import N_, BadScript, IllegalMove
from games.rules.setup import Setup

# Fields of a move that never change the rules.
META_FIELDS = ("text", "at")
# The fields every move may carry, whatever its verb; the rest are the verb's own
# (``Game.fields``).
COMMON_FIELDS = ("by", "do", *META_FIELDS)
# No script or move is nested deeper than a few levels (script, moves, a move, a list).
MAX_JSON_DEPTH = 32
_SURROGATE = re.compile("[\ud800-\udfff]")
# The mark of an export of a table in play that leaves out its virtual deck (the seed and any
# stacked deck: they would show every hand and every card to come). Such a script cannot
# replay to the state the table shows, so nothing replays or imports it.
DECK_LEFT_OUT = "deck_left_out"


def parse_setup(script: Any) -> Setup:
    """Validate everything but the moves; raise BadScript with index None."""
    if not isinstance(script, dict):
        raise BadScript(N_("A script must be a JSON object."))
    if script.get(DECK_LEFT_OUT, False) is not False:
        raise BadScript(
            N_(
                "This export of a table in play leaves out its deck; export it again when the "
                "game is over, or as the server's operator with `referee export --with-secrets`."
            )
        )
    name = script.get("game")
    try:
        game = get_game(name) if isinstance(name, str) else None
    except KeyError:
        game = None
    if game is None or not isinstance(name, str):
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
    if not isinstance(start, str) or start not in players:
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
                raise BadScript(N_("There is no card “{code}” in this game."), index, code=code)


def parse_script(script: Any) -> tuple[Setup, list[dict[str, Any]]]:
    setup = parse_setup(script)
    moves = script.get("moves", [])
    if not isinstance(moves, list):
        raise BadScript(N_("'moves' must be a list."))
    for i, move in enumerate(moves):
        check_move_shape(setup, move, i)
    return setup, moves


def undeclared_fields(game: Game, move: dict[str, Any]) -> list[str]:
    """The keys of ``move`` that its verb does not read (nor any move: by, do, text, at).
    A verb the game does not have declares nothing, so every key of its own is listed."""
    verb = move.get("do")
    declared = game.fields.get(verb, {}) if isinstance(verb, str) else {}
    return [key for key in move if key not in COMMON_FIELDS and key not in declared]


def misfit_field(game: Game, move: dict[str, Any]) -> str | None:
    """The first field of ``move`` whose value its verb's declaration does not take (of the
    wrong kind, or beyond its limits), or None."""
    verb = move.get("do")
    declared = game.fields.get(verb, {}) if isinstance(verb, str) else {}
    for key, field in declared.items():
        if key in move and not field.fits(move[key]):
            return key
    return None


def drop_undeclared_fields(script: Any) -> list[tuple[int, list[str]]]:
    """Take out of each move of a script the keys its verb does not read (they never changed
    the rules); (move index, keys taken out) for each move that had some. What is malformed
    (an unknown game or verb, a move that is no object) is left for ``parse_script`` and the
    referee to refuse."""
    dropped: list[tuple[int, list[str]]] = []
    name = script.get("game") if isinstance(script, dict) else None
    moves = script.get("moves") if isinstance(script, dict) else None
    if name not in available_games() or not isinstance(moves, list):
        return dropped
    game = get_game(name)
    for index, move in enumerate(moves):
        if not isinstance(move, dict) or not isinstance(move.get("do"), str):
            continue
        if move["do"] not in game.moves:
            continue
        extra = undeclared_fields(game, move)
        for key in extra:
            del move[key]
        if extra:
            dropped.append((index, extra))
    return dropped


def holds_nul(value: Any) -> bool:
    """Whether a NUL character hides in any text of a JSON value (a key included): PostgreSQL
    cannot store one, so no engine is given one to store."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


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


class _NotANumber(ValueError):
    pass


def _finite(raw: str) -> float:
    value = float(raw)
    if value in (float("inf"), float("-inf")):
        raise _NotANumber(raw)
    return value


def _no_constant(raw: str) -> Any:
    raise _NotANumber(raw)


def _inspect(value: Any) -> tuple[int, bool]:
    """How deep ``value`` nests objects and lists (1 for a flat list; counting stops past
    MAX_JSON_DEPTH), and whether a text in it (a key included) holds a lone surrogate, which
    a JSON escape (``"\\ud800"``) can spell but no UTF-8 text, page or database can hold.
    Counted without recursion."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return deepest, True
            continue
        if isinstance(item, dict):
            children = [*item.keys(), *item.values()]
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_JSON_DEPTH:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest, False


class NotJSON(BadScript):
    """``load_json``'s refusal of text that is no JSON at all (bad syntax), apart from JSON
    that is refused for its depth, its numbers or its text: a form that also takes plain
    words (the lab's NAME=VALUE lines) keeps those, and refuses the rest."""


def load_json(text: str | bytes) -> Any:
    """JSON from someone we do not trust (a file, a form, a request body): its value, or
    BadScript with a sentence, never another exception. Refused besides bad syntax: text
    that is not UTF-8, NaN and Infinity (and numbers too large for a float), integers longer
    than Python reads (``sys.get_int_max_str_digits``), nesting deeper than
    MAX_JSON_DEPTH (the parser's own recursion limit included)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise BadScript(N_("This is not UTF-8 text.")) from None
    text = text.removeprefix("\ufeff")  # a byte order mark some editors write
    try:
        value = json.loads(text, parse_float=_finite, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise NotJSON(
            N_("This is not valid JSON: {msg} (line {lineno})."),
            msg=exc.msg,
            lineno=exc.lineno,
        ) from None
    except _NotANumber as exc:
        raise BadScript(
            N_("{number} is not a number JSON can hold."), number=str(exc)[:40]
        ) from None
    except ValueError:  # an integer longer than Python reads
        raise BadScript(
            N_("A number is too long to read (more than {digits} digits)."),
            digits=sys.get_int_max_str_digits(),
        ) from None
    except RecursionError:
        depth, broken = MAX_JSON_DEPTH + 1, False
    else:
        depth, broken = _inspect(value)
    if depth > MAX_JSON_DEPTH:
        raise BadScript(N_("The JSON nests more than {depth} levels deep."), depth=MAX_JSON_DEPTH)
    if broken:
        raise BadScript(N_("This is not UTF-8 text."))
    return value
