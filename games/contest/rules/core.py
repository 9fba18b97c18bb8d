"""Contest: cards, the virtual deck, penalties, players dropping out and the end of the game.

These helpers work on the game state in place; ``contest.py`` holds the moves.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.rules import cards as C
from games.rules.errors import N_, IllegalMove

ATTRIBUTES = ("brains", "muscle", "moves", "coolness")
ATTR_SUIT = {"brains": "S", "muscle": "C", "moves": "D", "coolness": "H"}
PENALTIES = ("drink", "card")
FACE_RANKS = frozenset({"J", "Q", "K", "P", "N"})
# Order used to break ties when choosing which card is lost: A 2 ... 10, then court cards.
_RANK_ORDER = {
    r: i
    for i, r in enumerate(("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "P", "N", "Q"))
}
_RANK_ORDER["K"] = len(_RANK_ORDER)
_SUIT_ORDER = {s: i for i, s in enumerate("SHDC")}

State = dict[str, Any]


# -- cards --------------------------------------------------------------------------------


_UNSUITED = frozenset(C.JOKERS) | frozenset(C.TAROT_MAJOR)


def is_suited(code: str) -> bool:
    return code not in _UNSUITED


@lru_cache(maxsize=1024)  # card codes: a few hundred at most
def card_value(code: str) -> int:
    """A = 1, 2..10 their number, face/court cards, jokers and major arcana 0."""
    if not is_suited(code):
        return 0
    r = C.rank(code)
    if r == "A":
        return 1
    if r in FACE_RANKS:
        return 0
    return int(r)


WORD_BONUS = 2


def side_total(attribute_value: int, cards: list[str], word: bool = False) -> int:
    """A side's total: the attribute, the value of every card played and drawn, and the
    word bonus (tarot option) when the narrator used the card's word."""
    # ``map`` over the table of ``card_value`` (``VALUE``, below): no generator to step
    # through (a total at every card played).
    return attribute_value + sum(map(VALUE.__getitem__, cards)) + (WORD_BONUS if word else 0)


@lru_cache(maxsize=1024)  # card codes: a few hundred at most
def card_suit(code: str) -> str | None:
    return C.suit(code) if is_suited(code) else None


@lru_cache(maxsize=1024)  # card codes: a few hundred at most
def is_face(code: str) -> bool:
    return is_suited(code) and C.rank(code) in FACE_RANKS


@lru_cache(maxsize=1024)  # card codes: a few hundred at most (asked for each card in hand)
def loss_key(code: str) -> tuple:
    """Sort key: the first card under this key is the one a card penalty takes."""
    if code in C.JOKERS:
        return (0, 2, 0, C.JOKERS.index(code))
    if code in C.TAROT_MAJOR:
        return (0, 1, 0, int(code[1:]))
    return (-card_value(code), 0, _SUIT_ORDER[C.suit(code)], _RANK_ORDER[C.rank(code)])


class _Memo(dict[str, Any]):
    """A card fact as a table, filled as cards are met: a hot loop reads it by subscript (a
    look-up, no call per card), the function it memoizes says what a card's fact is."""

    def __init__(self, fact: Any) -> None:
        super().__init__()
        self.fact = fact

    def __missing__(self, code: str) -> Any:
        found = self[code] = self.fact(code)
        return found


# ``is_face``, ``card_suit``, ``card_value`` and ``loss_key`` as tables (the legal moves, the
# chains, the totals and the lost cards of a simulation read them at nearly every step).
FACE = _Memo(is_face)
SUIT = _Memo(card_suit)
VALUE = _Memo(card_value)
LOSS_KEY = _Memo(loss_key)


def card_to_lose(hand: list[str]) -> str:
    return min(hand, key=LOSS_KEY.__getitem__)


def full_deck(options: dict[str, Any]) -> list[str]:
    if options["tarot"]:
        deck = [c for c in C.tarot_deck() if c not in C.TAROT_MAJOR]
        if options["plot_cards"]:
            deck += list(C.TAROT_MAJOR)
    else:
        deck = C.standard_deck()
    if options["jokers"]:
        deck += list(C.JOKERS)
    return deck


@lru_cache(maxsize=1024)  # card codes: a few hundred at most
def label(code: str) -> str:
    return C.label(code)


def labels(codes: list[str]) -> str:
    # ``label`` above (cached): nearly every card played draws a chain, named here.
    return ", ".join([label(c) for c in codes]) if codes else N_("no cards")


# -- state helpers -------------------------------------------------------------------------


def event(state: State, etype: str, summary: str, **data: Any) -> None:
    state["events"].append({"type": etype, "summary": summary, **data})


def active(state: State) -> list[str]:
    players = state["players"]  # read once, not once per seat (asked at every step)
    return [n for n in state["seats"] if not players[n]["out"]]


def is_active(state: State, player: str) -> bool:
    """``player in active(state)`` for one of the seats, without the list."""
    return not state["players"][player]["out"]


def is_virtual(state: State) -> bool:
    return state["deck_mode"] == "virtual"


def player_and_character(name: str, character: str | None) -> str:
    """'Zed (Ana)': how the log, the table page and the book all name a player once they
    have a character (the character first: the story is about them); the player alone before."""
    return f"{character} ({name})" if character else name


def who(state: State, name: str) -> str:
    """The player as ``player_and_character`` names them, in the referee's summaries (its
    words written out here: nearly every move's summary names one or two players)."""
    character = state["players"][name].get("character")
    return f"{character} ({name})" if character else name


def extended_lost(state: State, name: str) -> list[str]:
    contest = state["contest"]
    if contest and contest.get("extended"):
        return contest["extended_lost"].get(name, [])
    return []


def refresh(state: State, name: str) -> None:
    p = state["players"][name]
    p["hand_limit"] = max(
        0, state["options"]["hand_size"] - len(p["lost"]) - len(extended_lost(state, name))
    )
    if p["hand"] is not None:
        p["hand_count"] = len(p["hand"])


def hand_count(state: State, name: str) -> int:
    p = state["players"][name]
    return len(p["hand"]) if p["hand"] is not None else p["hand_count"]


def discard(state: State, codes: list[str]) -> None:
    if state["deck_mode"] == "virtual":
        state["discard"].extend(codes)


def draw(state: State) -> str | None:
    """The top card of the virtual deck; an empty deck is first rebuilt from the discard."""
    if not state["deck"]:
        if not state["discard"]:
            return None
        rng = C.Rng(state["rng"])
        pile = state["discard"]
        state["discard"] = []
        rng.shuffle(pile)
        state["deck"] = pile
        state["rng"] = rng.state
        event(
            state,
            "reshuffle",
            f"The deck ran out: the discard pile ({len(pile)} cards) was shuffled into a new deck.",
            cards=len(pile),
        )
    return state["deck"].pop(0)


def draw_up(state: State, name: str) -> list[str]:
    """Refill a hand to its limit (physical mode: just count the cards)."""
    p = state["players"][name]
    refresh(state, name)
    if p["out"]:
        return []
    drawn: list[str] = []
    if p["hand"] is None:
        p["hand_count"] = max(p["hand_count"], p["hand_limit"])
        return drawn
    while len(p["hand"]) < p["hand_limit"]:
        card = draw(state)
        if card is None:
            break
        p["hand"].append(card)
        drawn.append(card)
    p["hand_count"] = len(p["hand"])  # ``refresh``: the limit is the same (no card lost)
    return drawn


def visible_cards(state: State) -> set[str]:
    """Cards face up on the table: lost piles and cards played in the contest."""
    seen: set[str] = set()
    for p in state["players"].values():
        seen.update(p["lost"])
    contest = state["contest"]
    if contest:
        for codes in contest["cards"].values():
            seen.update(codes)
        for codes in contest.get("extended_lost", {}).values():
            seen.update(codes)
    return seen


def check_unseen(state: State, code: str) -> None:
    if code in visible_cards(state):
        raise IllegalMove(
            "rule_violation", N_("{card} is already face up on the table."), card=label(code)
        )


def table_cards(state: State) -> list[str]:
    contest = state["contest"]
    if not contest:
        return []
    out: list[str] = []
    for name in (contest["challenger"], contest["defender"]):
        out.extend(contest["cards"].get(name, []))
    return out


# -- control, dropping out, the end ----------------------------------------------------------


def set_controller(state: State, name: str, how: str, card: str | None = None) -> None:
    old = state["controller"]
    state["controller"] = name
    state["throwers"] = []
    state["control_turn"] = state.get("control_turn", 0) + 1
    reasons = {
        "start": "starts the story",
        "face_card": f"plays {label(card) if card else 'a face card'} and takes control",
        "drinks": "takes two drinks and takes control of the story",
        "plot_card": f"plays the plot card {label(card) if card else ''} and takes control",
        "out": "takes over the story as the narrator dropped out",
        "vote": "wins the vote and takes control of the story",
    }
    event(
        state,
        "control",
        f"{who(state, name)} {reasons.get(how, 'takes control of the story')}.",
        previous=old,
        controller=name,
        how=how,
        card=card,
    )


def put_out(state: State, name: str, reason: str) -> None:
    p = state["players"][name]
    if p["out"] or state["finished"]:
        return
    p["out"] = True
    if p["hand"] is not None:
        discard(state, p["hand"])
        p["hand"] = []
    p["hand_count"] = 0
    state["owed"].pop(name, None)
    why = {
        "cards": "has lost every card",
        "pretzels": "is buried under pretzels",
        "vote": "was voted off",
    }.get(reason, "drops out")
    event(
        state,
        "out",
        f"{who(state, name)} {why} and is out of the game.",
        player=name,
        reason=reason,
    )
    alive = active(state)
    if len(alive) == 1:
        end_game(state, alive[0])
        return
    if state["controller"] == name:
        seats = state["seats"]
        set_controller(state, _next_active(seats, name, alive), "out")


def _next_active(seats: list[str], current: str, alive: list[str]) -> str:
    i = seats.index(current)
    for step in range(1, len(seats) + 1):
        name = seats[(i + step) % len(seats)]
        if name in alive:
            return name
    raise ValueError("nobody left")


def end_game(state: State, winner: str) -> None:
    contest = state["contest"]
    if contest and "winner" in contest and state["last_contest"] is not None:
        event(
            state,
            "contest",
            f"The contest '{contest['kind']}' is over: {who(state, contest['winner'])} won.",
            contest=dict(state["last_contest"]),
        )
    if contest:
        for name, codes in contest.get("extended_lost", {}).items():
            _return_cards(state, name, codes)
        discard(state, table_cards(state))
        for name in contest["cards"]:
            contest["cards"][name] = []
        state["contest"] = None
    state["owed"] = {}
    state["after_penalty"] = None
    state["swap"] = None
    state["vote"] = None
    state["phase"] = "ended"
    state["finished"] = True
    state["winners"] = [winner]
    state["controller"] = winner
    state["earned_points"][winner] = state["earned_points"].get(winner, 0) + 1
    event(
        state,
        "end",
        f"{who(state, winner)} is the last one standing and wins; the character earns a point.",
        winner=winner,
    )


def _return_cards(state: State, name: str, codes: list[str]) -> None:
    p = state["players"][name]
    if p["hand"] is not None and not p["out"]:
        p["hand"].extend(codes)
    elif p["hand"] is not None:
        discard(state, codes)
    else:
        p["hand_count"] += 0 if p["out"] else len(codes)


def return_extended(state: State) -> None:
    """The separate piles of an extended contest go back to their owners' hands."""
    contest = state["contest"]
    piles = contest.get("extended_lost", {})
    contest["extended_lost"] = {}
    for name, codes in piles.items():
        _return_cards(state, name, codes)
        refresh(state, name)


# -- penalties -------------------------------------------------------------------------------


def lose_card(state: State, name: str, named: str | None = None) -> str:
    """The player's highest card goes face up (physical: the named card)."""
    p = state["players"][name]
    if p["hand"] is not None:
        if not p["hand"]:
            raise IllegalMove(
                "rule_violation", N_("{name} has no card in hand to lose."), name=name
            )
        pick = card_to_lose(p["hand"])
        if named is not None and named != pick:
            raise IllegalMove(
                "rule_violation",
                N_("{name} must lose the highest card in hand, {highest}, not {named}."),
                name=name,
                highest=label(pick),
                named=label(named),
            )
        p["hand"].remove(pick)
    else:
        if p["hand_count"] <= 0:
            raise IllegalMove(
                "rule_violation", N_("{name} has no card in hand to lose."), name=name
            )
        if named is None:
            raise IllegalMove("bad_argument", N_("Name the card that is lost."))
        check_unseen(state, named)
        pick = named
        p["hand_count"] -= 1
    contest = state["contest"]
    if state["after_penalty"] == "round" and contest and contest.get("extended"):
        contest["extended_lost"].setdefault(name, []).append(pick)
        where = "sets aside for this contest"
    else:
        p["lost"].append(pick)
        where = "loses"
    refresh(state, name)
    event(
        state,
        "penalty",
        f"{who(state, name)} {where} {label(pick)}.",
        player=name,
        penalty="card",
        card=pick,
    )
    if len(p["lost"]) >= state["options"]["hand_size"]:
        put_out(state, name, "cards")
    return pick


def drink(state: State, name: str, count: int = 1) -> None:
    state["players"][name]["drinks"] += count
    what = "a drink" if count == 1 else f"{count} drinks"
    event(
        state,
        "penalty",
        f"{who(state, name)} takes {what}.",
        player=name,
        penalty="drink",
        count=count,
    )


def pay(state: State, name: str, penalties: list[str], named: list[str]) -> list[str]:
    """Pay a list of penalties at once; ``named`` feeds the lost cards in physical mode.
    Returns the record: 'drink' or the code of each lost card."""
    record: list[str] = []
    for penalty in penalties:
        if state["finished"] or state["players"][name]["out"]:
            break
        if penalty == "drink":
            drink(state, name)
            record.append("drink")
        else:
            card = named.pop(0) if state["players"][name]["hand"] is None else None
            record.append(lose_card(state, name, card))
    return record
