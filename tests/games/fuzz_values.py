"""The fuzz test's hostile values (tests/games/test_fuzz.py, bench/fuzz.py): values no field
of any move may hold, JSON text no move can be, and a move, a form or a script broken with
them from a seeded generator."""

from __future__ import annotations

import json
import random
from typing import Any

SEED = 16
ROUNDS = 24  # bodies per endpoint
PLAYERS = ["Ana", "Bruno", "Caio"]
DEEP = "[" * 50_000 + "]" * 50_000
HUGE_NUMBER = "9" * 5000

# Values no field of any move may hold (none of them is a seat's name, a verb, a legal pick,
# a card or a count a move could take).
HOSTILE: list[Any] = [
    None,
    True,
    [],
    {},
    ["a", ["b", ["c"]]],
    {"$gt": ""},
    -1,
    2**70,
    3.5,
    "",
    "\x00",
    "Ana\x00",
    "x" * 70_000,
    "<script>alert(1)</script>",
    "'; DROP TABLE games_move; --",
    "%s%s%n",
    "\u202eoverride",
]
# Values no declared field takes: of no kind a field has, or beyond every field's limits.
MISFITS: list[Any] = [[["x"]], {"$gt": ""}, -1, 2**70, 3.5, "\x00", "x" * 70_000, ["a", ["b"]]]
# JSON text that is no JSON a move or a script can be (spliced in as a raw value).
RAW_VALUES = [DEEP, HUGE_NUMBER, "-" + HUGE_NUMBER, "1e999", "NaN", "-Infinity", '"\\ud800"']


def hostile(rng: random.Random) -> Any:
    if rng.random() < 0.05:
        return "y" * rng.choice((300_000, 1_000_000))  # huge, but under the body limit
    return rng.choice(HOSTILE)


def hostile_text(rng: random.Random) -> str:
    """Form text no field may hold: a NUL, more than any limit, or nothing at all."""
    return rng.choice(["\x00", "a\x00b", "x" * 25_000, ""])


def unknown_key(rng: random.Random) -> str:
    return rng.choice(["junk", "colour", "_malformed", "__proto__", "x" * 500, "k\x00", "é"])


def to_json(rng: random.Random, value: Any) -> bytes:
    """``value`` as JSON, then sometimes broken as text: a raw value spliced in, bytes that
    are not UTF-8, a cut, a byte order mark."""
    text = json.dumps(value, allow_nan=True)
    roll = rng.random()
    if roll < 0.25:
        raw = rng.choice(RAW_VALUES)
        text = text.replace("null", raw, 1) if "null" in text else f'{{"move": {raw}}}'
    elif roll < 0.35:
        return text.encode()[: rng.randrange(1, max(2, len(text)))]
    elif roll < 0.45:
        return b"\xff\xfe" + text.encode("utf-16-le")
    elif roll < 0.5:
        return text.encode("latin-1", "replace") + b"\xe9\x80"
    return text.encode()


def break_move(rng: random.Random, move: dict, mutations: tuple[str, ...]) -> dict:
    """``move`` broken one to three times by ``mutations`` (each one alone is refused)."""
    move = dict(move)
    for name in rng.sample(mutations, rng.randint(1, min(3, len(mutations)))):
        if name == "unknown":
            move[unknown_key(rng)] = hostile(rng)
        elif name == "null_field":  # a raw value (to_json) lands where the null is
            move[unknown_key(rng)] = None
        elif name in ("by", "do"):
            value = hostile(rng)
            move[name] = value if value is not None else ""
        elif name == "text":
            move["text"] = rng.choice([5, [], {}, "\x00", "t" * 25_000, True])
        elif name == "at":
            move["at"] = rng.choice(["yesterday", "2026-13-45T00:00:00", 12, [], "\x00"])
        else:  # a declared field of the move, of the wrong kind or out of its range
            move[name] = rng.choice(MISFITS)
    return move


def break_form(rng: random.Random, data: dict, mutations: tuple[str, ...]) -> dict:
    data = dict(data)
    for name in rng.sample(mutations, rng.randint(1, min(3, len(mutations)))):
        if name == "unknown":
            data[unknown_key(rng).replace("\x00", "")] = rng.choice(["1", "x" * 70_000, "\x00"])
        elif name == "move":
            data["move"] = rng.choice(
                [DEEP, HUGE_NUMBER, "NaN", "[1]", '"x"', "{", '{"do": "\\ud800"}']
            )
        elif name == "client_id":
            data["client_id"] = rng.choice(["has space", "x" * 65, "\x00", "é" * 3])
        elif name == "expected_turn":
            data["expected_turn"] = rng.choice(["t" * 101, "answer/0", "nope"])
        elif name == "expected_seq":
            data["expected_seq"] = rng.choice(["99", "-5", "x", HUGE_NUMBER])
        elif name == "text":
            data["text"] = rng.choice(["\x00", "x" * 25_000])
        elif name == "name":  # any short text is a name: only text no name may be
            data[name] = hostile_text(rng)
        else:  # a number field (or a seat's name, a verb): none of these is one
            numbers = ["abc", "-1", "99", HUGE_NUMBER, "1.5", "\x00", "[]"]
            data[name] = hostile_text(rng) if rng.random() < 0.5 else rng.choice(numbers)
    return data
