"""Golden scripts: every file under tests/scripts/<game>/ is replayed and its outcome
compared with what the file expects. They pin the rules down across refactors.

File format::

    {
      "description": "what this script shows",
      "script": { ...a game script... },
      "exit": 0,                      # 0 legal, 1 illegal move, 2 malformed script
      "expected": {key: value, ...},  # for exit 0 and 1: each key equals the final state's
      "error": {"index": i, "code": CODE}  # for exit 1 and 2
    }
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.rules.script import replay_script

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
FILES = sorted(SCRIPTS.glob("*/*.json"))


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_golden_script(path: Path) -> None:
    golden = json.loads(path.read_text(encoding="utf-8"))
    code, out = replay_script(golden["script"])
    assert code == golden["exit"], out
    if code == 0:
        state = out
    else:
        want = golden["error"]
        assert out["error"]["code"] == want["code"], out["error"]
        assert out["error"]["index"] == want["index"], out["error"]
        assert out["error"]["message"], "every error carries a sentence for the table"
        state = out.get("state", {})
    for key, value in golden.get("expected", {}).items():
        assert key in state, f"{key} missing from the state"
        assert state[key] == value, f"{key}: {state[key]!r} != {value!r}"
    # Scripts replay exactly: a second replay gives the very same output.
    assert replay_script(golden["script"]) == (code, out)


def test_every_game_has_golden_scripts() -> None:
    from games import registry

    games = {p.parent.name for p in FILES}
    missing = {kit.slug for kit in registry.kits()} - games
    assert not missing, f"no golden scripts under tests/scripts/ for {sorted(missing)}"
