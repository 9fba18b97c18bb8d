"""Every state a game passes through in its golden scripts (tests/scripts/<slug>/) and its kit's
demos, move by move: what the per-game view tests check each view against."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from games import registry
from games.rules.errors import IllegalMove
from games.rules.script import BadScript, parse_script, rules_part

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def states(slug: str) -> Iterator[dict[str, Any]]:
    kit = registry.kit(slug)
    scripts = [json.loads(p.read_text())["script"] for p in sorted((SCRIPTS / slug).glob("*.json"))]
    scripts += [s for _n, s in kit.demos(datetime(2026, 1, 2, tzinfo=UTC))]
    for script in scripts:
        try:
            setup, moves = parse_script(script)
        except BadScript:  # the malformed golden scripts, kept to test the refusals
            continue
        state = kit.referee.initial_state(setup)
        yield state
        for move in moves:
            try:
                state = kit.referee.apply(state, rules_part(move))
            except IllegalMove:  # a script that tests a refusal ends there
                break
            yield state
