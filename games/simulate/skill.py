"""How much a ruleset rewards playing well, and what each choice is worth.

- :func:`skill`: at one ruleset and player count, the edge of the search bot against
  ``sensible`` bots and of ``sensible`` against ``random`` bots (one strong seat, the rest
  weak, the strong seat turning round the table), each with its interval. The edge is the
  strong seat's share of the wins over its share of the seats (``win_edge``), or, in a game
  nobody wins, of what the kit says a seat plays for (``value_edge``). A game of chance shows
  none: the interval holds 0.
- :func:`restricted`: one seat forbidden one kind of move (``games.simulate.restrict``)
  against the unrestricted bots: its edge is the value of that choice. One whose restriction
  costs nothing measurable is *inert*; one whose restriction costs nearly every win is a
  *dominant line*, and the unrestricted bots' dominance is a rule hole with its replayable
  script (``holes.dominance``, with the false-discovery correction).

Pure, like the rest of ``games.simulate``: the lab and the bench call it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from games.simulate import figures as F
from games.simulate import holes
from games.simulate.engine import Spec, run

PAIRS = (("search", "sensible"), ("sensible", "random"))


def edge(records: list[dict[str, Any]], bot: str, seed: int) -> dict[str, Any]:
    """The bot's edge over the table, with its interval and the figure's name."""
    summary = F.summarize(records, seed)
    for name in (f"bot.{bot}.win_edge", f"bot.{bot}.value_edge"):
        if name in summary:
            return {"figure": name, **summary[name]}
    return {"figure": None, "n": 0, "value": None}


def verdict(figure: dict[str, Any]) -> str:
    """ "skill" (the strong seat does better: the interval above 0), "none" (0 within it),
    "worse" (below 0) or "unknown" (too few games for an interval)."""
    if "low" not in figure:
        return "unknown"
    if figure["low"] > 0:
        return "skill"
    if figure["high"] < 0:
        return "worse"
    return "none"


def skill(base: Spec, processes: int = 1, budget: float | None = None) -> dict[str, Any]:
    """{"search": edge of search over sensible, "sensible": of sensible over random}, each
    with its ``verdict``."""
    out = {}
    for strong, weak in PAIRS:
        spec = dataclasses.replace(base, bots=[strong] + [weak] * (base.players - 1))
        result = run(spec, processes, budget)
        figure = edge(result.records, strong, base.seed)
        out[strong] = {**figure, "against": weak, "verdict": verdict(figure)}
    return out


RESTRICTED = "restricted"


def restricted(
    base: Spec,
    rule: dict[str, Any],
    bot: str = "sensible",
    processes: int = 1,
    budget: float | None = None,
    ruleset: str = "",
) -> dict[str, Any]:
    """One seat's ``bot`` forbidden ``rule`` ({"verb", "field", "value"}) against unrestricted
    ``bot``s: its edge, and whether the choice is ``inert`` (the interval holds 0),
    ``dominant`` (the restricted seat almost never wins: the unrestricted bots' dominance,
    corrected for false discoveries, with a script) or of some ``value`` (the edge)."""
    spec = dataclasses.replace(
        base,
        bots=[RESTRICTED] + [bot] * (base.players - 1),
        restricted={RESTRICTED: {"bot": bot, **rule}},
        keep_scripts=max(base.keep_scripts, base.games),
    )
    result = run(spec, processes, budget)
    figure = edge(result.records, RESTRICTED, base.seed)
    kind = "value"
    found: list[dict[str, Any]] = []
    if verdict(figure) == "none":
        kind = "inert"
    elif figure["figure"] and figure["figure"].endswith("win_edge") and "high" in figure:
        fair = 1 / base.players
        flagged = [f for f in holes.dominance(result.records, ruleset) if f["bot"] == bot]
        if figure["high"] < -fair / 2 and flagged:
            kind = "dominant"
            found = [{**f, "restriction": rule} for f in flagged]
    return {**figure, "rule": rule, "kind": kind, "holes": found}
