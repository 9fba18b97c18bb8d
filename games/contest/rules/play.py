"""Contest: the moves of a contest (answer, play, forfeit) and of paying penalties."""

from __future__ import annotations

from games.contest.rules.checks import FIELD_WORDS, Checks, _choice, _fail, _flag, _penalty_list
from games.contest.rules.core import (
    ATTRIBUTES,
    PENALTIES,
    State,
    check_unseen,
    discard,
    drink,
    event,
    hand_count,
    label,
    lose_card,
    pay,
    refresh,
    who,
)
from games.contest.rules.flow import (
    announce,
    final_result,
    finish_contest,
    note_penalty,
    other,
    play_card,
    settle,
    side,
    snapshot,
    start_round,
)
from games.rules.arguments import require_int
from games.rules.errors import N_


class ContestPlay(Checks):
    @staticmethod
    def _answering(state: State, by: str) -> dict:
        """The contest, once ``by`` is checked to be the challenged player who answers it."""
        contest = state["contest"]
        if by != contest["defender"]:
            raise _fail(
                "not_your_turn",
                N_("Only {defender} may answer the challenge."),
                defender=contest["defender"],
            )
        return contest

    # -- a contest -------------------------------------------------------------------------------
    def _do_accept(self, state: State, move: dict) -> None:
        by = move["by"]
        contest = self._answering(state, by)
        attribute = _choice(move, "attribute", ATTRIBUTES)
        contest["attributes"][by] = attribute
        event(
            state,
            "accept",
            f"{who(state, by)} accepts with {attribute}.",
            player=by,
            attribute=attribute,
        )
        start_round(state)

    def _do_refuse(self, state: State, move: dict) -> None:
        by = move["by"]
        self._answering(state, by)
        penalties = _penalty_list(move, 2)
        members = side(state, by)
        named = self._physical_cards(state, move, penalties.count("card") * len(members))
        event(
            state,
            "refusal",
            f"{who(state, by)} refuses the challenge and pays {' and '.join(penalties)}.",
            player=by,
            penalties=penalties,
        )
        state["contest"] = None
        state["phase"] = "story"
        for name in members:
            pay(state, name, penalties, named)

    def _do_forfeit(self, state: State, move: dict) -> None:
        by = move["by"]
        contest = state["contest"]
        if by not in (contest["challenger"], contest["defender"]) or (
            state["phase"] == "response" and by != contest["defender"]
        ):
            raise _fail("not_your_turn", N_("Only a contestant may forfeit this contest."))
        penalty = _choice(move, "penalty", PENALTIES)
        members = side(state, by)
        named = self._physical_cards(state, move, len(members) if penalty == "card" else 0)
        if state["phase"] == "contest":
            if contest["extended"]:
                raise _fail("rule_violation", N_("In an extended contest, give up instead."))
            if by in contest["played"]:
                raise _fail("rule_violation", N_("{by} has already played a card."), by=by)
        announce(state, other(contest, by), by, "forfeit")
        state["last_contest"] = snapshot(contest)
        state["contests"] += 1
        state["after_penalty"] = "result"
        for name in members:
            note_penalty(state, name, pay(state, name, [penalty], named))
        if state["finished"]:
            return
        if state["phase"] == "response":
            state["after_penalty"] = None
            state["contest"] = None
            state["phase"] = "story"
            event(
                state,
                "contest",
                f"The contest '{contest['kind']}' is over: {contest['winner']} won.",
                contest=dict(state["last_contest"]),  # as finish_contest's record
            )
            return
        state["phase"] = "penalty"
        settle(state)

    def _do_play(self, state: State, move: dict) -> None:
        by = move["by"]
        contest = state["contest"]
        if by not in (contest["challenger"], contest["defender"]) or by in contest["played"]:
            raise _fail("not_your_turn", N_("{by} has no card to play now."), by=by)
        card = move.get("card")
        if not isinstance(card, str):
            raise _fail("bad_argument", N_("Choose the card you play."))
        virtual = state["deck_mode"] == "virtual"
        draws = None
        if "draws" in move:
            if virtual:
                raise _fail("bad_argument", N_("The referee draws the cards in virtual mode."))
            draws = move["draws"]
            if not isinstance(draws, list) or not all(isinstance(d, str) for d in draws):
                raise _fail(
                    "bad_argument", N_("Name the cards drawn by their codes (e.g. 7H, QS).")
                )
        elif not virtual:
            draws = []
        ham = require_int(move, "ham", 0, 20, FIELD_WORDS["ham"]) if "ham" in move else 0
        word = _flag(move, "word", False)
        if ham:
            self._require_option(state, "hamming_it_up", "hamming it up")
        if word:
            self._require_option(state, "word_bonus", "word bonus")
        if virtual:
            if card not in state["players"][by]["hand"]:
                raise _fail(
                    "rule_violation", N_("{by} does not hold {card}."), by=by, card=label(card)
                )
        else:
            if hand_count(state, by) <= 0:
                raise _fail("rule_violation", N_("{by} has no card in hand."), by=by)
            for code in [card] + draws:
                check_unseen(state, code)
            if len(set([card] + draws)) != len(draws) + 1:
                raise _fail("rule_violation", N_("The same card is named twice."))
        play_card(state, by, card, draws, ham, word)

    def _do_give_up(self, state: State, move: dict) -> None:
        by = move["by"]
        contest = state["contest"]
        if by not in (contest["challenger"], contest["defender"]):
            raise _fail("not_your_turn", N_("Only a contestant may give up."))
        if not contest["extended"]:
            raise _fail(
                "rule_violation", N_("Only an extended contest can be given up; forfeit instead.")
            )
        event(state, "give_up", f"{who(state, by)} gives up.", player=by)
        final_result(state, by, "give_up")

    # -- penalties -----------------------------------------------------------------------------
    def _owing(self, state: State, by: str) -> None:
        if by not in state["owed"]:
            raise _fail("not_your_turn", N_("{by} owes no penalty now."), by=by)

    def _paid(self, state: State, by: str, record: list[str]) -> None:
        if by in state["owed"]:
            state["owed"][by] -= 1
            if state["owed"][by] <= 0:
                del state["owed"][by]
        note_penalty(state, by, record)
        settle(state)

    def _do_drink(self, state: State, move: dict) -> None:
        by = move["by"]
        self._owing(state, by)
        drink(state, by)
        self._paid(state, by, ["drink"])

    def _do_lose_card(self, state: State, move: dict) -> None:
        by = move["by"]
        self._owing(state, by)
        card = move.get("card")
        if card is not None and not isinstance(card, str):
            raise _fail("bad_argument", N_("Name the card by its code (e.g. 7H, QS)."))
        if card is None and state["deck_mode"] == "physical":
            raise _fail("bad_argument", N_("Name the card that is lost."))
        self._paid(state, by, [lose_card(state, by, card)])

    def _do_swap_joker(self, state: State, move: dict) -> None:
        by = move["by"]
        swap = state["swap"]
        if not swap or by != swap["player"]:
            raise _fail("not_your_turn", N_("{by} has no joker to take."), by=by)
        card = move.get("card")
        if not isinstance(card, str):
            raise _fail("bad_argument", N_("Choose the card you give up."))
        p = state["players"][by]
        contest = state["contest"]
        if p["hand"] is not None:
            if card not in p["hand"]:
                raise _fail(
                    "rule_violation", N_("{by} does not hold {card}."), by=by, card=label(card)
                )
            p["hand"].remove(card)
            discard(state, [card])
            p["hand"].append(swap["joker"])
        contest["cards"][contest["winner"]].remove(swap["joker"])
        contest["joker_swap"] = {"player": by, "gave": card, "joker": swap["joker"]}
        state["swap"] = None
        event(
            state,
            "swap",
            f"{who(state, by)} discards {label(card)} and takes the joker into hand.",
            player=by,
            card=card,
        )
        settle(state)

    def _do_heal(self, state: State, move: dict) -> None:
        by = move["by"]
        contest = state["contest"]
        if by != contest["winner"]:
            raise _fail(
                "not_your_turn",
                N_("Only {winner}, the winner, may heal."),
                winner=contest["winner"],
            )
        choice = _choice(move, "choice", ("pretzel", "card", "none"))
        p = state["players"][by]
        if choice == "pretzel":
            if not p["pretzels"]:
                raise _fail("rule_violation", N_("{by} has no pretzel to remove."), by=by)
            p["pretzels"] -= 1
            event(state, "heal", f"{who(state, by)} removes a pretzel.", player=by, choice=choice)
        elif choice == "card":
            if not p["lost"]:
                raise _fail("rule_violation", N_("{by} has no lost card to get back."), by=by)
            back = p["lost"].pop()
            if p["hand"] is not None:
                p["hand"].append(back)
            else:
                p["hand_count"] += 1
            refresh(state, by)
            event(
                state,
                "heal",
                f"{who(state, by)} gets {label(back)} back.",
                player=by,
                choice=choice,
            )
        finish_contest(state)
