"""The contest's bots for simulated plays (see ``games.simulate.bots`` for the interface).

They see their own hand and what lies face up (their view hides the deck and the other
hands) and play the legal moves' templates, filling in what a template leaves open: the
values of its ``choices``, the contest's description, the character's name and attributes,
the voters' lists. What the table decides by talking (taking control, pretzel throws,
forgotten names, votes, refusals, a drink or a card) is a parameter of ``sensible``.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from operator import itemgetter
from typing import Any

from games.contest.rules import GAME
from games.contest.rules.core import ATTR_SUIT, ATTRIBUTES, card_suit, card_value, is_face
from games.simulate.bots import Bot, Param

REFEREE = GAME


@lru_cache(maxsize=1024)  # card codes: a few hundred at most
def _facts(code: str) -> tuple[str | None, int, bool]:
    """A card's suit, value and whether it is a face card (asked at every bot decision)."""
    return card_suit(code), card_value(code), is_face(code)


class _FactsTable(dict[str, tuple[str | None, int, bool]]):
    """``_facts`` as a table, filled as cards are met: the bots' loops over a hand read it
    by subscript (a look-up, not a call per card at every decision)."""

    def __missing__(self, code: str) -> tuple[str | None, int, bool]:
        found = self[code] = _facts(code)
        return found


FACTS = _FactsTable()


def _others(view, seat) -> list[str]:
    return [n for n in view["seats"] if n != seat and not view["players"][n]["out"]]


def _spread(rng, total: int, lo: int, hi: int) -> dict[str, int]:
    """Four attributes in [lo, hi] adding up to ``total``, uniformly one point at a time."""
    attrs = dict.fromkeys(ATTRIBUTES, lo)
    for _ in range(total - 4 * lo):
        open_ = [a for a in ATTRIBUTES if attrs[a] < hi]
        attrs[open_[rng.randrange(len(open_))]] += 1
    return attrs


def _character(bot: Bot, view, balanced: bool) -> dict[str, Any]:
    o = view["options"]
    lo, hi, total = o["attribute_min"], o["attribute_max"], o["attribute_points"]
    if balanced:
        attrs = dict.fromkeys(ATTRIBUTES, lo)
        for i in range(total - 4 * lo):
            attrs[ATTRIBUTES[i % 4]] += 1
    else:
        attrs = _spread(bot.rng, total, lo, hi)
    return {"do": "character", "name": f"Hero of {bot.seat}", **attrs}


def _votes(bot: Bot, others: list[str], lists: tuple[str, ...], up: float) -> dict:
    out: dict[str, list[str]] = {key: [] for key in lists}
    for name in others:
        if len(lists) == 1:
            key = lists[0] if bot.chance(up) else None
        else:
            key = lists[0] if bot.chance(up) else lists[1]
        if key:
            out[key].append(name)
    return out


class RandomBot(Bot):
    """Uniform among the legal moves, then uniform among each value the move leaves open
    (target, attribute, card, penalties, whether the name is called, how many pretzels to
    eat, each voter's vote); a character's points are spread one at a time at random.
    Never waits."""

    def choose(self, view, legal_moves, may_wait=False):
        template = self.pick(legal_moves)
        verb = template["do"]
        if verb == "character":
            return _character(self, view, balanced=False)
        move = {k: v for k, v in template.items() if k != "choices"}
        for name, values in template.get("choices", {}).items():
            move[name] = self.pick(values)
        o = view["options"]
        if verb == "challenge":
            move["contest"] = "a contest"
            move["named"] = self.chance(0.5)
        elif verb == "play":
            if o["hamming_it_up"]:
                move["ham"] = self.rng.randint(0, 2)
            if o["word_bonus"]:
                move["word"] = self.chance(0.5)
        elif verb == "vote_off":
            others = [n for n in _others(view, self.seat) if n != move["target"]]
            move.update(_votes_three(self, others))
        elif verb == "extra_point":
            move.update(_votes(self, _others(view, self.seat), ("up", "down"), 0.5))
        elif verb == "bribe":
            move.update(_votes(self, _others(view, self.seat), ("accepted_by",), 0.5))
        return move


def _votes_three(bot: Bot, others: list[str]) -> dict:
    out: dict[str, list[str]] = {"up": [], "down": [], "pretzels": []}
    for name in others:
        out[bot.pick(["up", "down", "pretzels"])].append(name)
    return out


# The attributes in their order, each with its suit; the sums ``_best_attribute`` keeps: one
# per attribute's suit, and None's (a card of no suit).
_ATTRIBUTE_SUITS = tuple((a, ATTR_SUIT[a]) for a in ATTRIBUTES)
_SUMS = (*ATTR_SUIT.values(), None)


class SensibleBot(Bot):
    """A reasonable player:

    - Builds a balanced character (points spread evenly).
    - In control, challenges the active player whose best attribute is lowest, with their
      own attribute that is highest counting the cards of its suit in hand; forgets to call
      the character by name with chance ``forget_name``; with voting off, calls a vote
      instead with chance ``call_vote``.
    - Not in control, takes control with a face card (chance ``take_control``) or with two
      drinks (chance ``take_control_drinks``) when asked, throws a pretzel (chance
      ``pretzel``), and eats pretzels one short of the limit.
    - Challenged, refuses with chance ``refuse``, else accepts with their best attribute.
    - Plays the card that adds most: a card of their attribute's suit (it chains) first,
      then the highest value.
    - Pays a penalty with a drink (chance ``drink``), else a card; pays a refusal the same
      way, one penalty at a time; heals a pretzel first, then a lost card; votes up with
      chance ``vote_up``; stays when voted off with chance ``stay``.

    At these defaults a game of four runs about 470 moves (about 87 contests, 10th to 90th
    percentile 320 to 690 moves). A drink puts nobody out (only lost cards, pretzels and
    votes do), so the share of penalties paid in drinks sets the length (``drink`` 0.3: about
    350 moves); the seed offers "lose a card, or take a drink" with no preference, so
    ``drink`` stays an even 0.5. Taking control more often (the seed's narrator has "at least
    one minute") changes the length little (``take_control`` 0.3: about 500 moves).
    """

    params = {
        "take_control": Param(0.05, 0, 1, "chance of taking control with a face card when asked"),
        "take_control_drinks": Param(0.01, 0, 1, "chance of taking control with two drinks"),
        "pretzel": Param(0.03, 0, 1, "chance of throwing a pretzel at the narrator when asked"),
        "forget_name": Param(0.05, 0, 1, "chance the narrator forgets the character's name"),
        "refuse": Param(0.05, 0, 1, "chance a challenged player refuses the contest"),
        "drink": Param(0.5, 0, 1, "chance a penalty is paid with a drink rather than a card"),
        "call_vote": Param(0.0, 0, 1, "chance the narrator calls a vote (voting off)"),
        "vote_up": Param(0.5, 0, 1, "chance a voter votes a player off"),
        "stay": Param(0.5, 0, 1, "chance a player voted off pays to stay"),
    }

    # The table's pretzel limit, once read (a bot plays one game: its options never change).
    _pretzel_limit: int | None = None

    def choose(self, view, legal_moves, may_wait=False):
        # The view is read only when a decision needs it (reading it copies the state).
        # Each verb's first template (a verb has one, but for take_control's ways).
        by_verb: dict[str, dict] = {t["do"]: t for t in reversed(legal_moves)}
        if "character" in by_verb:
            return _character(self, view, balanced=True)
        if "eat_pretzels" in by_verb:  # offered only to a player with pretzels
            limit = self._pretzel_limit
            if limit is None:  # the table's options never change: read once per game
                limit = self._pretzel_limit = view["options"]["pretzel_limit"]
            if view["players"][self.seat]["pretzels"] >= limit - 1:
                count = max(by_verb["eat_pretzels"]["choices"]["count"])
                return {"do": "eat_pretzels", "count": count}
        if "challenge" in by_verb:
            if "vote_off" in by_verb and self.chance(self.p["call_vote"]):
                return self._vote_off(view, by_verb["vote_off"])
            return self._challenge(view, by_verb["challenge"])
        ways = (
            [t for t in legal_moves if t["do"] == "take_control"]
            if "take_control" in by_verb
            else ()
        )
        for t in ways:  # in the story, not in control
            if t["with"] == "face_card" and self.chance(self.p["take_control"]):
                card = t["choices"]["card"][0]
                return {"do": "take_control", "with": "face_card", "card": card}
            if t["with"] == "drinks" and self.chance(self.p["take_control_drinks"]):
                return {"do": "take_control", "with": "drinks"}
        if "throw_pretzel" in by_verb and may_wait and self.chance(self.p["pretzel"]):
            return {"do": "throw_pretzel"}
        if "accept" in by_verb:
            if "refuse" in by_verb and self.chance(self.p["refuse"]):
                return {"do": "refuse", "penalty": self._penalties(2, by_verb["refuse"])}
            me = view["players"][self.seat]
            return {"do": "accept", "attribute": self._best_attribute(me)}
        if "play" in by_verb:
            return {"do": "play", "card": self._card(view, by_verb["play"]["choices"]["card"])}
        if "drink" in by_verb or "lose_card" in by_verb:
            if "lose_card" in by_verb and (
                "drink" not in by_verb or not self.chance(self.p["drink"])
            ):
                return {"do": "lose_card"}
            return {"do": "drink"}
        if "swap_joker" in by_verb:
            hand = by_verb["swap_joker"]["choices"]["card"]
            return {"do": "swap_joker", "card": min(hand, key=lambda c: (card_value(c), c))}
        if "heal" in by_verb:
            choices = by_verb["heal"]["choices"]["choice"]
            return {"do": "heal", "choice": choices[0]}
        if "stay" in by_verb and self.chance(self.p["stay"]):
            return {"do": "stay", "penalty": self._penalties(3, by_verb["stay"])}
        if "leave" in by_verb:
            return {"do": "leave"}
        if "give_up" in by_verb and not may_wait:
            return {"do": "give_up"}
        return None

    def _penalties(self, n: int, template: dict[str, Any]) -> list[str]:
        """``n`` penalties, each a drink (chance ``drink``) else a card; a card the side cannot
        give (the mix is not among those offered: an empty hand) is a drink instead, the
        last first. Before this, a refusal at eight players asked a card of an empty hand."""
        mix = ["drink" if self.chance(self.p["drink"]) else "card" for _ in range(n)]
        cards = {m.count("card") for m in template["choices"]["penalty"]}  # in any order
        for i in reversed(range(n)):
            if mix.count("card") in cards:
                return mix
            mix[i] = "drink"
        return mix

    @staticmethod
    def _best_attribute(me: dict) -> str:
        """The attribute whose value plus the mean value of the hand's cards of its suit is
        highest (the first in ATTRIBUTES' order on a tie)."""
        hand = me["hand"] or []
        # Each card's value added to its suit's sum; a card of no suit (a joker, a major
        # arcanum: worth 0) to a sum no attribute reads (no question per card).
        by_suit = dict.fromkeys(_SUMS, 0)
        facts = FACTS
        for c in hand:
            suit, value, _face = facts[c]
            by_suit[suit] += value
        n = max(1, len(hand))
        attrs = me["attributes"]
        best, top = ATTRIBUTES[0], None
        for a, suit in _ATTRIBUTE_SUITS:  # a strictly higher one only: the first wins a tie
            worth = attrs[a] + by_suit[suit] / n
            if top is None or worth > top:
                best, top = a, worth
        return best

    def _challenge(self, view, template) -> dict[str, Any]:
        players, seats = view["players"], view["seats"]  # each read once
        me = players[self.seat]
        # The first target with the lowest best attribute, the most lost cards, the first
        # seat: ``min`` by that rank, in a loop (no call per target).
        target, low = None, None
        for n in template["choices"]["target"]:
            q = players[n]  # each target's record read once
            rank = (max(q["attributes"].values()), -len(q["lost"]), seats.index(n))
            if low is None or rank < low:
                target, low = n, rank
        return {
            "do": "challenge",
            "target": target,
            "contest": "a contest",
            "attribute": self._best_attribute(me),
            "named": not self.chance(self.p["forget_name"]),
        }

    def _vote_off(self, view, template) -> dict[str, Any]:
        target = template["choices"]["target"][0]
        others = [n for n in _others(view, self.seat) if n != target]
        return {
            "do": "vote_off",
            "target": target,
            **_votes(self, others, ("up", "down"), self.p["vote_up"]),
            "pretzels": [],
        }

    def _card(self, view, hand: list[str]) -> str:
        contest = view["contest"]
        suit = ATTR_SUIT[contest["attributes"][self.seat]]
        # ``max`` by worth (a card of the suit that chains, then the value, then the code),
        # in a loop: no function made and called for each card at every card played.
        best, top = hand[0], None
        facts = FACTS
        for c in hand:
            own, value, face = facts[c]
            worth = (own == suit and not face, value, c)
            if top is None or worth > top:
                best, top = c, worth
        return best


BOTS = {"random": RandomBot, "sensible": SensibleBot}


_controller_of = itemgetter("controller")


def trace(state: dict[str, Any]) -> dict[str, Any]:
    """What :func:`figures` reads of a state before the last (the simulation changes the
    state in place): who controls the story, and the events of the move that led to it
    (who it put out). The events are the state's own list, not a copy: ``handle`` gives
    every move a new list, so a move's list is never changed once the next move is made."""
    return {"controller": state["controller"], "events": state["events"]}


def figures(setup, moves, initial, states, bots_by_seat) -> dict[str, Any]:
    """One simulated game's figures: length, control turns, contests, refusals, drinks,
    pretzels, wins by seat, when each seat went out (a share of the game's moves, and
    its place in the order of elimination), and each seat's share of the moves made
    while it controlled the story."""
    seats = setup.players
    final = states[-1] if states else initial
    # The verbs counted in one pass over the moves (not one pass per figure): the challenges
    # that forgot the name, and each way of taking control, counted apart.
    verbs: Counter = Counter()
    for m in moves:
        verb = m["do"]
        if verb == "challenge":
            if m.get("named") is False:
                verb = "challenge.unnamed"
        elif verb == "take_control":
            verbs[f"take_control.{m.get('with')}"] += 1
        verbs[verb] += 1
    out: dict[str, Any] = {
        "moves": len(moves),
        "control_turns": final["control_turn"],
        "rounds": final["control_turn"] / len(seats),
        "contests": final["contests"],
        "refusals": verbs["refuse"],
        "unnamed": verbs["challenge.unnamed"],
        "take_control": verbs["take_control"],
        # How control is taken: by a face card, by drinks, by a plot card.
        **{
            f"take_control.{how}": verbs[f"take_control.{how}"]
            for how in ("face_card", "drinks", "plot_card")
        },
        "drinks": sum(p["drinks"] for p in final["players"].values()),
        "pretzels": verbs["throw_pretzel"],
        "pretzels_eaten": sum(p["eaten"] for p in final["players"].values()),
    }
    # Each state's controller, counted without a step per state.
    control: Counter = Counter(map(_controller_of, states))
    out_at: dict[str, int] = {}
    order: list[str] = []
    playing = list(seats)  # the seats not seen out yet
    for i, state in enumerate(states):
        # Who the move put out, from its "out" events (``put_out``, the only way out of the
        # game, says so once for each player): the state read, not every player's record.
        if not playing:  # no seat left to watch
            break
        gone = [e["player"] for e in state["events"] if e["type"] == "out"]
        if gone:
            for name in [n for n in playing if n in gone]:  # in seat order
                out_at[name] = i + 1
                order.append(name)
                playing.remove(name)
    n = len(moves) or 1
    out["first_out_at"] = min(out_at.values()) / n if out_at else None
    for index, seat in enumerate(seats, 1):
        out[f"seat{index}.control"] = control[seat] / n
        out[f"seat{index}.out_at"] = out_at[seat] / n if seat in out_at else None
        out[f"seat{index}.out_place"] = order.index(seat) + 1 if seat in order else None
        if final["finished"]:
            out[f"seat{index}.wins"] = (seat in final["winners"]) / len(final["winners"])
    return out


def value(state: dict[str, Any], seat: str) -> float:
    """What a seat plays for (the search bot's measure): its share of the win once the game
    is over; before, its share of the survivors' places (nothing once it is out)."""
    if state["finished"]:
        winners = state.get("winners") or []
        return 1 / len(winners) if seat in winners else 0.0
    players = state["players"]
    if players[seat]["out"]:
        return 0.0
    return 1 / sum(1 for p in players.values() if not p["out"])
