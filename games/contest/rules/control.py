"""Contest: who tells the story. Taking control of it (a face card, two drinks, a plot card
and its reward), and the pretzels thrown at the narrator and eaten (``shared/referee/contest.md``).
A mixin of ``ContestGame`` (``games/contest/rules/__init__.py``), as ``play`` and ``options``."""

from __future__ import annotations

from typing import Any

from games.contest.rules.checks import FIELD_WORDS, _choice, _fail
from games.contest.rules.core import (
    State,
    discard,
    draw,
    drink,
    event,
    is_face,
    label,
    put_out,
    refresh,
    set_controller,
    who,
)
from games.rules import cards as C
from games.rules.arguments import require_int
from games.rules.errors import N_


class ContestControl:
    """The story's control and the pretzels: the ``_do_<verb>`` handlers of ``take_control``,
    ``throw_pretzel`` and ``eat_pretzels``."""

    _require_option: Any

    def _do_take_control(self, state: State, move: dict) -> None:
        by = move["by"]
        if by == state["controller"]:
            raise _fail("not_your_turn", N_("{by} already controls the story."), by=by)
        how = _choice(move, "with", ("face_card", "drinks", "plot_card"))
        p = state["players"][by]
        if how == "drinks":
            drink(state, by, 2)
            set_controller(state, by, how)
            return
        card = move.get("card")
        if not isinstance(card, str):
            raise _fail("bad_argument", N_("Choose the card you play."))
        reward = None
        if how == "plot_card":
            reward = move.get("reward")
            if reward not in (None, "card", "pretzels"):
                raise _fail(
                    "bad_argument",
                    N_("Choose the reward: a lost card back, two pretzels removed, or none."),
                )
            self._require_option(state, "plot_cards", "plot cards")
            if card not in C.TAROT_MAJOR:
                raise _fail("rule_violation", N_("{card} is not a major arcana."), card=label(card))
        elif not is_face(card):
            raise _fail("rule_violation", N_("{card} is not a face card."), card=label(card))
        if p["hand"] is not None and card not in p["hand"]:
            raise _fail("rule_violation", N_("{by} does not hold {card}."), by=by, card=label(card))
        if reward == "card" and not p["lost"]:
            raise _fail("rule_violation", N_("{by} has no lost card to get back."), by=by)
        if reward == "pretzels" and not p["pretzels"]:
            raise _fail("rule_violation", N_("{by} has no pretzels to remove."), by=by)
        if p["hand"] is not None:
            p["hand"].remove(card)
            discard(state, [card])
            new = draw(state)
            if new is not None:
                p["hand"].append(new)
        set_controller(state, by, how, card)
        if reward == "card":
            back = p["lost"].pop()
            if p["hand"] is not None:
                p["hand"].append(back)
            else:
                p["hand_count"] += 1
            event(
                state, "reward", f"{who(state, by)} gets {label(back)} back.", player=by, card=back
            )
        elif reward == "pretzels":
            gone = min(2, p["pretzels"])
            p["pretzels"] -= gone
            event(state, "reward", f"{who(state, by)} removes {gone} pretzel(s).", player=by)
        refresh(state, by)

    def _do_throw_pretzel(self, state: State, move: dict) -> None:
        by = move["by"]
        target = state["controller"]
        if by == target:
            raise _fail("not_your_turn", N_("The narrator cannot throw pretzels at themselves."))
        if by in state["throwers"]:
            raise _fail(
                "rule_violation",
                N_("{by} already threw a pretzel at {target} this turn."),
                by=by,
                target=target,
            )
        state["throwers"].append(by)
        q = state["players"][target]
        q["pretzels"] += 1
        event(
            state,
            "pretzel",
            f"{by} throws a pretzel at {who(state, target)} ({q['pretzels']} now).",
            player=by,
            target=target,
        )
        if q["pretzels"] >= state["options"]["pretzel_limit"]:
            if state["phase"] == "response":
                state["contest"] = None
                state["phase"] = "story"
                event(state, "void", "The challenger dropped out: the challenge is void.")
            put_out(state, target, "pretzels")

    def _do_eat_pretzels(self, state: State, move: dict) -> None:
        by = move["by"]
        count = require_int(move, "count", 1, what=FIELD_WORDS["count"])
        p = state["players"][by]
        limit = state["options"]["eat_limit"]
        if p["bfa"]:
            limit = max(6, limit)
        if count > p["pretzels"]:
            raise _fail(
                "rule_violation",
                N_("{by} has only {pretzels} pretzel(s) to eat."),
                by=by,
                pretzels=p["pretzels"],
            )
        if p["eaten"] + count > limit:
            raise _fail(
                "rule_violation",
                N_("{by} may eat {limit} pretzels in a game and has eaten {eaten} already."),
                by=by,
                limit=limit,
                eaten=p["eaten"],
            )
        p["pretzels"] -= count
        p["eaten"] += count
        event(state, "eat", f"{who(state, by)} eats {count} pretzel(s).", player=by, count=count)
