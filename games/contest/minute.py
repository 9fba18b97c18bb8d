"""The narrator's minute, kept strictly: a setting of the table, outside the referee's script.

The seed gives the narrator "at least a minute" before others may take the story, and says
exact timing is not necessary: the table judges. So by default the pages only count down (the
laptop and every phone), and a phone asks before taking control early. A table may instead
choose to have the server refuse a take before the minute is up, with the time left in the
sentence: ``Table.extra[KEY] == STRICT`` (made on the new-table form).

The referee reads no clock and its options are closed (``shared/referee``), so the setting is
not an option of the rules: the write path enforces it (``GameKit.table_guard``, called by
``games.services.writing.play_many``) from the moves' stored times, counted as the pages count them
(``games.contest.clock``, contests left out). It rides in the script only as an informational
key (an export says how the table was played; the rules ignore it).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.contest import page
from games.models import Table
from games.rules import IllegalMove
from games.rules.errors import N_
from games.services import reading

KEY = "narrator_minute"
STRICT = "strict"


def is_strict(table: Table) -> bool:
    return (table.extra or {}).get(KEY) == STRICT


def clock_text(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def time_left(table: Table, state: dict[str, Any]) -> int:
    """Seconds of the narrator's minute still to run (0: others may take control)."""
    info = page.control_info(state, reading.story_facts(table))
    return 0 if info is None or info["open"] else int(info["remaining"])


def guard(table: Table, state: dict[str, Any], moves: list[Any], now: datetime) -> None:
    """Refuse a take of control before the narrator's minute is up, at a strict table."""
    if not is_strict(table):
        return
    if not any(isinstance(m, dict) and m.get("do") == "take_control" for m in moves):
        return
    left = time_left(table, state)
    if left > 0:
        raise IllegalMove(
            "rule_violation",
            N_(
                "The narrator’s minute is not up ({left} left): at this table nobody takes "
                "control before it is."
            ),
            left=clock_text(left),
        )
