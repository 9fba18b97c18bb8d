"""Impressions as a designer reads them: every written answer gathered in one place,
filterable by player count and ruleset version, beside each rating's distribution (how many
gave 1, 2, ... 5; not only the mean).

Plain functions over the report rows of ``service.entries_for`` (no query here). Those rows
are already read through the viewer's labels: in a report shared without the names each
player is a label, so a name appears only where the table shared it. An external report's
answers come from a public form with no table to share names: they are shown without one.
"""

from __future__ import annotations

from typing import Any

from games.playtests.models import FREE_TEXTS, RATINGS

SCALE = (1, 2, 3, 4, 5)


def _whole(raw: Any) -> int | None:
    try:
        return int(str(raw))
    except (TypeError, ValueError):
        return None


def choices(entries: list[dict[str, Any]]) -> dict[str, list]:
    """The player counts and ruleset versions the answers can be filtered by."""
    with_answers = [e for e in entries if e.get("impressions")]
    players = sorted({e["players"] for e in with_answers if e.get("players")})
    rulesets = sorted(
        {(e["ruleset_id"], e["ruleset"]) for e in with_answers if e.get("ruleset_id")},
        key=lambda pair: pair[1],
    )
    return {"players": players, "rulesets": rulesets}


def gathered(entries: list[dict[str, Any]], query: Any) -> dict[str, Any]:
    """The answers and the ratings' distributions of the entries that match ``query``
    (a QueryDict or dict: ``players`` and ``ruleset``, each optional)."""
    players = _whole(query.get("players"))
    ruleset = _whole(query.get("ruleset"))
    chosen = [
        e
        for e in entries
        if (players is None or e.get("players") == players)
        and (ruleset is None or e.get("ruleset_id") == ruleset)
    ]
    answers = []
    counts = {key: dict.fromkeys(SCALE, 0) for key, _label in RATINGS}
    total = 0
    for entry in chosen:
        for impression in entry.get("impressions") or []:
            total += 1
            for key, _label in RATINGS:
                value = impression.get(key)
                if value in counts[key]:
                    counts[key][value] += 1
            texts = [(label, impression[key]) for key, label in FREE_TEXTS if impression.get(key)]
            if texts:
                answers.append(
                    {
                        "who": impression.get("player") if entry["kind"] == "table" else "",
                        "date": entry.get("date", ""),
                        "ruleset": entry.get("ruleset") or entry.get("draft", ""),
                        "players": entry.get("players"),
                        "texts": texts,
                    }
                )
    answers.sort(key=lambda a: a["date"], reverse=True)
    distributions = []
    for key, label in RATINGS:
        row = counts[key]
        n = sum(row.values())
        most = max(row.values()) or 1
        distributions.append(
            {
                "key": key,
                "label": label,
                "n": n,
                "mean": sum(v * c for v, c in row.items()) / n if n else None,
                "most": most,
                "bars": [{"value": v, "count": c} for v, c in row.items()],
            }
        )
    return {
        "impressions": total,
        "answers": answers,
        "distributions": distributions,
        "players_chosen": players,
        "ruleset": ruleset,
        "scale": SCALE,
        **choices(entries),
    }
