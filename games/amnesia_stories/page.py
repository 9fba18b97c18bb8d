"""What the Amnesia Stories table page shows, beyond what every table page has.

Everything here starts from ``view(state, None)``: the game master's screen is seen by the
whole table, so it never holds a pending pick. Picks appear only in judged turns
(``last_turn``, ``history`` and the judged stories of ``narrative()``), and of a judged turn
only what the table has opened of its reveal: ``context`` shows the view and the narrative
through the reveal's filter (``games.amnesia_stories.reveal``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from amnesia_site import lists
from games import presenters
from games.addresses import address
from games.amnesia_stories import reveal as reveal_state
from games.amnesia_stories import timer as answer_timer
from games.amnesia_stories.area_texts import AREA_IDS, area_scene, area_text
from games.amnesia_stories.decks import table_cards
from games.amnesia_stories.modes import answers_on_phones
from games.facing import Facing
from games.models import Seat, Table
from games.story import Slice

# Labels the new-table form shows for the options (the referee's own help is English only).
OPTION_LABELS = {
    "choices": _("Selection slots (and journey cards, and number cards each)"),
    "questions": _("Steps in each bard's story"),
    "rounds": _("Rounds (each player is the bard this many times)"),
    "bard_points": _("Bard VP for a step some (not all) of the audience matched"),
    "audience_points": _("Audience VP for each step matching the bard"),
    "set_bonus": _("Audience bonus VP for the bard's numbers in any order"),
    "red_card_on_all_wrong": _("A step nobody matched gives the bard a red card"),
    "starting_vp": _("VP everyone starts with"),
    "all_matched": _("A step the whole audience matched"),
}
VALUE_LABELS = {
    "all_matched": {
        "zero": _("gives the bard nothing"),
        "zero_at_climax": _("gives the bard VP, except on the story’s last step"),
    },
}

# Earlier (and later) drafts, one click away on the new-table form; draft 4, the seed's own
# rules, is the defaults. Each says in words (``changes``) what it changes from draft 4; the
# form lists them under the links.
DRAFT3_OPTIONS = {
    "choices": 6,
    "questions": 4,
    "bard_points": 1,
    "red_card_on_all_wrong": False,
    "all_matched": "zero_at_climax",
}
HEROIC_SAGA_OPTIONS = {"starting_vp": 5, "red_card_on_all_wrong": False}
PRESETS = {
    "draft3": {
        "label": _("Draft 3"),
        "changes": _(
            "From draft 4: 6 choices instead of 5; 4 questions instead of 3; the bard scores "
            "1 VP instead of 2 for a step some of the audience matched; a step everyone matched "
            "still pays the bard, except at the climax (the story's last step); no red card "
            "when nobody matches."
        ),
        "options": DRAFT3_OPTIONS,
    },
    "heroic_saga": {
        "label": _("Heroic Saga (draft 6, partial)"),
        "changes": _(
            "From draft 4: everyone starts with 5 VP instead of 0, and no red card when nobody "
            "matches. Only what its public changelog says; the rest is draft 4."
        ),
        "options": HEROIC_SAGA_OPTIONS,
    },
}

SCENE_LABELS = {
    "mountains": _("mountains"),
    "sea": _("sea"),
    "forest": _("forest"),
    "desert": _("desert"),
    "snowfield": _("snowfield"),
    "cave": _("cave"),
    "castle": _("castle"),
    "village": _("village"),
    "ruins": _("ruins"),
    "swamp": _("swamp"),
    "volcano": _("volcano"),
    "lake": _("lake"),
    "canyon": _("canyon"),
    "waterfall": _("waterfall"),
    "island": _("island"),
    "tower": _("tower"),
}
TIME_LABELS = {"dawn": _("dawn"), "day": _("day"), "dusk": _("dusk"), "night": _("night")}


# -- cards ------------------------------------------------------------------------------------
def text_language() -> str:
    """The adventure texts' language (en, pt or ja) for the page's language."""
    code = (get_language() or "en").lower()
    if code.startswith("pt"):
        return "pt"
    if code.startswith("ja"):
        return "ja"
    return "en"


def pick_text(texts: Any, lang: str) -> str:
    if isinstance(texts, dict):
        return str(texts.get(lang) or texts.get("en") or next(iter(texts.values()), ""))
    return str(texts or "")


def card_lookup(table: Table, seat_token: str | None = None) -> Callable[[str], dict[str, Any]]:
    """``card(id)``: the id, its pictures' URLs (or None) and its text in the page's language.
    A seat's page (``seat_token``) reaches a custom deck's pictures through its own link."""
    lang = text_language()
    custom = table.extra.get("area_ids")
    texts = table.extra.get("area_texts") or {}
    images: dict[str, tuple[str, str]] = {}
    if custom is not None:
        # The table's own door to its deck's pictures: the files are served to those who may
        # see this table, never from MEDIA_URL (games.uploads).
        def url(card_pk: int, size: str) -> str:
            if seat_token is not None:
                return reverse("games:seat_picture", args=[seat_token, card_pk, size])
            return reverse("games:picture", args=[table.pk, card_pk, size])

        images = {
            c.card_id: (url(c.pk, "large"), url(c.pk, "thumb"))
            for c in table_cards(table).only("pk", "card_id", "image")
            if c.image
        }
    cache: dict[str, dict[str, Any]] = {}

    def card(card_id: str) -> dict[str, Any]:
        if card_id in cache:
            return cache[card_id]
        if custom is None and card_id in AREA_IDS:
            scene, _variant, time = area_scene(card_id)
            info = {
                "id": card_id,
                "large": address("amnesia_stories:area_image", card_id, "large"),
                "thumb": address("amnesia_stories:area_image", card_id, "thumb"),
                "text": area_text(card_id, lang),
                "alt": lists.listing([SCENE_LABELS.get(scene, scene), TIME_LABELS.get(time, time)]),
            }
        else:
            large, thumb = images.get(card_id, (None, None))
            info = {
                "id": card_id,
                "large": large,
                "thumb": thumb,
                "text": pick_text(texts.get(card_id), lang),
                "alt": card_id,
            }
        cache[card_id] = info
        return info

    return card


def slots_of(selection: dict[str, str], card) -> list[dict[str, Any]]:
    return [
        {"n": int(n), **card(card_id)}
        for n, card_id in sorted(selection.items(), key=lambda kv: int(kv[0]))
    ]


# -- players ----------------------------------------------------------------------------------
def pass_order(seen: dict[str, Any]) -> list[str]:
    """Who gets the laptop, in order: the bard (who holds it after telling), then clockwise."""
    seats = seen["seats"]
    bard = seen.get("bard")
    if bard not in seats:
        return list(seats)
    i = seats.index(bard)
    return seats[i:] + seats[:i]


def next_to_answer(seen: dict[str, Any]) -> str | None:
    if seen["phase"] != "answer":
        return None
    for name in pass_order(seen):
        if name not in seen["answered"]:
            return name
    return None


def positions(table: Table) -> dict[str, int]:
    return {s.name: s.position for s in Seat.objects.filter(table=table)}


def scoreboard(seen: dict[str, Any]) -> list[dict[str, Any]]:
    answering = seen["phase"] == "answer"
    return [
        {
            "name": name,
            "vp": seen["vp"][name],
            "red_cards": seen["red_cards"][name],
            "penalty": seen["penalty"][name],
            "bard": name == seen.get("bard"),
            "answered": answering and name in seen["answered"],
            "waiting": answering and name not in seen["answered"],
            "winner": name in seen.get("winners", []),
        }
        for name in seen["seats"]
    ]


def standings(seen: dict[str, Any]) -> list[dict[str, Any]]:
    rows = sorted(scoreboard(seen), key=lambda r: -r["vp"])
    for row in rows:
        row["before_penalty"] = row["vp"] + row["penalty"]
    return rows


def turn_points(turn: dict[str, Any], seen: dict[str, Any]) -> list[dict[str, Any]]:
    """A judged turn's points, once its reveal is over (the projector's Σ): what each player
    gained and the red cards they took in that turn, and their VP since."""
    return [
        {
            "name": name,
            "gains": turn["gains"].get(name, 0),
            "red_cards": turn["red_cards"].get(name, 0),
            "vp": seen["vp"][name],
            "bard": name == turn["bard"],
        }
        for name in seen["seats"]
    ]


# The points-by-turn table shows the turns of the last this many rounds; the earlier ones
# are drawn only when asked for (``?turns=all``), so a long game's page stays as light as a
# short one's.
BY_TURN_ROUNDS = 2


def by_turn_start(seen: dict[str, Any], rounds: int = BY_TURN_ROUNDS) -> int:
    """The index in ``history`` of the first turn of its last ``rounds`` rounds."""
    history = seen["history"]
    if not history:
        return 0
    per_round = len(seen["seats"])
    last_round = (history[-1]["turn_number"] - 1) // per_round + 1
    first_turn = max(0, last_round - rounds) * per_round + 1
    # turn numbers run 1, 2, ... along history, one row per judged turn
    return max(0, min(len(history), first_turn - history[0]["turn_number"]))


def earlier_rounds(seen: dict[str, Any], rounds: int = BY_TURN_ROUNDS) -> int:
    """How many whole rounds come before the ones the points-by-turn table shows."""
    return -(-by_turn_start(seen, rounds) // len(seen["seats"]))


def score_by_turn(seen: dict[str, Any], start: int = 0) -> list[dict[str, Any]]:
    """The rows of the points-by-turn table, from ``history[start]`` on."""
    seats = seen["seats"]
    return [
        {
            "turn": t["turn_number"],
            "bard": t["bard"],
            "partial": t.get("partial", False),  # a turn under reveal: its opened steps
            "cells": [
                {
                    "gain": t["gains"].get(p, 0),
                    "red": t["red_cards"].get(p, 0),
                    "bard": p == t["bard"],
                }
                for p in seats
            ],
        }
        for t in seen["history"][start:]
    ]


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


# The built-in rulesets, each (name, version) seeded once after migrate. A correction is a
# new version, never an edit in place: the reports of tables that played an earlier version
# keep comparing version against version. Draft 3 version 1 missed the climax exception
# (all_matched), which draft 4 removed; version 2 has it.
DRAFT3_V1_OPTIONS = {"choices": 6, "questions": 4, "bard_points": 1, "red_card_on_all_wrong": False}
RULESETS = (
    {
        "name": "Amnesia Stories draft 3",
        "label": _("Amnesia Stories draft 3"),
        "version": 1,
        "options": DRAFT3_V1_OPTIONS,
        "changelog": "Draft 3: six choices, four questions, the bard scores 1 VP, "
        "no red card for a step nobody matched.",
        "changelog_label": _(
            "Draft 3: six choices, four questions, the bard scores 1 VP, "
            "no red card for a step nobody matched."
        ),
    },
    {
        "name": "Amnesia Stories draft 3",
        "label": _("Amnesia Stories draft 3"),
        "version": 2,
        "options": DRAFT3_OPTIONS,
        "changelog": "Draft 3, corrected: six choices, four questions, the bard scores 1 VP, "
        "no red card for a step nobody matched, and the climax exception: a step the whole "
        "audience matched still gives the bard 1 VP, except on the story's last step. "
        "Version 1 left the climax exception out.",
        "changelog_label": _(
            "Draft 3, corrected: six choices, four questions, the bard scores 1 VP, "
            "no red card for a step nobody matched, and the climax exception: a step the whole "
            "audience matched still gives the bard 1 VP, except on the story's last step. "
            "Version 1 left the climax exception out."
        ),
    },
    {
        "name": "Amnesia Stories draft 4",
        "label": _("Amnesia Stories draft 4"),
        "version": 1,
        "options": {},
        "changelog": "Draft 4, the seed's own rules; what changed from draft 3, as its "
        "designer lists it, aimed at making it play more smoothly: five choices (was 6) and "
        "three questions (was 4); the bard scores 2 VP for a step some but not all of the "
        "audience matched (was 1); the climax exception is gone, so a step the whole audience "
        "matched gives the bard nothing on every step (draft 3 paid the bard for it except on "
        "the last step); a step nobody in the audience matched gives the bard nothing and a "
        "red card (draft 3 had no red cards), because a bard who could not be sure of "
        "splitting the audience was better off making everyone miss than letting everyone "
        "match, so choosing an impossible picture now costs; at the end the players holding "
        "the most red cards lose that many VP.",
        "changelog_label": _(
            "Draft 4, the seed's own rules; what changed from draft 3, as its "
            "designer lists it, aimed at making it play more smoothly: five choices (was 6) and "
            "three questions (was 4); the bard scores 2 VP for a step some but not all of the "
            "audience matched (was 1); the climax exception is gone, so a step the whole audience "
            "matched gives the bard nothing on every step (draft 3 paid the bard for it except on "
            "the last step); a step nobody in the audience matched gives the bard nothing and a "
            "red card (draft 3 had no red cards), because a bard who could not be sure of "
            "splitting the audience was better off making everyone miss than letting everyone "
            "match, so choosing an impossible picture now costs; at the end the players holding "
            "the most red cards lose that many VP."
        ),
    },
    {
        "name": "Heroic Saga draft 6 (partial)",
        "label": _("Heroic Saga draft 6 (partial)"),
        "version": 1,
        "options": HEROIC_SAGA_OPTIONS,
        "changelog": "Heroic Saga, draft 6, partial (only what its public changelog says): "
        "everyone starts with 5 VP (was 0), and no red card for a step nobody matched.",
        "changelog_label": _(
            "Heroic Saga, draft 6, partial (only what its public changelog says): "
            "everyone starts with 5 VP (was 0), and no red card for a step nobody matched."
        ),
    },
)


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
