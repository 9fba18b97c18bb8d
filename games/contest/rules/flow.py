"""Contest: the course of one contest, from the played cards to the clean-up."""

from __future__ import annotations

from typing import Any

from games.contest.rules.core import (
    ATTR_SUIT,
    State,
    active,
    card_suit,
    discard,
    draw,
    draw_up,
    event,
    hand_count,
    label,
    labels,
    return_extended,
    side_total,
    table_cards,
    who,
)
from games.rules import cards as C
from games.rules.errors import N_, IllegalMove
from games.rules.plain import copy_plain


def side(state: State, leader: str) -> list[str]:
    """The leader's team (just the leader without teams), active members only."""
    contest = state["contest"]
    teams = contest.get("teams") if contest else None
    members = teams[leader] if teams else [leader]
    return [m for m in members if not state["players"][m]["out"]]


def other(contest: dict[str, Any], name: str) -> str:
    return contest["defender"] if name == contest["challenger"] else contest["challenger"]


def _lists(value: dict[str, list[str]] | None) -> dict[str, list[str]] | None:
    """A copy of a mapping of seats to lists of card codes or names (or None)."""
    return None if value is None else {name: list(items) for name, items in value.items()}


# What a contest's snapshot keeps, and how each part is copied, by what it holds: the
# contestants, the kind, the outcome (texts and flags: None, kept as they are); the attributes
# and totals (seats to a text or a number: dict); the cards, draws, teams and penalties (seats
# to lists of card codes or names); the archived rounds (copy_plain, all the way down). A copy
# by shape, not a copy_plain of the whole: a snapshot is taken at every contest's result, and
# copy_plain's walk was ~3% of a simulation. ``tests/games/contest/test_rules_random.py`` holds it to
# copy_plain (the same value, no list or mapping shared with the contest) over the golden
# scripts and demos. The penalties copied into the last contest as they are paid are copied
# the same way.
_SNAPSHOT: tuple[tuple[str, Any], ...] = (
    ("challenger", None),
    ("defender", None),
    ("kind", None),
    ("attributes", dict),
    ("cards", _lists),
    ("draws", _lists),
    ("totals", dict),
    ("rounds", copy_plain),
    ("extended", None),
    ("teams", _lists),
    ("winner", None),
    ("loser", None),
    ("how", None),
    ("penalties", _lists),
)
SNAPSHOT_KEYS = tuple(key for key, _copy in _SNAPSHOT)


def snapshot(contest: dict[str, Any]) -> dict[str, Any]:
    return {
        key: contest[key] if copy is None else copy(contest[key])
        for key, copy in _SNAPSHOT
        if key in contest
    }


# -- playing a card -------------------------------------------------------------------------


def _chain(state: State, attribute: str, pending: list[str] | None) -> list[str]:
    """The cards drawn for a chain of ``attribute``'s suit: each card drawn while they are of
    that suit, and the first that is not (or until the deck and the discard pile are out).
    Virtual mode (``pending`` None) draws them from the deck; physical mode takes them from
    ``pending``, the cards the player named as drawn, in turn."""
    suit = ATTR_SUIT[attribute]
    drawn: list[str] = []
    while True:
        if pending is None:
            code = draw(state)
            if code is None:
                return drawn
        elif not pending:
            raise IllegalMove(
                "rule_violation",
                N_("The chain of {attribute} ({suit}) goes on: name the next card drawn."),
                attribute=attribute,
                suit=C.SUIT_NAMES[suit],
            )
        else:
            code = pending.pop(0)
        drawn.append(code)
        if card_suit(code) != suit:
            return drawn


def play_card(
    state: State, name: str, card: str, named_draws: list[str] | None, ham: int, word: bool
) -> None:
    """Add a played card, its chain and any hamming draws to the contestant's total."""
    contest = state["contest"]
    attribute = contest["attributes"][name]
    suit = ATTR_SUIT[attribute]
    p = state["players"][name]
    if p["hand"] is not None:
        p["hand"].remove(card)
        p["hand_count"] = len(p["hand"])
    else:
        p["hand_count"] -= 1
    pending = list(named_draws) if named_draws is not None else None
    draws: list[str] = []
    if card_suit(card) == suit:
        draws += _chain(state, attribute, pending)
    for _ in range(ham):
        draws += _chain(state, attribute, pending)
    if pending:
        raise IllegalMove(
            "rule_violation",
            N_("Too many draws named: the chain stops before {pending}."),
            pending=labels(pending),
        )
    added = [card] + draws
    total = side_total(p["attributes"][attribute], added, word)
    contest["cards"][name] = added
    contest["draws"][name] = draws
    contest["totals"][name] = total
    contest["played"].append(name)
    extras = []
    if draws:
        extras.append(f"draws {labels(draws)}")
    if word:
        extras.append("uses the card's word (+2)")
    more = f", {', '.join(extras)}" if extras else ""
    event(
        state,
        "play",
        f"{who(state, name)} plays {label(card)} on {attribute}{more}: total {total}.",
        player=name,
        card=card,
        draws=draws,
        ham=ham,
        word=word,
        total=total,
    )
    if len(contest["played"]) == 2:
        decide(state)


def decide(state: State) -> None:
    contest = state["contest"]
    ch, de = contest["challenger"], contest["defender"]
    jokers = [n for n in (ch, de) if contest["cards"][n][0] in C.JOKERS]
    if len(jokers) == 2:
        event(state, "round", "Both played a joker: they play again.", outcome="jokers")
        replay_round(state, "jokers")
        return
    if len(jokers) == 1:
        record_result(state, jokers[0], other(contest, jokers[0]), "joker")
        return
    a, b = contest["totals"][ch], contest["totals"][de]
    if a != b:
        winner = ch if a > b else de
        record_result(state, winner, other(contest, winner), "play")
        return
    rule = state["options"]["ties"]
    if rule == "replay":
        event(state, "round", f"A tie at {a}: both play another card.", outcome="tie")
        replay_round(state, "tie")
    elif rule == "defender":
        record_result(state, de, ch, "tie")
    else:
        record_result(state, ch, de, "tie")


def archive_round(state: State, outcome: str) -> None:
    contest = state["contest"]
    entry = {
        "round": contest["round"],
        "cards": copy_plain(contest["cards"]),
        "draws": copy_plain(contest["draws"]),
        "totals": dict(contest["totals"]),
        "outcome": outcome,
    }
    if "winner" in contest:
        for key in ("winner", "loser", "how", "penalties", "joker_swap"):
            if key in contest:
                entry[key] = copy_plain(contest[key])
    contest["rounds"].append(entry)
    discard(state, table_cards(state))
    contest["cards"] = {}
    contest["draws"] = {}
    contest["totals"] = {}
    contest["played"] = []
    contest["round"] += 1
    for key in ("winner", "loser", "how", "joker_swap"):
        contest.pop(key, None)
    contest["penalties"] = {}
    contest["swap_offered"] = False


def replay_round(state: State, outcome: str) -> None:
    archive_round(state, outcome)
    start_round(state)


def start_round(state: State) -> None:
    """A contestant with no card to play loses (extended: loses the whole contest)."""
    contest = state["contest"]
    ch, de = contest["challenger"], contest["defender"]
    empty = [n for n in (ch, de) if hand_count(state, n) == 0]
    if not empty:
        state["phase"] = "contest"
        return
    loser = ch if len(empty) == 2 else empty[0]
    event(state, "no_card", f"{who(state, loser)} has no card left to play.", player=loser)
    if contest.get("extended"):
        final_result(state, loser, "no_card")
    else:
        record_result(state, other(contest, loser), loser, "no_card")


# -- results ----------------------------------------------------------------------------------


# How a contest (or a round) was won, as its result's summary says it (made once, not at
# every result).
_HOW_WON = {
    "play": "with the higher total",
    "joker": "with a joker",
    "tie": "on the tie rule",
    "no_card": "as the other has no card left",
    "forfeit": "as the other chose to lose",
    "give_up": "as the other gave up",
}


def announce(state: State, winner: str, loser: str, how: str, final: bool = True) -> None:
    contest = state["contest"]
    contest["winner"], contest["loser"], contest["how"] = winner, loser, how
    contest.setdefault("penalties", {})
    why = _HOW_WON[how]
    totals = contest["totals"]
    score = ""
    if winner in totals and loser in totals and how != "joker":
        score = f" ({totals[winner]} to {totals[loser]})"
    what = "the contest" if final else f"round {contest['round']}"
    event(
        state,
        "result",
        f"{who(state, winner)} wins {what} against {who(state, loser)} {why}{score}.",
        winner=winner,
        loser=loser,
        how=how,
        final=final,
    )


def record_result(state: State, winner: str, loser: str, how: str, owed: int = 1) -> None:
    """A contest (or an extended contest's round) has a winner; the losing side owes."""
    contest = state["contest"]
    final = not contest.get("extended")
    announce(state, winner, loser, how, final)
    if final:
        state["last_contest"] = snapshot(contest)
        state["contests"] += 1
    state["after_penalty"] = "result" if final else "round"
    state["owed"] = {m: owed for m in side(state, loser)}
    state["phase"] = "penalty"
    settle(state)


def final_result(state: State, loser: str, how: str) -> None:
    """The end of an extended contest: set-aside cards come back, the loser pays two."""
    contest = state["contest"]
    return_extended(state)
    winner = other(contest, loser)
    announce(state, winner, loser, how, True)
    state["last_contest"] = snapshot(contest)
    state["contests"] += 1
    state["after_penalty"] = "final"
    state["owed"] = {m: 2 for m in side(state, loser)}
    state["phase"] = "penalty"
    settle(state)


def note_penalty(state: State, name: str, record: list[str]) -> None:
    contest = state["contest"]
    if not contest or state["after_penalty"] not in ("result", "final", "round"):
        return
    contest.setdefault("penalties", {}).setdefault(name, []).extend(record)
    if state["after_penalty"] != "round" and state["last_contest"] is not None:
        state["last_contest"]["penalties"] = _lists(contest["penalties"])


def settle(state: State) -> None:
    """Once nothing is owed, move on: joker swap, healing, clean-up or the next round."""
    if state["finished"] or state["owed"] or state["swap"]:
        return
    step = state["after_penalty"]
    if step == "unnamed":
        state["after_penalty"] = None
        state["phase"] = "story"
        return
    contest = state["contest"]
    if step in ("result", "round") and contest["how"] == "joker" and not contest["swap_offered"]:
        contest["swap_offered"] = True
        loser = contest["loser"]
        if (
            state["options"]["joker_swap"]
            and not state["players"][loser]["out"]
            and hand_count(state, loser) > 0
        ):
            state["swap"] = {"player": loser, "joker": contest["cards"][contest["winner"]][0]}
            state["phase"] = "penalty"
            event(
                state,
                "swap_offer",
                f"{who(state, loser)} must swap a card from hand for the winning joker.",
                player=loser,
            )
            return
    if step == "round":
        next_round(state)
        return
    winner = contest["winner"]
    p = state["players"][winner]
    if state["options"]["healing"] and not p["out"]:
        state["phase"] = "heal"
        return
    finish_contest(state)


def next_round(state: State) -> None:
    contest = state["contest"]
    archive_round(state, "round")
    state["after_penalty"] = None
    for name in (contest["challenger"], contest["defender"]):
        draw_up(state, name)
    event(state, "round", f"Round {contest['round']} of the extended contest.", outcome="next")
    start_round(state)


def finish_contest(state: State) -> None:
    contest = state["contest"]
    discard(state, table_cards(state))
    if state["last_contest"] is not None:
        state["last_contest"]["penalties"] = _lists(contest.get("penalties", {}))
        if "joker_swap" in contest:
            state["last_contest"]["joker_swap"] = dict(contest["joker_swap"])
    state["contest"] = None
    state["after_penalty"] = None
    state["phase"] = "story"
    for name in (contest["challenger"], contest["defender"]):
        draw_up(state, name)
    # The event's record: a copy of the snapshot's top level is enough (as ``end_game``'s):
    # only its top-level keys are ever set again (``penalties``, ``joker_swap``), and the next
    # contest's snapshot replaces it whole. A deep copy here cost a simulation ~3% of its time.
    event(
        state,
        "contest",
        f"The contest '{contest['kind']}' is over: {who(state, contest['winner'])} won.",
        contest=dict(state["last_contest"]),
    )


def alive(state: State, name: str) -> bool:
    return name in active(state)
