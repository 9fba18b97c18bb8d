"""Amnesia: the challenge (the duel of a refused suggestion): the stakes and the joins before
the first card, then higher or lower, card after card, or quitting with half one's bets, until
one player is left to take the pot."""

from __future__ import annotations

from games.amnesia.rules.checks import SCENE, Checks
from games.rules import cards
from games.rules.errors import N_, IllegalMove


class ChallengeMoves(Checks):
    def _do_stake(self, state, move):
        by = move["by"]
        ch = state["challenge"]
        if by not in (ch["narrator"], ch["insister"]):
            raise IllegalMove(
                "not_your_turn",
                N_("Only the narrator and the insisting player state the stakes."),
            )
        if ch["reference"] is not None:
            raise IllegalMove(
                "rule_violation", N_("The stakes are set before the first card is turned.")
            )

    def _do_join(self, state, move):
        by = move["by"]
        ch = state["challenge"]
        if by in (ch["narrator"], ch["insister"]):
            raise IllegalMove(
                "not_your_turn",
                N_("{by} is already a side of this challenge and cannot join it."),
                by=by,
            )
        if by in ch["joined"]:
            raise IllegalMove(
                "rule_violation", N_("{by} has already joined this challenge."), by=by
            )
        if ch["reference"] is not None:
            raise IllegalMove(
                "rule_violation", N_("No one may join once the first card is turned.")
            )
        if state["tokens"][by] < 1:
            raise IllegalMove(
                "insufficient_tokens", N_("{by} has 0 tokens and cannot join."), by=by
            )
        self._bet(state, by)
        ch["joined"].append(by)
        ch["participants"] = [p for p in state["seats"] if p in ch["participants"] or p == by]

    def _do_open(self, state, move):
        by = move["by"]
        ch = state["challenge"]
        self._require_narrator(state, by, N_("turn the first card"))
        card = self._card_for(state, move)  # field checks (bad_argument) come first
        if ch["reference"] is not None:
            raise IllegalMove("rule_violation", N_("The first card has already been turned."))
        if state["tokens"][by] < 1:
            raise IllegalMove(
                "insufficient_tokens", N_("{by} has 0 tokens and cannot open."), by=by
            )
        self._bet(state, by)
        self._draw(state, card)
        ch["reference"] = ch["drawn"][-1]
        ch["to_act"] = self.next_in(state["seats"], by, ch["participants"])

    def _do_higher(self, state, move):
        by = move["by"]
        self._guess(state, move, by, "higher")

    def _do_lower(self, state, move):
        by = move["by"]
        self._guess(state, move, by, "lower")

    def _require_to_act(self, state, by):
        """The role check of a go (not_your_turn). Before the first card only the narrator
        may act; whether the verb fits is checked after the move's fields
        (``_require_opened``)."""
        ch = state["challenge"]
        if ch["reference"] is None:
            if by == ch["narrator"]:
                return
            raise IllegalMove(
                "not_your_turn",
                N_("The narrator, {narrator}, turns the first card."),
                narrator=ch["narrator"],
            )
        if by != ch["to_act"]:
            raise IllegalMove(
                "not_your_turn", N_("It is {to_act}'s go in the challenge."), to_act=ch["to_act"]
            )

    @staticmethod
    def _require_opened(state):
        if state["challenge"]["reference"] is None:
            raise IllegalMove(
                "rule_violation", N_("Turn the first card before guessing or quitting.")
            )

    def _guess(self, state, move, by, direction):
        self._require_to_act(state, by)
        ch = state["challenge"]
        card = self._card_for(state, move)
        self._require_opened(state)
        if state["tokens"][by] < 1:
            raise IllegalMove(
                "insufficient_tokens",
                N_("{by} has 0 tokens and can only quit the challenge."),
                by=by,
            )
        self._bet(state, by)
        self._draw(state, card)
        drawn = ch["drawn"][-1]
        ref = cards.rank_value(ch["reference"])
        got = cards.rank_value(drawn)
        if got == ref and not state["options"]["tie_loses"]:
            return  # nothing decided: the same player guesses again
        hit = got > ref if direction == "higher" else got < ref
        if hit:
            ch["reference"] = drawn
            ch["to_act"] = self.next_in(state["seats"], by, ch["participants"])
        else:
            self._leave(state, by)

    def _do_quit(self, state, move):
        by = move["by"]
        self._require_to_act(state, by)
        self._require_opened(state)
        ch = state["challenge"]
        back = ch["bets"].get(by, 0) // 2
        state["pot"] -= back
        state["tokens"][by] += back
        self._leave(state, by)

    def _leave(self, state, who):
        ch = state["challenge"]
        following = self.next_in(state["seats"], who, ch["participants"])
        ch["participants"].remove(who)
        if len(ch["participants"]) == 1:
            winner = ch["participants"][0]
            won = state["pot"]
            state["tokens"][winner] += won
            state["pot"] = 0
            state["challenges"] += 1
            state["last_challenge"] = {
                "winner": winner,
                "pot": won,
                "drawn": list(ch["drawn"]),
            }
            state["challenge"] = None
            state["phase"] = SCENE
        else:
            ch["to_act"] = following

    @staticmethod
    def _bet(state, by) -> None:
        """``by`` puts one of their tokens in the pot as their bet (joining, opening, guessing;
        the caller has refused a player with none, in its own words)."""
        state["tokens"][by] -= 1
        state["pot"] += 1
        bets = state["challenge"]["bets"]
        bets[by] = bets.get(by, 0) + 1

    def _card_for(self, state, move) -> str | None:
        """The card named by the move, checked; None means 'draw one' (virtual mode)."""
        card = move.get("card")
        if card is None:
            if state["deck_mode"] == "physical":
                raise IllegalMove(
                    "bad_argument",
                    N_("With a physical deck, name the card that was turned."),
                )
            if len(state["challenge"]["drawn"]) >= 52:
                raise IllegalMove("rule_violation", N_("Every card of the deck has been turned."))
            return None
        if not cards.is_playing_card(card):
            raise IllegalMove(
                "bad_argument",
                N_("“{card}” is not a playing card (e.g. 7H, QS, 10D)."),
                card=card,
            )
        if card in state["challenge"]["drawn"]:
            raise IllegalMove(
                "rule_violation",
                N_("{card} has already been turned in this challenge."),
                card=cards.label(card),
            )
        return card

    def _draw(self, state, card: str | None) -> None:
        drawn = state["challenge"]["drawn"]
        if card is None:
            while state["stack"]:
                top = state["stack"].pop(0)
                if top not in drawn:
                    card = top
                    break
        if card is None:
            rng = cards.Rng(state["rng"])
            card = rng.choice([c for c in cards.standard_deck() if c not in drawn])
            state["rng"] = rng.state
        drawn.append(card)
