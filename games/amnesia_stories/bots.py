"""Amnesia Stories' bots for simulated plays (see ``games.simulate.bots`` for the interface).

How people read pictures is modelled, not guessed from hidden cards: every pair (adventure
text, illustration) has a public **affinity** in [0, 1), a fixed function of the two card
ids (:func:`affinity`), standing for what the table's shared culture associates with both.
A bard means, for each step of the story, the illustration the text is closest to (the best
distinct assignment of steps to slots); a listener reads the same affinities blurred by their
own noise, whose spread is ``(1 - agreement) × 0.5``: with ``agreement`` 1 everyone reads the
bard exactly, with 0 the reading is close to a guess. The bard's ``clarity`` (0 to 1) is how
obvious a story they choose: they rank the journey's cards by how far their best illustration
stands above the second best, and tell the most obvious cards (clarity 1), the most
ambiguous (0), or those in between. The changelog of draft 4 asks for a bard read by some but
not all; the sweep in ``simulate --compare`` measures where each draft pays for it.

The bots see only their view: the slots, the journey, the story told, and their own pending
answer; never the deck or anyone else's answer before the turn is judged.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from functools import lru_cache
from typing import Any

from games.amnesia_stories.rules import GAME
from games.amnesia_stories.rules.scoring import judge_step
from games.simulate.bots import Bot, Param

REFEREE = GAME


@lru_cache(maxsize=65536)
def affinity(text_card: str, picture_card: str) -> float:
    """The public affinity of an adventure text and an illustration, in [0, 1)."""
    digest = hashlib.blake2b(f"{text_card}|{picture_card}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64


def best_assignment(story: list[str], slots: dict[str, str], noise) -> list[int]:
    """The distinct slot numbers, one per step, whose summed (noisy) affinity is highest
    (the first such in the order of ``itertools.permutations`` when several tie).

    Found step by step over the sets of slots the steps so far have taken: each set keeps its
    best sum (ties: the earlier sequence), summed in the same order as a search of every
    permutation, so the answer is that search's; in ``steps × 2^slots`` where the search took
    ``slots! / (slots - steps)!`` (40,320 stories at 8 slots and 8 steps: a tenth of a second
    a bot's answer, which made a table at the largest options take minutes)."""
    numbers = sorted(int(k) for k in slots)
    rows = [[affinity(card, slots[str(n)]) + noise() for n in numbers] for card in story]
    best: dict[int, tuple[float, tuple[int, ...]]] = {0: (0.0, ())}
    for row in rows:
        reached: dict[int, tuple[float, tuple[int, ...]]] = {}
        for taken, (score, chosen) in best.items():
            for j, value in enumerate(row):
                if taken >> j & 1:
                    continue
                candidate = (score + value, (*chosen, j))
                kept = reached.get(taken | 1 << j)
                if kept is None or (-candidate[0], candidate[1]) < (-kept[0], kept[1]):
                    reached[taken | 1 << j] = candidate
        best = reached
    top = max(score for score, _chosen in best.values())
    chosen = min(chosen for score, chosen in best.values() if score == top)
    return [numbers[j] for j in chosen]


def _margin(card: str, slots: dict[str, str]) -> float:
    values = sorted((affinity(card, c) for c in slots.values()), reverse=True)
    return values[0] - values[1]


class RandomBot(Bot):
    """A bard tells distinct journey cards in a random order; everyone answers distinct
    slot numbers at random."""

    def choose(self, view, legal_moves, may_wait=False):
        template = legal_moves[0]
        if template["do"] == "tell":
            return {
                "do": "tell",
                "story": self.rng.sample(template["journey"], template["questions"]),
            }
        if template["do"] == "answer":
            picks = self.rng.sample(range(1, template["choices"] + 1), template["questions"])
            return {"do": "answer", "picks": picks}
        return None


class SensibleBot(Bot):
    """A reasonable player: as the bard, tells the journey cards as obvious as ``clarity``
    says (ranked by the gap between their best and second-best illustration), in journey
    order, and answers what they meant (the best distinct assignment, no noise); listening,
    answers the best distinct assignment of the affinities as they read them (noise of
    spread ``(1 - agreement) × 0.5``)."""

    params = {
        "agreement": Param(0.7, 0, 1, "how well listeners read the bard (1: exactly)"),
        "clarity": Param(0.5, 0, 1, "how obvious a story the bard chooses (1: the most)"),
    }

    def choose(self, view, legal_moves, may_wait=False):
        template = legal_moves[0]
        if template["do"] == "tell":
            return {"do": "tell", "story": self._story(view, template)}
        if template["do"] == "answer":
            if view["bard"] == self.seat:
                picks = best_assignment(view["story"], view["selection"], lambda: 0.0)
            else:
                spread = (1 - self.p["agreement"]) * 0.5
                picks = best_assignment(
                    view["story"], view["selection"], lambda: self.rng.gauss(0, spread)
                )
            return {"do": "answer", "picks": picks}
        return None

    def _story(self, view, template) -> list[str]:
        journey = template["journey"]
        q = template["questions"]
        ranked = sorted(journey, key=lambda c: (-_margin(c, view["selection"]), c))
        start = round((1 - self.p["clarity"]) * (len(ranked) - q))
        chosen = set(ranked[start : start + q])
        return [c for c in journey if c in chosen]


BOTS = {"random": RandomBot, "sensible": SensibleBot}


def trace(state: dict[str, Any]) -> dict[str, Any]:
    """What :func:`figures` reads of a state before the last: nothing (the last state's
    history holds every judged turn)."""
    return {}


def figures(setup, moves, initial, states, bots_by_seat) -> dict[str, Any]:
    """One simulated game's figures: length, wins by seat and draws, the winner's margin,
    the spread of final VP, the bard's share of the points, steps where everyone, some or no
    one matched, red cards and their penalty, set bonuses, and each kind of bot's share of the
    wins against its share of the seats."""
    seats = setup.players
    final = states[-1] if states else initial
    opts = setup.options
    out: dict[str, Any] = {"moves": len(moves), "rounds": final["round"]}
    history = final["history"]
    steps = Counter()
    bard_points = 0
    all_points = 0
    set_bonuses = 0
    for turn in history:
        picks = turn["picks"]
        bard = turn["bard"]
        told = picks[bard]
        for step in range(len(told)):
            _g, _r, outcome = judge_step(
                opts, bard, {p: picks[p][step] for p in picks}, climax=step == len(told) - 1
            )
            steps[outcome] += 1
        bard_points += turn["gains"][bard]
        all_points += sum(turn["gains"].values())
        set_bonuses += sum(1 for p in picks if p != bard and set(picks[p]) == set(told))
    total_steps = sum(steps.values())
    out["steps_all_matched"] = steps["all"] / total_steps if total_steps else None
    out["steps_none_matched"] = steps["none"] / total_steps if total_steps else None
    # Read by some but not all: what draft 4's changelog asks of a bard.
    out["steps_some_matched"] = steps["some"] / total_steps if total_steps else None
    out["bard_share"] = bard_points / all_points if all_points else None
    out["set_bonuses"] = set_bonuses
    out["red_cards"] = sum(final["red_cards"].values())
    out["red_penalty"] = sum(final["penalty"].values())
    out.update(lead_figures(seats, history, final))
    if final["finished"]:
        vp = sorted(final["vp"].values(), reverse=True)
        out["draw"] = len(final["winners"]) > 1
        out["margin"] = vp[0] - vp[1]
        out["vp_spread"] = vp[0] - vp[-1]
        for index, seat in enumerate(seats, 1):
            out[f"seat{index}.wins"] = (seat in final["winners"]) / len(final["winners"])
            out[f"seat{index}.vp"] = final["vp"][seat]
    return out


def lead_figures(seats: list[str], history: list[dict[str, Any]], final: dict[str, Any]):
    """How the lead moves over the judged turns (points gained so far; the red cards'
    penalty comes at the end): how often one player takes the lead from another, and
    whether a player behind at half-time (not among the leaders after half the turns)
    ends among the winners. Real tables' logs give the same figures (``questions``)."""
    out: dict[str, Any] = {"lead_changes": 0}
    points = dict.fromkeys(seats, 0)
    leader: str | None = None
    at_half: set[str] | None = None
    half = len(history) // 2
    for number, turn in enumerate(history, 1):
        for seat in seats:
            points[seat] += turn["gains"].get(seat, 0)
        best = max(points.values())
        leaders = [s for s in seats if points[s] == best]
        if len(leaders) == 1:
            if leader is not None and leaders[0] != leader:
                out["lead_changes"] += 1
            leader = leaders[0]
        if number == half:
            at_half = set(leaders)
    if final["finished"] and at_half is not None and len(history) >= 2:
        out["behind_at_half_wins"] = any(w not in at_half for w in final["winners"])
    return out


def value(state: dict[str, Any], seat: str) -> float:
    """What a seat plays for (the search bot's measure): half its share of the win once the
    game is over, half its VP against the leader's."""
    vp = state["vp"]
    top = max(vp.values())
    ahead = vp[seat] / top if top > 0 else 1.0
    if not state["finished"]:
        return ahead
    winners = state.get("winners") or []
    win = 1 / len(winners) if seat in winners else 0.0
    return 0.5 * win + 0.5 * ahead
