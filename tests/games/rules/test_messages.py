"""The referee's error messages are translatable templates.

The referee cannot import Django, so IllegalMove and BadScript carry an English template
marked with ``N_`` and named parameters; the page translates the template
(``games.messages.referee_message``) and ``exc.message`` stays English.
"""

from __future__ import annotations

import ast
import json
import string
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from games import messages as referee_messages
from games import registry
from games.contest.rules.checks import _fail
from games.messages import referee_message
from games.models import Table
from games.rules import BadScript, IllegalMove
from games.rules.errors import N_
from games.rules.script import parse_script, replay, replay_script

GAMES = Path(__file__).resolve().parents[3] / "games"
SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
ERROR_CLASSES = {"IllegalMove": 1, "BadScript": 0, "_fail": 1}  # name -> template position


def _error_calls():
    """Every call of IllegalMove, BadScript or _fail in the referees (the framework in
    games/rules and each registered game's rules), with its file."""
    paths = set((GAMES / "rules").glob("*.py"))
    for kit in registry.kits():
        module = Path(sys.modules[type(kit.referee).__module__].__file__)
        paths |= set(module.parent.glob("*.py")) if module.name == "__init__.py" else {module}
    for path in sorted(paths):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in ERROR_CLASSES:
                yield path.relative_to(GAMES).as_posix(), node, ERROR_CLASSES[name]


def _fields(template: str) -> set[str]:
    """The parameter names a str.format template uses ('{a.b[0]!r}' -> 'a')."""
    names = set()
    for _text, field, _spec, _conv in string.Formatter().parse(template):
        if field is not None:
            names.add(field.split(".")[0].split("[")[0])
    return names


# -- (a) the source: every message is an N_() template with its parameters -----------------
def test_every_referee_error_passes_an_n_marked_template():
    calls = list(_error_calls())
    assert len(calls) > 150, "the referee raises many errors; the check found too few"
    problems = []
    for filename, node, position in calls:
        where = f"{filename}:{node.lineno}"
        if len(node.args) <= position:
            problems.append(f"{where}: no message")
            continue
        arg = node.args[position]
        if not (
            isinstance(arg, ast.Call)
            and isinstance(arg.func, ast.Name)
            and arg.func.id == "N_"
            and len(arg.args) == 1
            and not arg.keywords
            and isinstance(arg.args[0], ast.Constant)
            and isinstance(arg.args[0].value, str)
        ):
            problems.append(f'{where}: the message is not N_("a string literal")')
            continue
        if any(kw.arg is None for kw in node.keywords):
            problems.append(f"{where}: parameters must be named, not **unpacked")
            continue
        template = arg.args[0].value
        given = {kw.arg for kw in node.keywords} - {"index"}
        try:
            used = _fields(template)
        except ValueError as exc:
            problems.append(f"{where}: {template!r} is not a str.format template ({exc})")
            continue
        if "" in used:
            problems.append(f"{where}: {template!r} has a positional {{}}; name it")
        if used != given:
            problems.append(f"{where}: {template!r} uses {sorted(used)}, given {sorted(given)}")
    assert not problems, "\n".join(problems)


def test_fail_is_illegal_move_by_a_short_name():
    assert _fail is IllegalMove


def test_n_returns_its_text():
    assert N_("It is {turn}'s turn.") == "It is {turn}'s turn."


def test_a_plain_message_still_works():
    exc = IllegalMove("bad_argument", "Already written, {braces} and all.")
    assert exc.message == str(exc) == "Already written, {braces} and all."
    assert exc.template == exc.message and exc.params == {}
    assert exc.as_dict() == {"code": "bad_argument", "message": exc.message}
    bad = BadScript("Plain.", 3)
    assert (bad.message, bad.template, bad.params, bad.index) == ("Plain.", "Plain.", {}, 3)


def test_a_template_is_filled_in_english():
    exc = IllegalMove("not_your_turn", N_("It is {turn}'s turn, not {by}'s."), turn="Ana", by="Bo")
    assert exc.message == str(exc) == "It is Ana's turn, not Bo's."
    assert exc.template == "It is {turn}'s turn, not {by}'s."
    assert exc.params == {"turn": "Ana", "by": "Bo"}
    bad = BadScript(N_("Unknown card code {code!r}."), 4, code="ZZ")
    assert (bad.message, bad.index, bad.params) == ("Unknown card code 'ZZ'.", 4, {"code": "ZZ"})
    with pytest.raises(ValueError):
        IllegalMove("no_such_code", N_("x"))


# -- (b) real errors: the golden scripts that end in an illegal move or a malformed script ---
def _failing_goldens() -> list[Path]:
    paths = []
    for path in sorted(SCRIPTS.glob("*/*.json")):
        if json.loads(path.read_text(encoding="utf-8"))["exit"] in (1, 2):
            paths.append(path)
    return paths


FAILING = _failing_goldens()


def _error_of(script) -> IllegalMove | BadScript:
    try:
        setup, moves = parse_script(script)
    except BadScript as exc:
        return exc
    result = replay(setup, moves)
    assert result.error is not None
    return result.error


def test_there_are_failing_golden_scripts():
    assert len(FAILING) >= 20


@pytest.mark.parametrize("path", FAILING, ids=[f"{p.parent.name}/{p.stem}" for p in FAILING])
def test_golden_errors_are_their_template_filled_in(path: Path):
    golden = json.loads(path.read_text(encoding="utf-8"))
    exc = _error_of(golden["script"])
    assert exc.code == golden["error"]["code"]
    assert exc.message == (exc.template.format(**exc.params) if exc.params else exc.template)
    assert exc.template, "every error carries a template"
    assert _fields(exc.template) == set(exc.params)
    # `referee replay` still prints the English message.
    code, out = replay_script(golden["script"])
    assert code == golden["exit"]
    assert out["error"]["message"] == exc.message


# -- (c) the web layer translates the template -----------------------------------------------
FAKE = {
    "It is {turn}'s turn, not {by}'s.": "Vez de {turn}, não de {by}.",
    "Move {index}: {error}": "Jogada {index}: {error}",
    "Unknown card code {code!r}.": "Carta desconhecida: {missing}.",  # a broken translation
}


@pytest.fixture
def fake_translation(monkeypatch):
    monkeypatch.setattr(referee_messages, "gettext", lambda text: FAKE.get(text, text))


def test_referee_message_uses_the_translation(fake_translation):
    exc = IllegalMove("not_your_turn", N_("It is {turn}'s turn, not {by}'s."), turn="Ana", by="Bo")
    assert referee_message(exc) == "Vez de Ana, não de Bo."
    assert exc.message == "It is Ana's turn, not Bo's."  # English stays English


def test_referee_message_translates_a_nested_error(fake_translation):
    inner = IllegalMove("not_your_turn", N_("It is {turn}'s turn, not {by}'s."), turn="A", by="B")
    outer = IllegalMove("not_your_turn", N_("Move {index}: {error}"), index=3, error=inner)
    assert outer.message == "Move 3: It is A's turn, not B's."
    assert referee_message(outer) == "Jogada 3: Vez de A, não de B."


def test_referee_message_falls_back_to_english(fake_translation):
    exc = BadScript(N_("Unknown card code {code!r}."), 0, code="ZZ")
    assert referee_message(exc) == "Unknown card code 'ZZ'."
    plain = IllegalMove("rule_violation", "No template {here}.")
    assert referee_message(plain) == "No template {here}."


def test_referee_message_without_a_translation_is_the_english_message():
    exc = IllegalMove("bad_argument", N_("'{key}' must be a whole number."), key="take")
    assert referee_message(exc) == exc.message == "'take' must be a whole number."


@pytest.mark.django_db
def test_the_move_page_shows_the_translated_message(gm_client, fake_translation):
    data = {
        "game": "amnesia",
        "players": "Ana\nBruno\nCaio",
        "deck_mode": "virtual",
        "opt_start_tokens": 10,
        "opt_token_cap": 10,
        "opt_pass_at_cap": "refuse",
        "opt_finale_factor": 1,
    }
    assert gm_client.post(reverse("games:table_new"), data).status_code == 302
    table = Table.objects.latest("pk")
    url = reverse("games:move", args=[table.pk])
    response = gm_client.post(url, {"by": "Bruno", "do": "continue", "expected_seq": 0})
    assert response.status_code == 400
    body = response.content.decode()
    assert "Vez de Ana, não de Bruno." in body
    assert "turn, not Bruno" not in body
    # the JSON route too
    response = gm_client.post(
        url,
        {"move": {"by": "Bruno", "do": "continue"}, "expected_seq": 0},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "not_your_turn",
        "message": "Vez de Ana, não de Bruno.",
    }
