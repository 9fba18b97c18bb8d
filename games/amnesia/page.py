"""What the Amnesia table page shows, beyond what every table page has."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.amnesia.rules import GAME
from games.facing import Facing
from games.models import Table
from games.presenters import card_grid, card_info, seat_links, shown_value, who_may

# Labels the new-table form shows for the options (the referee's own help is English only).
OPTION_LABELS = {
    "start_tokens": _("Tokens per player at the start"),
    "token_cap": _("A pass may take tokens only while you end below"),
    "pass_at_cap": _(
        "A player at or above that number: refuse their pass, or allow it taking nothing"
    ),
    "finale_factor": _("The room can be remembered once the discard exceeds this × players"),
    "tie_loses": _("A card of the same rank loses the challenge (off: guess again)"),
}
VALUE_LABELS = {
    "pass_at_cap": {
        "refuse": _("refuse the pass"),
        "allow": _("allow it, taking nothing"),
    },
}

# The phase badge's words (the referee's codes are for scripts, never for people).
PHASES = {
    "turn": _("a turn"),
    "scene": _("a scene"),
    "insist": _("a paid suggestion"),
    "challenge": _("a challenge"),
    "ended": _("the end"),
}


def context(snap: Facing) -> dict[str, Any]:
    table, state, legal = snap.table, snap.view, snap.legal
    threshold = GAME.finale_threshold(state)
    ch = state.get("challenge")
    seats = [
        {
            "name": name,
            "tokens": state["tokens"][name],
            "on_turn": name == state["turn"],
            "narrating": name == state["narrator"],
            "in_challenge": bool(ch and name in ch["participants"]),
            "bet": (ch or {}).get("bets", {}).get(name, 0) if ch else 0,
            "to_act": bool(ch and ch.get("to_act") == name),
        }
        for name in state["seats"]
    ]
    last = snap.last_move
    insist_text = ""
    if state.get("insist") and last is not None and last.payload.get("do") == "insist":
        insist_text = last.text
    # The challenge was settled by the very last move: say who won, once.
    just_settled = bool(
        last is not None
        and state["phase"] == "scene"
        and last.payload.get("do") in ("higher", "lower", "quit")
        and state.get("last_challenge")
    )
    return {
        "narration_back": narration_back(snap),
        "phase_label": PHASES.get(state["phase"], state["phase"]),
        "seats": seats,
        "finale": {
            "discard": state["discard"],
            "needed": threshold + 1,
            "open": state["discard"] > threshold,
            "percent": min(100, round(100 * state["discard"] / (threshold + 1))),
        },
        "turn_moves": legal.get(state["turn"], {}) if state.get("turn") else {},
        "narrator_moves": legal.get(state["narrator"], {}) if state.get("narrator") else {},
        "suggesters": who_may(legal, "suggest"),
        "insisters": who_may(legal, "insist"),
        "stakers": who_may(legal, "stake"),
        "joiners": who_may(legal, "join"),
        "can_end_story": bool(who_may(legal, "end_story")),
        "insist_text": insist_text,
        "challenge": ch,
        "reference": card_info(ch["reference"]) if ch else None,
        "to_act_moves": legal.get(ch["to_act"], {}) if ch and ch.get("to_act") else {},
        "grid": card_grid(ch["drawn"] if ch else []),
        "last_challenge": state.get("last_challenge"),
        "just_settled": just_settled,
        "physical": table.deck_mode == Table.DeckMode.PHYSICAL,
        # Every seat's page from the table page too, as the contest's: the join screen is for
        # the projector, and a game master with one screen copies a link from here.
        "seat_links": seat_links(table, "amnesia:seat"),
    }


def narration_back(snap: Facing) -> str:
    """The narration of an "End the scene" just undone, for the box it came from: the undo
    reopens the scene, and its text comes back into the box (until something is typed there,
    which the table keeps as its draft)."""
    table, state = snap.table, snap.view
    if state["phase"] != "scene" or table.draft or not snap.recent_rows:
        return ""
    last = snap.recent_rows[0]
    if last.kind != last.Kind.UNDO or last.undoes is None:
        return ""
    undone = next((m for m in snap.recent_rows if m.seq == last.undoes), None)
    if undone is None:
        undone = table.moves.filter(seq=last.undoes).first()
    if undone is None or undone.payload.get("do") != "end_scene":
        return ""
    return undone.text


def story_part(snap: Facing, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Some entries of the story so far, for its template part (``amnesia/_story.html``)."""
    return {"story": entries}


# The built-in ruleset: the rules of the Portuguese seed as the app plays them by default.
RULESETS = (
    {
        "name": "Amnesia: second version",
        "label": _("Amnesia: second version"),
        "options": {},
        "changelog": "The rules of the Portuguese seed, second version: 10 tokens each, "
        "a pass takes tokens while below 10, the room may be remembered once the discard "
        "exceeds twice the players, a tie in a challenge loses.",
        "changelog_label": _(
            "The rules of the Portuguese seed, second version: 10 tokens each, "
            "a pass takes tokens while below 10, the room may be remembered once the discard "
            "exceeds twice the players, a tie in a challenge loses."
        ),
    },
)


def describe_move(move: dict[str, Any]) -> str:
    """One sentence for what a move did (the live region's announcement, the undo's
    question); "" for a verb this page does not know (the generic sentence then)."""
    by = move.get("by", "")
    do = move.get("do")
    card = move.get("card")
    sentences = {
        "continue": _("%(by)s continues the story and narrates a scene."),
        "flashback": _("%(by)s tells a memory."),
        "room_flashback": _("%(by)s remembers the room: the finale opens."),
        "pass": _("%(by)s passes."),
        "end_story": _("The story ends."),
        "suggest": _("%(by)s makes a suggestion."),
        "insist": _("%(by)s pays to insist on a suggestion."),
        "end_scene": _("%(by)s ends the scene."),
        "accept": _("%(by)s accepts the suggestion."),
        "refuse": _("%(by)s refuses: a challenge."),
        "stake": _("%(by)s states the stakes."),
        "join": _("%(by)s joins the challenge."),
        "open": _("%(by)s turns the first card."),
        "higher": _("%(by)s guesses higher."),
        "lower": _("%(by)s guesses lower."),
        "quit": _("%(by)s quits the challenge."),
    }
    sentence = sentences.get(do)
    if sentence is None:
        return ""
    said = str(sentence) % {"by": by}
    if isinstance(card, str) and card:
        said += " " + _("Card: %(card)s.") % {"card": shown_value("card", card)}
    return said
