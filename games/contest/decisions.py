"""What the game master's page offers each player, built from the legal moves (never a hand):
each player's row, who may take control and how, the challenge, the contest board, the
response, the debts, the joker swap, healing and the votes, each with the buttons' moves.
"""

from __future__ import annotations

import json
from typing import Any

from games.contest.cards import attribute_info, card
from games.contest.story import contest_sides, out_label, penalty_label


def _choices(verbs: dict[str, Any], verb: str, field: str) -> list[Any]:
    return verbs.get(verb, {}).get("choices", {}).get(field, [])


def _penalty_buttons(by: str, verb: str, verbs: dict[str, Any], words: dict) -> list[dict]:
    """One button per legal penalty (or mix of penalties) of a refusal, forfeit or stay."""
    return [
        {
            "value": mix,
            "json": _json({"by": by, "do": verb, "penalty": mix}),
            "label": penalty_label(mix, words),
            "cards": "card" in ([mix] if isinstance(mix, str) else mix),
        }
        for mix in _choices(verbs, verb, "penalty")
    ]


def players(view: dict, public: dict, names: dict, out_reasons: dict[str, Any]) -> list[dict]:
    options = view["options"]
    contest = view.get("contest") or {}
    owed = view.get("owed") or {}
    rows = []
    for name in view["seats"]:
        p = view["players"][name]
        attrs = p.get("attributes") or {}
        rows.append(
            {
                "name": name,
                "who": names[name],
                "character": p.get("character"),
                "attributes": [attribute_info(a, attrs[a]) for a in attrs],
                "hand_count": p["hand_count"],
                "hand_limit": p["hand_limit"],
                "lost": [card(c) for c in p["lost"]],
                "drinks": p["drinks"],
                "pretzels": p["pretzels"],
                "pretzel_limit": options["pretzel_limit"],
                "eaten": p["eaten"],
                "eat_limit": max(6, options["eat_limit"]) if p.get("bfa") else options["eat_limit"],
                "bfa": p.get("bfa"),
                "out": p["out"],
                "out_reason": out_label(out_reasons.get(name)) if p["out"] else "",
                "controller": name == view.get("controller"),
                "contestant": name in (contest.get("challenger"), contest.get("defender")),
                "owes": owed.get(name, 0),
                "winner": name in view.get("winners", []),
                "eat_counts": _choices(public[name], "eat_pretzels", "count"),
                "needs_character": "character" in public[name],
            }
        )
    return rows


def takers(view: dict, public: dict, names: dict) -> list[dict]:
    """Who may take control now, and how (drinks, a face card, a plot card)."""
    rows = []
    for name in view["seats"]:
        ways = {k for k in public[name] if k.startswith("take_control")}
        if ways:
            rows.append(
                {
                    "name": name,
                    "who": names[name],
                    "drinks": "take_control_drinks" in ways,
                    "face_card": "take_control_face_card" in ways,
                    "plot_card": "take_control_plot_card" in ways,
                    "face_json": _json({"by": name, "do": "take_control", "with": "face_card"}),
                    "plot_json": _json({"by": name, "do": "take_control", "with": "plot_card"}),
                }
            )
    return rows


def challenge_form(view: dict, public: dict, names: dict) -> dict | None:
    controller = view.get("controller")
    challenge = public.get(controller or "", {}).get("challenge")
    if not challenge:
        return None
    return {
        "by": controller,
        "targets": [
            {"name": t, "who": names[t], "character": view["players"][t]["character"]}
            for t in challenge["choices"]["target"]
        ],
        "attributes": [attribute_info(a) for a in challenge["choices"]["attribute"]],
        "teams": view["options"]["teams"],
        "extended": view["options"]["extended_contests"],
        "others": [n for n in view["seats"] if not view["players"][n]["out"]],
    }


def board(view: dict, public: dict, names: dict, mode: str, words: dict) -> dict | None:
    """The contest under way: both sides, and what each contestant may still do."""
    contest = view.get("contest")
    if not contest:
        return None
    board = contest_sides(contest, view["players"], names, mode)
    for side in board["sides"]:
        verbs = public[side["name"]]
        side["can_play"] = "play" in verbs
        side["forfeit"] = _penalty_buttons(side["name"], "forfeit", verbs, words)
        side["play_json"] = _json({"by": side["name"], "do": "play"})
        side["give_up"] = "give_up" in verbs
    board["to_play"] = [s for s in board["sides"] if s["can_play"]]
    return board


def response(view: dict, public: dict, names: dict, words: dict) -> dict | None:
    contest = view.get("contest")
    if view["phase"] != "response" or not contest:
        return None
    defender = contest["defender"]
    verbs = public[defender]
    attrs = view["players"][defender]["attributes"] or {}
    return {
        "by": defender,
        "who": names[defender],
        "accept": [attribute_info(a, attrs.get(a)) for a in _choices(verbs, "accept", "attribute")],
        "refuse": _penalty_buttons(defender, "refuse", verbs, words),
        "forfeit": _penalty_buttons(defender, "forfeit", verbs, words),
    }


def debts(view: dict, public: dict, names: dict) -> list[dict]:
    return [
        {
            "name": name,
            "who": names[name],
            "count": count,
            "drink": "drink" in public.get(name, {}),
            "lose_card": "lose_card" in public.get(name, {}),
            "lose_json": _json({"by": name, "do": "lose_card"}),
        }
        for name, count in (view.get("owed") or {}).items()
    ]


def swap(view: dict, names: dict) -> dict | None:
    swap = view.get("swap")
    if not swap:
        return None
    return {
        "name": swap["player"],
        "who": names[swap["player"]],
        "joker": card(swap["joker"]),
        "json": _json({"by": swap["player"], "do": "swap_joker"}),
    }


def heal(view: dict, public: dict, names: dict) -> dict | None:
    contest = view.get("contest")
    if view["phase"] != "heal" or not contest:
        return None
    winner = contest.get("winner")
    return {
        "by": winner,
        "who": names.get(winner, winner),
        "choices": _choices(public.get(winner, {}), "heal", "choice"),
    }


def vote(view: dict, public: dict, names: dict, words: dict) -> dict | None:
    if view["phase"] != "vote" or not view.get("vote"):
        return None
    voter = view["vote"]["player"]
    return {
        "by": voter,
        "who": names[voter],
        "stay": _penalty_buttons(voter, "stay", public[voter], words),
        "leave": "leave" in public[voter],
    }


def penalties_shown(board: dict | None, response: dict | None, vote: dict | None) -> list[dict]:
    """Every penalty button of the page (a refusal's, a forfeit's, a stay's)."""
    buttons = [f for side in (board or {}).get("sides", []) for f in side["forfeit"]]
    buttons += (response or {}).get("refuse", []) + (response or {}).get("forfeit", [])
    return buttons + (vote or {}).get("stay", [])


def others(view: dict, names: dict, but: str) -> list[dict]:
    return [
        {"name": n, "who": names[n]}
        for n in view["seats"]
        if n != but and not view["players"][n]["out"]
    ]


def vote_off(view: dict, public: dict, names: dict) -> dict | None:
    controller = view.get("controller")
    if not controller or "vote_off" not in public.get(controller, {}):
        return None
    return {
        "by": controller,
        "targets": [
            {"name": t, "who": names[t]} for t in _choices(public[controller], "vote_off", "target")
        ],
        "voters": others(view, names, controller),
    }


def _json(value: Any) -> str:
    return json.dumps(value)
