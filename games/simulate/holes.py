"""Rule holes found in simulated plays, each naming its ruleset and carrying a script that
``manage.py referee replay`` reproduces.

- ``move_cap``: games that did not end within the move cap (the position where they stall);
- ``no_legal_move``: a position, before the end, where nobody has a legal move;
- ``everyone_waits``: every bot waited (a bot's hole rather than the rules', but shown);
- ``dominant``: a bot that wins far above its share of the seats against the others (a
  one-sided binomial test per bot, over the games with one winner);
- ``inert``: an option whose values change no figure beyond the equivalence margin (two
  one-sided tests per figure over the same seeds, paired by game).

Every family of p-values is corrected for multiple comparisons with SciPy's
``false_discovery_control`` (Benjamini–Hochberg) before anything is flagged.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.simulate import figures as F

ALPHA = 0.05


def adjusted(pvalues: list[float]) -> list[float]:
    if not pvalues:
        return []
    from scipy.stats import false_discovery_control  # SciPy: only when there are flags

    return [float(p) for p in false_discovery_control(pvalues)]


def stalls(records: list[dict[str, Any]], ruleset: str) -> list[dict[str, Any]]:
    """One finding per kind of stall: how many games, and the first one's script and
    position."""
    kinds = Counter(r["stall"]["kind"] for r in records if "stall" in r)
    found = []
    for kind, count in sorted(kinds.items()):
        first = next(r for r in records if r.get("stall", {}).get("kind") == kind)
        found.append(
            {
                "kind": kind,
                "ruleset": ruleset,
                "games": count,
                "of": len(records),
                "game_index": first["index"],
                "phase": first["stall"]["phase"],
                "last_moves": first["stall"]["last_moves"],
                "position": first["stall"]["position"],
                "script": first["script"],
            }
        )
    return found


def dominance(records: list[dict[str, Any]], ruleset: str) -> list[dict[str, Any]]:
    """Bots that win above their share of the seats (games with a single winner only),
    flagged after the FDR correction over every bot of the run."""
    single = [r for r in records if len(r["winner_bots"]) == 1]
    kinds = sorted({b for r in records for b in r["seat_bots"].values()})
    if len(kinds) < 2 or not single:
        return []
    from scipy.stats import binomtest  # SciPy: only when a run has a winner to test

    tests = []
    for bot in kinds:
        wins = sum(1 for r in single if r["winner_bots"][0] == bot)
        share = sum(list(r["seat_bots"].values()).count(bot) for r in single) / sum(
            len(r["seat_bots"]) for r in single
        )
        p = binomtest(wins, len(single), share, alternative="greater").pvalue
        tests.append((bot, wins, share, float(p)))
    found = []
    for (bot, wins, share, _p), q in zip(tests, adjusted([t[3] for t in tests]), strict=True):
        if q < ALPHA:
            example = next(r for r in single if r["winner_bots"][0] == bot)
            found.append(
                {
                    "kind": "dominant",
                    "ruleset": ruleset,
                    "bot": bot,
                    "wins": wins,
                    "games": len(single),
                    "fair_share": share,
                    "p_adjusted": q,
                    "game_index": example["index"],
                    "script": example.get("script"),
                }
            )
    return found


def differences(a: list[dict], b: list[dict]) -> dict[str, dict[str, Any]]:
    """For each figure both runs have: the paired differences (b - a) by game index."""
    by_index = {r["index"]: r for r in a}
    names = sorted(set(F.collect(a)) & set(F.collect(b)))
    out: dict[str, list[float]] = {}
    for name in names:
        diffs = []
        for rb in b:
            ra = by_index.get(rb["index"])
            va = F._value(ra, name) if ra is not None else None
            vb = F._value(rb, name)
            if va is not None and vb is not None:
                diffs.append(float(vb) - float(va))
        if diffs:
            out[name] = {"diffs": diffs, "baseline": [float(F._value(r, name) or 0) for r in a]}
    return out


def _tost(diffs: list[float], margin: float) -> float:
    """The p-value that the mean difference lies within ±margin (two one-sided t-tests)."""
    if all(d == 0 for d in diffs):
        return 0.0
    if len(diffs) < F.HANDFUL:
        return 1.0
    from scipy.stats import ttest_1samp  # SciPy: only when an option is probed

    if min(diffs) == max(diffs):
        return 0.0 if abs(diffs[0]) < margin else 1.0
    low = ttest_1samp(diffs, -margin, alternative="greater").pvalue
    high = ttest_1samp(diffs, margin, alternative="less").pvalue
    return float(max(low, high))


def margin_for(baseline: list[float], relative: float) -> float:
    """The equivalence margin of a figure: ``relative`` × its mean size in the baseline
    (at least 0.01 of a unit, so a figure that is 0 throughout has a margin)."""
    size = sum(abs(v) for v in baseline) / len(baseline) if baseline else 0.0
    return max(relative * size, 0.01)


def inert(
    option: str,
    value: Any,
    default: Any,
    base: list[dict],
    other: list[dict],
    ruleset: str,
    relative: float,
) -> dict[str, Any]:
    """Whether ``option`` set to ``value`` changes any figure beyond its margin, over the
    same seeds as the baseline; the result (a finding when ``inert`` is true)."""
    diffs = differences(base, other)
    names = list(diffs)
    margins = [margin_for(diffs[n]["baseline"], relative) for n in names]
    pvalues = [_tost(diffs[n]["diffs"], m) for n, m in zip(names, margins, strict=True)]
    qs = adjusted(pvalues)
    changed = [n for n, q in zip(names, qs, strict=True) if q >= ALPHA]
    example_a = next((r for r in base if r.get("script")), None)
    example_b = next((r for r in other if r.get("script")), None)
    return {
        "kind": "inert",
        "ruleset": ruleset,
        "option": option,
        "value": value,
        "default": default,
        "inert": bool(names) and not changed,
        "figures": len(names),
        "not_equivalent": changed,
        "margin": f"{relative:.0%} of each figure's mean (at least 0.01)",
        "games": len(other),
        "script": example_b["script"] if example_b else None,
        "baseline_script": example_a["script"] if example_a else None,
    }
