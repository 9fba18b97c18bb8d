"""Each referee declares the fields its verbs read (``Game.fields``): every field a handler
reads is declared, nothing declared goes unread, and the golden scripts' moves fit."""

from __future__ import annotations

import ast
import importlib
import json
from pathlib import Path
from types import ModuleType

import pytest

from games import registry
from games.rules import Field, Game, get_game
from games.rules.base import FIELD_KINDS

COMMON = {"by", "do", "text", "at"}
GAMES = tuple(kit.slug for kit in registry.kits())
SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _rules_modules(referee: Game) -> list[ModuleType]:
    """The modules of a referee: its module, or every module of its ``rules`` package."""
    module = importlib.import_module(type(referee).__module__)
    path = Path(module.__file__)
    if path.name != "__init__.py":
        return [module]
    return [module] + [
        importlib.import_module(f"{module.__name__}.{p.stem}")
        for p in sorted(path.parent.glob("*.py"))
        if p.name != "__init__.py"
    ]


def _strings(node: ast.AST, loops: dict[str, tuple[str, ...]]) -> set[str]:
    """The field names an argument spells: a string, a tuple of strings, or the variable of a
    loop over a module's tuple of names (``for attr in ATTRIBUTES: require_int(move, attr)``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.Tuple):
        return {e.value for e in node.elts if isinstance(e, ast.Constant)}
    if isinstance(node, ast.Name):
        return set(loops.get(node.id, ()))
    return set()


def _is_move(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "move"


def fields_read(module: ModuleType) -> set[str]:
    """Every field name the module reads from a ``move``: ``move.get("x")``, ``move["x"]``,
    ``"x" in move``, and a helper given the move and then the name (``_text(move, "x")``)."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    loops: dict[str, tuple[str, ...]] = {}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.For)
            and isinstance(node.target, ast.Name)
            and isinstance(node.iter, ast.Name)
        ):
            values = getattr(module, node.iter.id, None)
            if isinstance(values, tuple) and all(isinstance(v, str) for v in values):
                loops[node.target.id] = values
    read: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and _is_move(func.value) and func.attr == "get":
                read |= _strings(node.args[0], {})
                continue
            for i, arg in enumerate(node.args[:-1]):
                if _is_move(arg):
                    read |= _strings(node.args[i + 1], loops)
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Load)
            and _is_move(node.value)
        ):
            read |= _strings(node.slice, {})
        elif isinstance(node, ast.Compare) and any(_is_move(c) for c in node.comparators):
            if isinstance(node.ops[0], ast.In):
                read |= _strings(node.left, {})
    return read - COMMON


def declared(referee: Game) -> set[str]:
    return {name for fields in referee.fields.values() for name in fields}


@pytest.mark.parametrize("name", GAMES)
def test_every_field_a_handler_reads_is_declared_and_nothing_more(name: str) -> None:
    referee = get_game(name)
    read = set().union(*(fields_read(m) for m in _rules_modules(referee)))
    assert read, "the scan found no field at all: it no longer understands the handlers"
    assert read - declared(referee) == set(), "read by a handler but not declared"
    assert declared(referee) - read == set(), "declared but read by no handler"


@pytest.mark.parametrize("name", GAMES)
def test_declarations_name_real_verbs_and_kinds(name: str) -> None:
    referee = get_game(name)
    assert set(referee.fields) <= set(referee.moves)
    for verb, fields in referee.fields.items():
        assert not COMMON & set(fields), verb
        for field in fields.values():
            assert isinstance(field, Field)
            assert field.kind in FIELD_KINDS
    # a field holding card codes is declared as a card (and the other way round)
    cards = {n for fields in referee.fields.values() for n, f in fields.items() if "card" in f.kind}
    assert cards == set(referee.card_fields)


def _golden_moves() -> list[tuple[str, str, dict]]:
    """(file, game, move) for every move a golden script plays before any refusal."""
    found = []
    for path in sorted(SCRIPTS.glob("*/*.json")):
        golden = json.loads(path.read_text(encoding="utf-8"))
        script = golden["script"]
        if not isinstance(script, dict) or not isinstance(script.get("moves"), list):
            continue
        moves = script["moves"]
        if golden["exit"] != 0:
            index = golden["error"]["index"]
            moves = moves[: index if index is not None else 0]
        found += [(path.stem, script["game"], m) for m in moves]
    return found


def test_every_field_of_a_golden_move_is_declared_for_its_verb_and_fits() -> None:
    moves = _golden_moves()
    assert {game for _, game, _ in moves} == set(GAMES)
    seen: set[tuple[str, str, str]] = set()
    for where, game, move in moves:
        verb = move["do"]
        fields = get_game(game).fields.get(verb, {})
        for key, value in move.items():
            if key in COMMON:
                continue
            assert key in fields, f"{where}: {verb} does not declare {key!r}"
            assert fields[key].fits(value), f"{where}: {verb}.{key} = {value!r}"
            seen.add((game, verb, key))
    # the scripts exercise a good part of the declarations, not only a few of them
    assert len(seen) >= 40


def test_a_field_checks_its_kind_and_limits() -> None:
    picks = Field("int_list", min=1, max=5, max_items=3)
    assert picks.fits([1, 5, 2])
    assert not picks.fits([1, 6])
    assert not picks.fits([1, True])
    assert not picks.fits([1, 2, 3, 4])
    assert not picks.fits("1")
    name = Field("str", max_length=3, choices=("abc", "x"))
    assert name.fits("x") and not name.fits("abcd") and not name.fits("y")
    assert not name.fits(None)
    assert Field("str", nullable=True).fits(None)
    assert Field("bool").fits(False) and not Field("bool").fits(0)
    with pytest.raises(ValueError):
        Field("float")
    with pytest.raises(ValueError):
        Field("str", blank="drop")
