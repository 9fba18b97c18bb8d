"""What the Amnesia Stories table page shows, beyond what every table page has.

Everything here starts from ``view(state, None)``: the game master's screen is seen by the
whole table, so it never holds a pending pick. Picks appear only in judged turns
(``last_turn``, ``history`` and the judged stories of ``narrative()``), and of a judged turn
only what the table has opened of its reveal: ``context`` shows the view and the narrative
through the reveal's filter (``games.amnesia_stories.reveal``).

It draws on its neighbours: ``card_faces`` (a card as a page shows it), ``players`` (the
order the laptop passes in, the scores); the options' labels, the presets and the built-in
rulesets live in ``options``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games import presenters
from games.amnesia_stories import reveal as reveal_state
from games.amnesia_stories import timer as answer_timer
from games.amnesia_stories.area_texts import AREA_IDS
from games.amnesia_stories.card_faces import card_lookup, pick_text, slots_of, text_language
from games.amnesia_stories.modes import answers_on_phones
from games.amnesia_stories.players import (
    by_turn_start,
    earlier_rounds,
    next_to_answer,
    pass_order,
    positions,
    score_by_turn,
    scoreboard,
    standings,
)
from games.facing import Facing
from games.models import Table
from games.story import Slice


# -- the reveal of a judged turn --------------------------------------------------------------
def reveal(
    turn: dict[str, Any],
    selection: dict[str, str],
    options: dict[str, Any],
    card,
    count: int | None = None,
) -> dict[str, Any]:
    """A judged turn step by step: the bard's pick, who matched, the points and red cards.

    Only the first ``count`` steps (all of them when None) carry their result; a step not
    opened yet carries its number and the story's text, nothing it gave. The last step of
    the reveal is the turn's total (the set bonus is what the turn gave beyond the steps).
    The per-step figures come from the referee's ``judge_step`` (the last step is the climax).
    """
    total = reveal_state.step_count(turn)
    count = total if count is None else max(0, min(count, total))
    bard = turn["bard"]
    picks = turn["picks"]
    names = list(picks)
    audience = [p for p in names if p != bard]
    step_totals = dict.fromkeys(names, 0)
    steps = []
    results = reveal_state.step_results(turn, options)
    for i, story_card in enumerate(turn["story"]):
        gains, reds, outcome = results[i]
        for p in names:
            step_totals[p] += gains[p]
        if i >= count:
            steps.append({"n": i + 1, "card": card(story_card), "open": False})
            continue
        bard_pick = picks[bard][i]
        matched = [p for p in audience if picks[p][i] == bard_pick]
        steps.append(
            {
                "n": i + 1,
                "open": True,
                "card": card(story_card),
                "bard_pick": bard_pick,
                "bard_slot": card(selection[str(bard_pick)])
                if str(bard_pick) in selection
                else None,
                "outcome": outcome,
                "bard_points": gains[bard],
                "red": reds[bard],
                "matched": matched,
                "rows": [
                    {
                        "name": p,
                        "pick": picks[p][i],
                        "matched": picks[p][i] == bard_pick,
                        "points": gains[p],
                    }
                    for p in audience
                ],
            }
        )
    done = count >= total
    shown = {
        "turn": turn["turn_number"],
        "bard": bard,
        "steps": steps,
        "opened": count,
        "total": total,
        # the questions only (the last step, Σ, is the turn's total, not a question)
        "questions": len(turn["story"]),
        "questions_open": min(count, len(turn["story"])),
        "done": done,
        # the next step to open (its number; the total's is ``total``), None once all are
        "next": None if done else count + 1,
        "total_open": done,
        "bonus": [],
        "gains": [],
        "bard_picks": [s["bard_pick"] for s in steps if s["open"]],
    }
    if done:
        shown["bonus"] = [
            {"name": p, "points": turn["gains"][p] - step_totals[p]}
            for p in audience
            if turn["gains"][p] - step_totals[p] > 0
        ]
        shown["gains"] = [
            {"name": p, "points": turn["gains"][p], "red": turn["red_cards"][p]} for p in names
        ]
    return shown


def marked_slots(selection: dict[str, str], shown: dict[str, Any], card) -> list[dict[str, Any]]:
    """The judged turn's slots, each with the opened steps the bard matched to it."""
    slots = slots_of(selection, card)
    for slot in slots:
        slot["steps"] = [
            s["n"] for s in shown["steps"] if s["open"] and s["bard_pick"] == slot["n"]
        ]
    return slots


# -- the narrative ----------------------------------------------------------------------------
def tales(entries: list[dict[str, Any]], card) -> list[dict[str, Any]]:
    """Each bard's story with its cards' texts in the page's language and, beside each step
    whose result is shown, the slot picture the bard matched it to and who matched the bard.

    The journey card's own picture is never shown: at the table it lies text side up, and the
    picture the story is about is the illustration chosen for the step. ``entries`` come
    filtered (``reveal.shown_narrative``): a turn under reveal has picks for its opened steps
    only, and no gains yet."""
    lang = text_language()
    out = []
    for entry in entries:
        picks = entry.get("picks") or {}
        bard_picks = picks.get(entry["bard"]) or []
        selection = entry.get("selection") or {}
        audience = [p for p in picks if p != entry["bard"]]
        cards = []
        for k, c in enumerate(entry["cards"]):
            info = {"n": k + 1, "id": c["id"], "text": pick_text(c["texts"], lang)}
            info["text"] = info["text"] or card(c["id"])["text"]
            slot = bard_picks[k] if k < len(bard_picks) else None
            info["slot"] = slot
            info["picture"] = (
                card(selection[str(slot)]) if slot is not None and str(slot) in selection else None
            )
            info["matched"] = (
                [p for p in audience if k < len(picks[p]) and picks[p][k] == slot]
                if slot is not None
                else []
            )
            cards.append(info)
        gains = None
        if entry["judged"]:
            gains = [{"name": p, "points": v} for p, v in entry["gains"].items()]
        out.append(
            {
                "turn": entry["turn"],
                "round": entry["round"],
                "bard": entry["bard"],
                "cards": cards,
                "text": entry["text"],
                "judged": entry["judged"],
                "revealing": entry.get("revealing", False),
                "gains": gains,
                "seqs": entry.get("seqs", []),
            }
        )
    return out


def safe_log(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The move log without any pick: an answer shows only who answered."""
    rows = []
    for row in log:
        row = dict(row)
        if row.get("do") == "answer":
            row["fields"] = {}
        rows.append(row)
    return rows


# -- physical deck ----------------------------------------------------------------------------
def undealt(table: Table, seen: dict[str, Any]) -> list[str]:
    """The cards the bard may deal now. When what is left cannot make a journey, the table
    puts its discard (the finished selection with it) under the deck, as the rules say."""
    ids = table.extra.get("area_ids") or list(AREA_IDS)
    dealt = set(seen["discard"]) | set(seen["selection"].values()) | set(seen["journey"])
    left = [c for c in ids if c not in dealt]
    if seen["turn_number"] > 1 and len(left) < seen["options"]["choices"]:
        on_table = set(seen["journey"])  # the next slots
        left += [c for c in ids if c in dealt and c not in on_table]
    return left


# -- the page ---------------------------------------------------------------------------------
# The stories the table page draws (the kept tail holds more); one round of eight players.
TALES_SHOWN = 8


def context(snap: Facing) -> dict[str, Any]:
    table = snap.table
    legal = snap.legal
    # The view never holds a pending pick; the reveal's filter takes out what the opened
    # steps have not shown yet (scores, points by turn, winners: games.amnesia_stories.reveal).
    judged = reveal_state.on_screen(snap.view)
    opened = reveal_state.opened(table, judged)
    seen = reveal_state.shown_view(snap.view, opened)
    revealing = seen["revealing"]
    card = card_lookup(table)
    opts = seen["options"]
    phase = seen["phase"]
    # the last stories (the page's, and the open turn's), the judged turn's as far as opened
    entries = reveal_state.shown_narrative(snap.story_tail.entries, judged, opened)
    by_turn = {e["turn"]: e for e in entries}
    shown_reveal = None
    reveal_slots = None
    if judged is not None:
        entry = by_turn.get(judged["turn_number"])
        selection = entry["selection"] if entry else seen["selection"]
        shown_reveal = reveal(judged, selection, opts, card, opened)
        if revealing:
            # The room still looks at the slots the turn was played with, not the next ones.
            reveal_slots = marked_slots(selection, shown_reveal, card)
    # The seats' positions serve the answer phase only (who answers next, on which phone);
    # not reading them otherwise keeps a judging move's answer, which reads the reveal's
    # progress instead, within the same few queries.
    where = positions(table) if phase == "answer" else {}
    waiting = (
        [n for n in pass_order(seen) if n not in seen["answered"]] if phase == "answer" else []
    )
    next_name = next_to_answer(seen)
    deal = None
    if phase == "deal" and not revealing:
        available = [card(c) for c in undealt(table, seen)]
        deal = {
            "available": available,
            "slots": range(1, opts["choices"] + 1) if seen["turn_number"] == 1 else None,
            "journey": range(1, opts["choices"] + 1),
        }
    # The page draws the last TALES_SHOWN stories (a bard's story is heavy: cards, pictures,
    # who matched); the earlier ones load on demand through the generic link.
    tail = snap.story_tail
    cut = max(0, len(entries) - TALES_SHOWN)
    shown_entries = entries[cut:]
    return {
        # the generic page's names for the state and the story, filtered the same way
        "state": seen,
        "story": shown_entries,
        "story_earlier": presenters.story_earlier_url(
            table, Slice(shown_entries, tail.start + cut)
        ),
        "answer_timer": answer_timer.info(table, seen, snap.story_tail.entries),
        "timer_seconds": answer_timer.seconds_of(table),
        "seen": seen,
        "opts": opts,
        "physical": table.deck_mode == Table.DeckMode.PHYSICAL,
        # the header links the projector's own page: no toggle among the tools
        "no_projector_toggle": True,
        "on_phones": answers_on_phones(table),
        "custom_deck": table.extra.get("area_ids") is not None,
        "slots": slots_of(seen["selection"], card),
        "journey": [card(c) for c in seen["journey"]],
        "steps": range(1, opts["questions"] + 1),
        "numbers": range(1, opts["choices"] + 1),
        "current_story": [card(c) for c in seen["story"]],
        "current_text": (by_turn.get(seen["turn_number"]) or {}).get("text", "")
        if phase == "answer"
        else "",
        "board": scoreboard(seen),
        "standings": standings(seen) if seen.get("finished") and not revealing else [],
        "draw": len(seen.get("winners", [])) > 1,
        # the last rounds' turns; all of them only on a page that asks (a callable: the
        # template calls it only then)
        "by_turn": score_by_turn(seen, by_turn_start(seen)),
        "by_turn_all": lambda: score_by_turn(seen),
        "by_turn_earlier": earlier_rounds(seen),
        "reveal": shown_reveal,
        "revealing": revealing,
        "reveal_slots": reveal_slots,
        "waiting": [{"name": n, "position": where.get(n)} for n in waiting],
        "next_name": next_name,
        "next_position": where.get(next_name) if next_name else None,
        "tales": tales(shown_entries, card),
        # the turns whose story the page draws (a points-by-turn row links to its story)
        "tale_turns": {e["turn"] for e in shown_entries},
        "log": safe_log(presenters.recent_log(snap)),
        "deal": deal,
        "bard_moves": legal.get(seen["bard"], {}) if seen.get("bard") else {},
    }


def story_part(snap: Facing, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Some of the bards' stories, for ``amnesia_stories/_tales.html``."""
    return {"tales": tales(entries, card_lookup(snap.table))}


def describe_move(move: dict[str, Any]) -> str:
    """One sentence for what a move did (the live region, the undo's question). It names
    no pick and no point: the reveal shows those step by step."""
    sentences = {
        "deal": _("The journey cards are on the table."),
        "tell": _("%(by)s tells the journey."),
        "answer": _("%(by)s has answered."),
    }
    sentence = sentences.get(move.get("do"))
    return str(sentence) % {"by": move.get("by", "")} if sentence is not None else ""
