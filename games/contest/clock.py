"""The narrator's clock: how long the controller has held the story, contests left out.

The seed gives the narrator about a minute before others may take the story, "minus the time it
takes to perform any contests": the clock stops from the challenge until the contest is over
(answered, played, paid for, healed) and runs again when the story goes on.

Every time it counts is a move's ``at``, which the server stamps when the move is stored, so a
reload, the projector and every phone compute the same remaining time; nothing of the clock
is added to the log, and an undo takes its stops back with its moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

# The phases of a contest under way: the narrator's clock stands still in them.
CONTEST_PHASES = frozenset({"response", "contest", "penalty", "heal"})


@dataclass(frozen=True)
class Clock:
    elapsed: float  # seconds of narration counted so far
    paused: bool  # a contest is being played: the clock stands still


def narration_time(
    since: int, phases: Sequence[str], times: Sequence[datetime], now: datetime
) -> Clock:
    """The time counted since move ``since`` gave the story its controller.

    ``phases[i]`` is the phase after live move ``i`` and ``times[i]`` when it was stored. The
    clock runs while the phase is not a contest's and stands still while it is.
    """
    elapsed = 0.0
    running_since: datetime | None = None if phases[since] in CONTEST_PHASES else times[since]
    for i in range(since + 1, len(phases)):
        in_contest = phases[i] in CONTEST_PHASES
        if running_since is not None and in_contest:
            elapsed += (times[i] - running_since).total_seconds()
            running_since = None
        elif running_since is None and not in_contest:
            running_since = times[i]
    if running_since is not None:
        elapsed += (now - running_since).total_seconds()
    return Clock(elapsed=max(0.0, elapsed), paused=running_since is None)
