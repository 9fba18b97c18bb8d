"""Amnesia's bots for simulated plays (see ``games.simulate.bots`` for the interface).

They play through the referee only: the view of their seat (Amnesia hides nothing but the
future draws, which the view strips) and the legal moves. Everything the table decides by
talking (how long scenes run, suggesting, insisting, refusing, joining a challenge, when the
story ends) is a parameter of ``sensible``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.amnesia.rules import GAME
from games.rules import cards
from games.simulate.bots import Bot, Param, strip_template

REFEREE = GAME
_RANKS = [(c, cards.rank_value(c)) for c in cards.standard_deck()]


def _fill(template: dict[str, Any], take: int | None = None) -> dict[str, Any]:
    move = strip_template(template, "max_take", "refund")
    if template["do"] == "pass":
        move["take"] = template["max_take"] if take is None else take
    return move


class RandomBot(Bot):
    """Uniform among the legal moves, and uniform among the values a move leaves open (how
    many tokens a pass takes). Never waits."""

    def choose(self, view, legal_moves, may_wait=False):
        template = self.pick(legal_moves)
        take = None
        if template["do"] == "pass":
            take = self.rng.randint(0, template["max_take"])
        return _fill(template, take)


class SensibleBot(Bot):
    """A reasonable player:

    - On their turn: with at most ``reserve`` tokens, pass and refill as much as the cap
      allows; otherwise tell the memory of the room when it opens (chance ``room``), else a
      memory (chance ``flashback``), else continue the story; with no token, pass.
    - Once the room is remembered, a player proposes to end the story ``end_after`` scenes
      after they first see that it may end, and everyone agrees.
    - Narrating, they end the scene after ``scene_length`` beats on average (each time they
      are asked, chance 1/scene_length); listening, they suggest (chance ``suggest``) or pay
      to insist (chance ``insist``, only above their reserve).
    - Offered a paid suggestion, they refuse it (chance ``refuse``, only above their reserve)
      and so start a challenge; otherwise accept.
    - In a challenge: an onlooker joins (chance ``join``, above reserve); the narrator turns
      the first card once nobody else wants to act; on a go they call the direction more of
      the cards not yet turned lie in (a tie loses with ``tie_loses``), and quit only with no
      token left.
    """

    params = {
        "scene_length": Param(4, 1, 50, "beats a narrator lets a scene run, on average"),
        "suggest": Param(0.3, 0, 1, "chance a listener offers a free suggestion when asked"),
        "insist": Param(0.05, 0, 1, "chance a listener pays a token to insist when asked"),
        "refuse": Param(0.3, 0, 1, "chance a narrator refuses a paid suggestion"),
        "join": Param(0.2, 0, 1, "chance an onlooker joins a challenge"),
        "flashback": Param(0.25, 0, 1, "chance of telling a memory instead of a scene"),
        "room": Param(0.3, 0, 1, "chance of telling the memory of the room once it opens"),
        "end_after": Param(3, 0, 200, "scenes after the room before the table ends", True),
        "reserve": Param(2, 0, 50, "tokens a player keeps before spending on extras", True),
    }

    def __init__(self, params, rng_seed, seat):
        super().__init__(params, rng_seed, seat)
        self.scenes_at_room: int | None = None
        self.waited: int | None = None

    def choose(self, view, legal_moves, may_wait=False):
        # The view is read only when a decision needs it (reading it copies the state).
        by_verb = {t["do"]: t for t in legal_moves}
        reserve = self.p["reserve"]
        if "end_story" in by_verb:
            if self.scenes_at_room is None:
                self.scenes_at_room = view["scenes"]
            if view["scenes"] - self.scenes_at_room >= self.p["end_after"]:
                return _fill(by_verb["end_story"])
        if "end_scene" in by_verb:
            if not may_wait or self.chance(1 / self.p["scene_length"]):
                return {"do": "end_scene"}
            return None
        if "suggest" in by_verb:  # listening to a scene
            if (
                "insist" in by_verb
                and self.chance(self.p["insist"])
                and view["tokens"][self.seat] > reserve
            ):
                return {"do": "insist"}
            if may_wait and self.chance(self.p["suggest"]):
                return {"do": "suggest"}
            return None
        if "accept" in by_verb:  # a paid suggestion to answer
            if (
                "refuse" in by_verb
                and self.chance(self.p["refuse"])
                and view["tokens"][self.seat] > reserve
            ):
                return {"do": "refuse"}
            return {"do": "accept"}
        if by_verb.keys() & {"join", "open", "higher", "lower", "quit", "stake"}:
            return self._challenge(view, by_verb, reserve, may_wait)
        if by_verb.keys() & {"continue", "flashback", "room_flashback", "pass"}:
            return self._turn(by_verb, view["tokens"][self.seat], reserve)
        return None

    def _turn(self, by_verb, tokens, reserve):
        passing = by_verb.get("pass")
        if passing is not None and (
            "continue" not in by_verb or (tokens <= reserve and passing["max_take"] > 0)
        ):
            return _fill(passing)
        if "room_flashback" in by_verb and self.chance(self.p["room"]):
            return {"do": "room_flashback"}
        if "flashback" in by_verb and self.chance(self.p["flashback"]):
            return {"do": "flashback"}
        if "continue" in by_verb:
            return {"do": "continue"}
        return _fill(passing) if passing is not None else None

    def _challenge(self, view, by_verb, reserve, may_wait):
        if "join" in by_verb:
            if self.chance(self.p["join"]) and view["tokens"][self.seat] > reserve:
                return {"do": "join"}
            return None
        if "open" in by_verb:
            # Wait once for the onlookers to join, then turn the first card.
            key = view["challenges"]
            if may_wait and self.waited != key:
                self.waited = key
                return None
            return {"do": "open"}
        if "higher" in by_verb:
            ch = view["challenge"]
            ref = cards.rank_value(ch["reference"])
            drawn = set(ch["drawn"])
            left = Counter(rank for card, rank in _RANKS if card not in drawn)
            above = sum(n for r, n in left.items() if r > ref)
            below = sum(n for r, n in left.items() if r < ref)
            return {"do": "higher" if above >= below else "lower"}
        if "quit" in by_verb:
            return {"do": "quit"}
        return None


BOTS = {"random": RandomBot, "sensible": SensibleBot}


def trace(state: dict[str, Any]) -> dict[str, Any]:
    """What :func:`figures` reads of a state between the first and the last (a copy: the
    simulation changes the state in place): tokens, bank, discard, the challenge's
    participants and bets, the last challenge (a new record each time, never changed)."""
    ch = state["challenge"]
    return {
        "tokens": dict(state["tokens"]),
        "bank": state["bank"],
        "discard": state["discard"],
        "challenge": None
        if ch is None
        else {
            "participants": list(ch["participants"]),
            "bets": dict(ch["bets"]),
            "narrator": ch["narrator"],
        },
        "last_challenge": state["last_challenge"],
    }


def figures(setup, moves, initial, states, bots_by_seat) -> dict[str, Any]:
    """One simulated game's figures (``games.simulate`` gives each its interval): length,
    turns taken per seat, narrations per seat, tokens per seat at the end and at the middle,
    bank and discard at the end and the middle, challenges, pots, joins, flashbacks,
    passes, when the memory of the room becomes possible, and for each kind of bot its
    challenges won against its fair share and the tokens it kept."""
    seats = setup.players
    final = states[-1] if states else initial
    middle = states[len(states) // 2] if states else initial
    verbs = Counter(m["do"] for m in moves)
    out: dict[str, Any] = {
        "moves": len(moves),
        "rounds": (verbs["continue"] + verbs["flashback"] + verbs["room_flashback"] + verbs["pass"])
        / len(seats),
        "scenes": verbs["continue"],
        "flashbacks": verbs["flashback"] + verbs["room_flashback"],
        "passes": verbs["pass"],
        "passes_at_cap": 0,
        "suggestions": verbs["suggest"],
        "insists": verbs["insist"],
        "refusals": verbs["refuse"],
        "joins": verbs["join"],
        "room_told": bool(final["room_flashback_told"]),
        "bank_end": final["bank"],
        "discard_end": final["discard"],
        "bank_middle": middle["bank"],
        "discard_middle": middle["discard"],
    }
    cap = setup.options["token_cap"]
    threshold = setup.options["finale_factor"] * len(seats)
    room_possible = None
    challenges = []
    wins: Counter = Counter()
    fair: Counter = Counter()
    before = initial
    narrations: Counter = Counter()
    to_narrator = 0
    for i, (move, state) in enumerate(zip(moves, states, strict=True)):
        do = move["do"]
        if do in ("continue", "flashback", "room_flashback"):
            narrations[move["by"]] += 1
        if do == "pass" and before["tokens"][move["by"]] >= cap - 1:
            out["passes_at_cap"] += 1
        if room_possible is None and state["discard"] > threshold:
            room_possible = i + 1
        if before["challenge"] is not None and state["challenge"] is None:
            last = state["last_challenge"]
            challenges.append(last["pot"])
            everyone = before["challenge"]["participants"]
            wins[bots_by_seat[last["winner"]]] += 1
            to_narrator += last["winner"] == before["challenge"]["narrator"]
            # Under equal skill each participant still in at the start would win as often:
            # counted over everyone who took part (joiners included).
            took_part = set(before["challenge"]["bets"]) | set(everyone)
            for seat in took_part:
                fair[bots_by_seat[seat]] += 1 / len(took_part)
        before = state
    # Scenes and flashbacks told before the memory of the room (the finale), when it came.
    finale = next((i for i, m in enumerate(moves) if m["do"] == "room_flashback"), None)
    if finale is not None:
        before_finale = Counter(m["do"] for m in moves[:finale])
        out["scenes_before_finale"] = before_finale["continue"]
        out["flashbacks_before_finale"] = before_finale["flashback"]
    out["challenges"] = len(challenges)
    out["pot"] = sum(challenges) / len(challenges) if challenges else None
    # Which side a challenge goes to: the narrator who was challenged, or the other side
    # (the insister or a player who joined).
    out["challenges_to_narrator"] = to_narrator / len(challenges) if challenges else None
    # Tokens kept by the players at the end, and those spent (now in the bank, the
    # discard or a pot): the start's tokens are conserved.
    start = setup.options["start_tokens"] * len(seats)
    held = sum(final["tokens"].values())
    out["tokens_kept"] = held / start if start else None
    out["tokens_spent"] = start - held
    out["room_possible_at"] = room_possible / len(moves) if room_possible and moves else None
    total = sum(final["tokens"].values())
    for index, seat in enumerate(seats, 1):
        out[f"seat{index}.tokens_end"] = final["tokens"][seat]
        out[f"seat{index}.tokens_middle"] = middle["tokens"][seat]
        out[f"seat{index}.narrations"] = narrations[seat]
    for bot in sorted(set(bots_by_seat.values())):
        mine = [s for s in seats if bots_by_seat[s] == bot]
        if challenges:
            out[f"bot.{bot}.challenge_edge"] = (wins[bot] - fair[bot]) / len(challenges)
        if total:
            kept = sum(final["tokens"][s] for s in mine) / total
            out[f"bot.{bot}.tokens_edge"] = kept - len(mine) / len(seats)
    return out


def value(state: dict[str, Any], seat: str) -> float:
    """What a seat plays for in a game nobody wins (the search bot's measure, and the lab's
    for it): its share of the tokens the players hold, which the challenges it wins bring
    in and its spending takes away (an even share while nobody holds any)."""
    tokens = state["tokens"]
    total = sum(tokens.values())
    return tokens[seat] / total if total else 1 / len(tokens)
