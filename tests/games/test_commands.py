"""The referee command exactly as shared/referee/README.md says, and the demo loader."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games.models import Table
from games.services import new_tables, reading

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = {
    "game": "amnesia",
    "players": ["Ana", "Bruno"],
    "seed": 5,
    "moves": [
        {"by": "Ana", "do": "continue", "text": "Blood.", "at": "2026-01-02T20:00:00+00:00"},
        {"by": "Ana", "do": "end_scene", "at": "2026-01-02T20:03:00+00:00"},
    ],
}


def run_replay_process(script_text: str, *args: str) -> subprocess.CompletedProcess:
    """The command in its own process, reading standard input, with a database that does not
    answer: none is touched."""
    return subprocess.run(
        [sys.executable, "manage.py", "referee", "replay", "-", *args],
        input=script_text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none"},
        timeout=60,
    )


def run_replay(script_text: str, *args: str) -> subprocess.CompletedProcess:
    """The command in this process, standard input replaced, its exit status caught: what
    the tests below read of it (each process is half a second of CPU setting Django up; the
    test above runs it as a person does). Database-free tests: pytest-django refuses the
    database to them, as the process above has none."""
    out = StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", StringIO(script_text))
        try:
            call_command("referee", "replay", "-", *args, stdout=out)
            code = 0
        except SystemExit as exited:
            code = exited.code if isinstance(exited.code, int) else 1
    return subprocess.CompletedProcess(["referee", "replay", "-", *args], code, out.getvalue(), "")


def test_replay_legal_script_prints_the_state_and_exits_0():
    done = run_replay_process(json.dumps(SCRIPT))
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)
    assert state["turn"] == "Bruno" and state["bank"] == 1 and state["finished"] is False


def test_replay_illegal_move_exits_1_with_index_and_state_before():
    bad = dict(SCRIPT, moves=SCRIPT["moves"] + [{"by": "Ana", "do": "continue"}])
    done = run_replay(json.dumps(bad))
    assert done.returncode == 1
    out = json.loads(done.stdout)
    assert out["error"]["index"] == 2 and out["error"]["code"] == "not_your_turn"
    assert out["state"]["turn"] == "Bruno"


@pytest.mark.parametrize(
    "text, index",
    [
        ("{not json", None),
        (json.dumps({"game": "chess", "players": ["A", "B"]}), None),
        (json.dumps(dict(SCRIPT, moves=[{"by": "Ana", "do": "continue"}, 7])), 1),
    ],
)
def test_replay_malformed_script_exits_2(text, index):
    done = run_replay(text)
    assert done.returncode == 2
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "bad_script" and error["index"] == index and error["message"]


def test_replay_trace_and_player_view():
    done = run_replay(json.dumps(SCRIPT), "--trace", "--player", "Ana")
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == 3  # one state per move, then the final state
    assert all("rng" not in line for line in lines)


@pytest.mark.django_db
def test_export_then_import_gives_the_same_table(gm, tmp_path):
    table = new_tables.import_script(SCRIPT, gm)
    out = StringIO()
    # The operator's whole script: the table is in play, its virtual deck a secret otherwise.
    call_command("referee", "export", str(table.pk), "--with-secrets", stdout=out)
    exported = json.loads(out.getvalue())
    assert exported["moves"][0]["text"] == "Blood."
    assert exported["moves"][1]["at"].startswith("2026-01-02T20:03:00")
    path = tmp_path / "script.json"
    path.write_text(out.getvalue(), encoding="utf-8")
    out = StringIO()
    call_command("referee", "import", str(path), "--owner", "gm", stdout=out)
    copy = Table.objects.get(pk=int(out.getvalue()))
    assert reading.state_of(copy) == reading.state_of(table)
    assert reading.script_of(copy) == exported


@pytest.mark.django_db
def test_import_drops_fields_a_verb_does_not_read_and_says_which(gm, tmp_path):
    """An old export may hold keys the write path once stored; the rules never read them."""
    old = dict(SCRIPT, moves=[dict(SCRIPT["moves"][0], mood="grim", x=[1]), SCRIPT["moves"][1]])
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    out, err = StringIO(), StringIO()
    call_command("referee", "import", str(path), "--owner", "gm", stdout=out, stderr=err)
    table = Table.objects.get(pk=int(out.getvalue()))
    assert err.getvalue().strip() == "Move 0: dropped fields its verb does not read: mood, x"
    assert [m.payload for m in table.moves.all()] == [
        {"by": "Ana", "do": "continue"},
        {"by": "Ana", "do": "end_scene"},
    ]
    assert table.moves.first().text == "Blood."


@pytest.mark.django_db
@pytest.mark.parametrize(
    "raw, says",
    [
        ("[" * 50_000 + "]" * 50_000, "levels deep"),
        ('{"game": "amnesia", "seed": ' + "4" * 5000 + "}", "too long to read"),
        ('{"game": "amnesia", "players": ["Ana", "B\\u0000"]}', "NUL"),
        (b"\xff\xfe{}", "not UTF-8"),
    ],
)
def test_import_of_malformed_json_is_an_error_in_words(gm, tmp_path, raw, says):
    path = tmp_path / "bad.json"
    path.write_bytes(raw if isinstance(raw, bytes) else raw.encode())
    with pytest.raises(CommandError) as exc:
        call_command("referee", "import", str(path), "--owner", "gm", stdout=StringIO())
    assert says in str(exc.value)
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_demo_designer_puts_the_demo_user_in_the_designers_group():
    call_command("demo", "--designer", stdout=StringIO())
    assert (
        Table.objects.filter(owner__username="demo")
        .first()
        .owner.groups.filter(name="designers")
        .exists()
    )


def test_replay_of_deeply_nested_json_exits_2():
    done = run_replay("[" * 50_000 + "]" * 50_000)
    assert done.returncode == 2, done.stderr
    assert "levels deep" in json.loads(done.stdout)["error"]["message"]


@pytest.mark.django_db
def test_demo_loads_a_finished_and_an_ongoing_game_once():
    call_command("demo", stdout=StringIO())
    call_command("demo", stdout=StringIO())
    tables = Table.objects.filter(owner__username="demo", game="amnesia")
    assert tables.filter(status="finished").count() == 1
    assert tables.filter(status="active").count() == 1
    finished = tables.get(status="finished")
    # Anyone may log in as the demo user from the home page: it is no designer by default.
    assert not finished.owner.groups.exists()
    assert reading.state_of(finished)["room_flashback_told"] is True
    assert finished.moves.exclude(text="").count() >= 10


def test_simulate_on_a_database_never_migrated_says_so_in_a_sentence(tmp_path):
    """A fresh checkout's empty database: the rulesets cannot be read, and the command says
    what to do instead of a traceback."""
    result = subprocess.run(
        [sys.executable, "manage.py", "simulate", "amnesia", "--games", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "DATABASE_URL": f"sqlite:///{tmp_path / 'empty.sqlite3'}"},
        timeout=60,
    )
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "The database could not be read (no such table:" in result.stderr
    # Named as it is run here: the interpreter that ran it, from the checkout.
    python = Path(os.path.abspath(sys.executable))
    typed = python.relative_to(ROOT).as_posix() if python.is_relative_to(ROOT) else str(python)
    assert f"`{typed} manage.py migrate` first" in result.stderr
