"""The step-by-step reveal of a judged turn: how far the table has opened it, and what the
pages may show meanwhile.

The referee judges a turn the moment its last answer comes in, so its state already holds the
new scores. The table reveals the result one step at a time: until a step is opened nothing
it gave (a pick, a match, a point, a red card, the set bonus, the winner) may show on any page.
The log and the referee stay as they are; the hiding is a filter over what the pages show
(:func:`shown_view`, :func:`shown_narrative`), driven by one piece of table state kept on the
server (``RevealProgress``), so the projector and every screen show the same step and a reload
keeps it. That state changes in one place only: :func:`open_step`.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.db import transaction
from django.dispatch import Signal

from games.amnesia_stories.models import RevealProgress
from games.amnesia_stories.rules.scoring import judge_step
from games.models import Table
from games.services import writing

# Sent (sender=Table) inside the transaction that opens a step, for whatever keeps a table's
# version (live updates): kwargs table, turn (its number), opened (steps open now).
step_opened = Signal()

# The judged turn stays on screen until the next bard tells (for good at the end).
REVEAL_PHASES = ("tell", "deal", "ended")


def on_screen(seen: dict[str, Any]) -> dict[str, Any] | None:
    """The judged turn the table page shows a reveal of, or None."""
    last = seen.get("last_turn")
    if last is None or seen.get("phase") not in REVEAL_PHASES:
        return None
    return last


def step_count(turn: dict[str, Any]) -> int:
    """The reveal's steps: one per step of the story, then the turn's total (the set bonus)."""
    return len(turn["story"]) + 1


def fingerprint(turn: dict[str, Any]) -> str:
    """What identifies one judging of a turn: an undo and a different judging start afresh."""
    raw = json.dumps(
        {"turn": turn["turn_number"], "story": turn["story"], "picks": turn["picks"]},
        sort_keys=True,
    )
    return hashlib.sha256(raw.encode()).hexdigest()


def opened(table: Table, turn: dict[str, Any] | None) -> int:
    """How many steps of ``turn``'s reveal the table has opened (0 for none or no turn)."""
    if turn is None:
        return 0
    row = (
        RevealProgress.objects.filter(table=table, turn=turn["turn_number"])
        .values_list("judged", "opened")
        .first()
    )
    if row is None or row[0] != fingerprint(turn):
        return 0
    return min(row[1], step_count(turn))


@transaction.atomic
def open_step(table: Table, turn: dict[str, Any], step: int) -> int:
    """Open ``turn``'s reveal up to ``step`` (1-based; the last is the turn's total) and
    return how many steps are open.

    The one write of the reveal's state. Opening is "at least up to": a second press of the
    same button (two phones, a resend) opens nothing more, and a step is never closed again.
    """
    total = step_count(turn)
    step = max(0, min(int(step), total))
    judged = fingerprint(turn)
    row, _created = RevealProgress.objects.select_for_update().get_or_create(
        table=table, turn=turn["turn_number"], defaults={"judged": judged}
    )
    if row.judged != judged:  # the turn was undone and judged again: a new reveal
        row.judged, row.opened = judged, 0
        row.save(update_fields=["judged", "opened", "updated_at"])
    if step > row.opened:
        row.opened = step
        row.save(update_fields=["opened", "updated_at"])
        writing.bump_version(table)  # every screen that follows the table opens it too
        step_opened.send(Table, table=table, turn=turn["turn_number"], opened=row.opened)
    return row.opened


# -- what may be shown ---------------------------------------------------------------------
def step_results(
    turn: dict[str, Any], options: dict[str, Any]
) -> list[tuple[dict[str, int], dict[str, int], str]]:
    """Each step's ``(gains, red cards, outcome)``, from the referee's own ``judge_step``."""
    picks = turn["picks"]
    last = len(turn["story"]) - 1
    return [
        judge_step(options, turn["bard"], {p: picks[p][i] for p in picks}, climax=i == last)
        for i in range(len(turn["story"]))
    ]


def shown_so_far(
    turn: dict[str, Any], options: dict[str, Any], count: int
) -> tuple[dict[str, int], dict[str, int]]:
    """The VP and red cards of the first ``count`` opened steps (the whole turn once its
    total is open)."""
    if count >= step_count(turn):
        return dict(turn["gains"]), dict(turn["red_cards"])
    gains = dict.fromkeys(turn["picks"], 0)
    reds = dict.fromkeys(turn["picks"], 0)
    for step_gains, step_reds, _outcome in step_results(turn, options)[:count]:
        for p in gains:
            gains[p] += step_gains.get(p, 0)
            reds[p] += step_reds.get(p, 0)
    return gains, reds


def progress(seen: dict[str, Any], count: int) -> dict[str, Any] | None:
    """The reveal under way (``{"turn", "opened", "total"}``), or None when every step is
    open or no reveal is on screen."""
    turn = on_screen(seen)
    if turn is None or count >= step_count(turn):
        return None
    return {"turn": turn["turn_number"], "opened": count, "total": step_count(turn)}


def shown_view(seen: dict[str, Any], count: int) -> dict[str, Any]:
    """``seen`` as the pages may show it while the reveal is at ``count`` steps: the scores,
    red cards, the turn's row of points, the penalty and the winners hold only what the
    opened steps gave. ``seen["revealing"]`` says how far the reveal is (None once done)."""
    under_way = progress(seen, count)
    if under_way is None:
        return {**seen, "revealing": None}
    turn = seen["last_turn"]
    # Only what changes below is copied (history's rows are shared, they are final).
    seen = {
        **seen,
        **{key: dict(seen[key]) for key in ("vp", "red_cards", "penalty") if key in seen},
    }
    gains, reds = shown_so_far(turn, seen["options"], count)
    for p in seen["seats"]:
        hidden_vp = turn["gains"].get(p, 0) - gains.get(p, 0)
        hidden_red = turn["red_cards"].get(p, 0) - reds.get(p, 0)
        # The end-of-game penalty came after this turn's red cards: take it back first.
        seen["vp"][p] += seen["penalty"].get(p, 0) - hidden_vp
        seen["red_cards"][p] -= hidden_red
        seen["penalty"][p] = 0
    seen["winners"] = []
    history = seen["history"]
    # The turn under reveal is the last judged one (history's last row).
    start = len(history) - 1 if history and history[-1]["turn_number"] == turn["turn_number"] else 0
    seen["history"] = history[:start] + [
        {**t, "gains": gains, "red_cards": reds, "partial": True, "picks": {}}
        if t["turn_number"] == turn["turn_number"]
        else t
        for t in history[start:]
    ]
    # What the reveal itself shows comes from the opened steps only (page.reveal).
    seen["last_turn"] = {
        "turn_number": turn["turn_number"],
        "bard": turn["bard"],
        "story": list(turn["story"]),
    }
    seen["revealing"] = under_way
    return seen


def shown_narrative(
    entries: list[dict[str, Any]], turn: dict[str, Any] | None, count: int
) -> list[dict[str, Any]]:
    """The narrative's entries with the turn under reveal judged only as far as it is open:
    its picks cut to the opened steps, no gains until its total is open."""
    if turn is None or count >= step_count(turn):
        return entries
    out = []
    for entry in entries:
        if entry.get("turn") == turn["turn_number"] and entry.get("judged"):
            entry = {
                **entry,
                "judged": False,
                "revealing": True,
                "picks": {p: list(v[:count]) for p, v in (entry.get("picks") or {}).items()},
                "gains": None,
                "red_cards": None,
            }
        out.append(entry)
    return out
