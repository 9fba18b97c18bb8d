"""What the contest table page shows, beyond what every table page has.

No rule is decided here. The buttons come from the referee's legal moves, the figures from
its state; the physical-deck builder asks the referee itself whether a move is complete
(``contest_cards``). The game master's page is built from ``view(state, None)`` and the legal
moves stripped of anything drawn from a hand: it never shows a hand.
"""

from __future__ import annotations

import json
from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.http import urlencode
from django.utils.translation import gettext as _g
from django.utils.translation import gettext_lazy as _

from amnesia_site import lists
from games.addresses import address
from games.contest import clock as narration_clock
from games.contest.cards import (
    BUILD_VERBS,
    add_pick,
    attribute_info,
    card,
    drop_pick,
    evaluate,
    grid,
    next_fill,
    picked,
)
from games.contest.characters import available_for, drinks_as
from games.contest.models import SeatCharacter
from games.contest.rules import GAME
from games.contest.rules.core import ATTR_SUIT, player_and_character, side_total, visible_cards
from games.contest.story import (
    contest_sides,
    describe,
    describe_events,
    drink_words,
    out_label,
    penalty_label,
    story_blocks,
)
from games.facing import Facing
from games.models import Seat, Table, link_mark
from games.presenters import shown_value
from games.rules import cards as C

__all__ = [
    "BUILD_VERBS",
    "OPTION_LABELS",
    "PHASES",
    "add_pick",
    "attribute_info",
    "card",
    "context",
    "contest_sides",
    "describe",
    "describe_events",
    "drink_words",
    "drop_pick",
    "evaluate",
    "names_of",
    "next_fill",
    "pending_context",
]

OPTION_LABELS = {
    "hand_size": _("Cards in hand (and the hand limit before lost cards)"),
    "attribute_points": _("Attribute points each character spreads over four attributes"),
    "attribute_min": _("Lowest value an attribute may start at"),
    "attribute_max": _("Highest value an attribute may start at"),
    "control_seconds": _("Seconds a narrator holds the story before others may take it"),
    "pretzel_limit": _("Pretzels in front of you that put you out"),
    "eat_limit": _("Pretzels a player may eat in one game (6 with a big appetite)"),
    "ties": _("A tied contest: replay it, or the defender or the challenger wins"),
    "jokers": _("Jokers: a played joker wins the contest"),
    "joker_swap": _("Joker swap: the loser takes the winning joker into hand"),
    "teams": _("Teams"),
    "tarot": _("Tarot deck (court cards are face cards)"),
    "plot_cards": _("Plot cards: major arcana take control of the story (tarot)"),
    "word_bonus": _("Word bonus: +2 for using the card's word (tarot)"),
    "hamming_it_up": _("Hamming it up: a laugh earns extra draws"),
    "healing": _("Healing: the winner removes a pretzel or gets a lost card back"),
    "extended_contests": _("Extended contests (rounds until someone gives up)"),
    "voting_off": _("Voting a player off"),
    "extra_points": _("Extra points: the vote and the bribe"),
}
VALUE_LABELS = {
    "ties": {
        "replay": _("play it again"),
        "defender": _("the defender wins"),
        "challenger": _("the challenger wins"),
    },
}

PHASES = {
    "characters": _("making characters"),
    "story": _("the story"),
    "response": _("a challenge"),
    "contest": _("a contest"),
    "penalty": _("penalties"),
    "heal": _("healing"),
    "vote": _("voted off"),
    "ended": _("the end"),
}


def pending_context(
    table: Table,
    state: dict[str, Any],
    move: dict[str, Any],
    names: dict[str, str],
    text: str = "",
) -> dict[str, Any]:
    """The builder box: what has been tapped so far and the grid for the next card."""
    fill = next_fill(move)
    by = move.get("by", "")
    verb = move.get("do")
    contest = state.get("contest") or {}
    attr = (contest.get("attributes") or {}).get(by) if verb == "play" else None
    chain_suit = ATTR_SUIT.get(attr) if attr else None
    who = names.get(by, by)
    only = None
    if verb == "take_control":
        only = "major" if move.get("with") == "plot_card" else "face"
    if verb == "play" and fill == "card":
        prompt = _g("%(who)s plays: tap the card they put down.") % {"who": who}
    elif verb == "play":
        prompt = _g(
            "%(who)s’s chain goes on: tap the next card drawn from the deck (a %(suit)s keeps "
            "it going)."
        ) % {"who": who, "suit": C.SUIT_SYMBOLS.get(chain_suit or "", "")}
    elif verb == "take_control":
        prompt = _g("%(who)s takes control: tap the card they play.") % {"who": who}
    elif verb == "swap_joker":
        prompt = _g("%(who)s takes the joker: tap the card they give up for it.") % {"who": who}
    else:
        prompt = _g("Tap the card %(who)s loses (face up).") % {"who": who}
    shown = [card(c) for c in picked(move)]
    for i, c in enumerate(shown):
        c["drawn"] = verb == "play" and i > 0
    total = None
    if verb == "play" and attr and move.get("card"):
        value = state["players"][by]["attributes"][attr]
        total = side_total(value, [c["code"] for c in shown], bool(move.get("word")))
    disabled = visible_cards(state) | set(picked(move))
    back = ""
    if picked(move):
        url = reverse("contest:build", args=[table.pk])
        back = f"{url}?{urlencode({'move': json.dumps(drop_pick(move))})}"
    return {
        "pending": {
            "back_url": back,
            "text": text,
            "move": move,
            "json": json.dumps(move),
            "fill": fill,
            "by": by,
            "who": who,
            "do": verb,
            "prompt": prompt,
            "picked": shown,
            "attribute": attribute_info(attr),
            "total": total,
            "penalty": penalty_label(move["penalty"], drink_words(drinks_as(table)))
            if verb in ("refuse", "forfeit", "stay") and move.get("penalty")
            else "",
            "grid": grid(state["options"], disabled, only, chain_suit),
        }
    }


# -- the page ----------------------------------------------------------------------------------
def _public_legal(raw: dict[str, list[dict[str, Any]]], virtual: bool) -> dict[str, Any]:
    """The legal moves by player and verb, without any choice drawn from a hand (virtual).
    The snapshot's templates are shared with the presenters' ``legal``: one that loses its
    card choice is a copy (of the template and its choices; nothing here changes the rest)."""
    out: dict[str, Any] = {}
    for name, templates in raw.items():
        verbs: dict[str, Any] = {}
        for tpl in templates:
            if virtual and tpl["do"] in ("play", "take_control", "swap_joker"):
                choices = {k: v for k, v in tpl.get("choices", {}).items() if k != "card"}
                tpl = {**tpl, "choices": choices} if "choices" in tpl else dict(tpl)
            key = tpl["do"] if "with" not in tpl else f"{tpl['do']}_{tpl['with']}"
            verbs[key] = tpl
        out[name] = verbs
    return out


def names_of(view: dict[str, Any]) -> dict[str, str]:
    """'Zed (Ana)': each player with their character, once they have one (the referee's
    ``player_and_character``, the one order of the log, the page and the book), its brackets
    as the reader's language writes them ('Zed（Ana）' in Japanese)."""
    return {
        name: shown_name(name, view["players"][name].get("character")) for name in view["seats"]
    }


def shown_name(name: str, character: str | None) -> str:
    """``player_and_character`` in the reader's marks."""
    if not character:
        return player_and_character(name, character)
    return f"{character}{lists.bracketed(name)}"


def control_info(view: dict[str, Any], facts: dict[str, Any]) -> dict[str, Any] | None:
    """The narrator's countdown: its length, the time counted since control last changed
    hands (contests left out, see ``games.contest.clock``), and whether it stands still for a
    contest under way. Read from the narrator's kept facts (``Snapshot.story_facts``): the
    time and phase after each move of this turn of control, so no replay."""
    if not view.get("controller") or view["phase"] in ("characters", "ended"):
        return None
    seconds = view["options"]["control_seconds"]
    turn = facts.get("control_clock") or []
    times = [parse_datetime(at) if isinstance(at, str) else None for _index, at, _phase in turn]
    if not turn or None in times:  # no change of control yet, or moves stored without a time
        clock = narration_clock.Clock(elapsed=seconds, paused=False)
    else:
        phases = [phase for _index, _at, phase in turn]
        clock = narration_clock.narration_time(0, phases, times, timezone.now())
    elapsed = int(clock.elapsed)
    return {
        "seconds": seconds,
        "elapsed": elapsed,
        "remaining": max(0, seconds - elapsed),
        "open": elapsed >= seconds,
        "paused": clock.paused,
        # One turn of control (an early opening by the game master lasts as long as it).
        "key": turn[0][0] if turn else 0,
    }


def _choices(verbs: dict[str, Any], verb: str, field: str) -> list[Any]:
    return verbs.get(verb, {}).get("choices", {}).get(field, [])


def _penalty_buttons(by: str, verb: str, verbs: dict[str, Any], words: dict) -> list[dict]:
    """One button per legal penalty (or mix of penalties) of a refusal, forfeit or stay."""
    return [
        {
            "value": mix,
            "json": _json({"by": by, "do": verb, "penalty": mix}),
            "label": penalty_label(mix, words),
            "cards": "card" in ([mix] if isinstance(mix, str) else mix),
        }
        for mix in _choices(verbs, verb, "penalty")
    ]


def _players(view: dict, public: dict, names: dict, out_reasons: dict[str, Any]) -> list[dict]:
    options = view["options"]
    contest = view.get("contest") or {}
    owed = view.get("owed") or {}
    rows = []
    for name in view["seats"]:
        p = view["players"][name]
        attrs = p.get("attributes") or {}
        rows.append(
            {
                "name": name,
                "who": names[name],
                "character": p.get("character"),
                "attributes": [attribute_info(a, attrs[a]) for a in attrs],
                "hand_count": p["hand_count"],
                "hand_limit": p["hand_limit"],
                "lost": [card(c) for c in p["lost"]],
                "drinks": p["drinks"],
                "pretzels": p["pretzels"],
                "pretzel_limit": options["pretzel_limit"],
                "eaten": p["eaten"],
                "eat_limit": max(6, options["eat_limit"]) if p.get("bfa") else options["eat_limit"],
                "bfa": p.get("bfa"),
                "out": p["out"],
                "out_reason": out_label(out_reasons.get(name)) if p["out"] else "",
                "controller": name == view.get("controller"),
                "contestant": name in (contest.get("challenger"), contest.get("defender")),
                "owes": owed.get(name, 0),
                "winner": name in view.get("winners", []),
                "eat_counts": _choices(public[name], "eat_pretzels", "count"),
                "needs_character": "character" in public[name],
            }
        )
    return rows


def _takers(view: dict, public: dict, names: dict) -> list[dict]:
    """Who may take control now, and how (drinks, a face card, a plot card)."""
    rows = []
    for name in view["seats"]:
        ways = {k for k in public[name] if k.startswith("take_control")}
        if ways:
            rows.append(
                {
                    "name": name,
                    "who": names[name],
                    "drinks": "take_control_drinks" in ways,
                    "face_card": "take_control_face_card" in ways,
                    "plot_card": "take_control_plot_card" in ways,
                    "face_json": _json({"by": name, "do": "take_control", "with": "face_card"}),
                    "plot_json": _json({"by": name, "do": "take_control", "with": "plot_card"}),
                }
            )
    return rows


def _challenge_form(view: dict, public: dict, names: dict) -> dict | None:
    controller = view.get("controller")
    challenge = public.get(controller or "", {}).get("challenge")
    if not challenge:
        return None
    return {
        "by": controller,
        "targets": [
            {"name": t, "who": names[t], "character": view["players"][t]["character"]}
            for t in challenge["choices"]["target"]
        ],
        "attributes": [attribute_info(a) for a in challenge["choices"]["attribute"]],
        "teams": view["options"]["teams"],
        "extended": view["options"]["extended_contests"],
        "others": [n for n in view["seats"] if not view["players"][n]["out"]],
    }


def _board(view: dict, public: dict, names: dict, mode: str, words: dict) -> dict | None:
    """The contest under way: both sides, and what each contestant may still do."""
    contest = view.get("contest")
    if not contest:
        return None
    board = contest_sides(contest, view["players"], names, mode)
    for side in board["sides"]:
        verbs = public[side["name"]]
        side["can_play"] = "play" in verbs
        side["forfeit"] = _penalty_buttons(side["name"], "forfeit", verbs, words)
        side["play_json"] = _json({"by": side["name"], "do": "play"})
        side["give_up"] = "give_up" in verbs
    board["to_play"] = [s for s in board["sides"] if s["can_play"]]
    return board


def _response(view: dict, public: dict, names: dict, words: dict) -> dict | None:
    contest = view.get("contest")
    if view["phase"] != "response" or not contest:
        return None
    defender = contest["defender"]
    verbs = public[defender]
    attrs = view["players"][defender]["attributes"] or {}
    return {
        "by": defender,
        "who": names[defender],
        "accept": [attribute_info(a, attrs.get(a)) for a in _choices(verbs, "accept", "attribute")],
        "refuse": _penalty_buttons(defender, "refuse", verbs, words),
        "forfeit": _penalty_buttons(defender, "forfeit", verbs, words),
    }


def _debts(view: dict, public: dict, names: dict) -> list[dict]:
    return [
        {
            "name": name,
            "who": names[name],
            "count": count,
            "drink": "drink" in public.get(name, {}),
            "lose_card": "lose_card" in public.get(name, {}),
            "lose_json": _json({"by": name, "do": "lose_card"}),
        }
        for name, count in (view.get("owed") or {}).items()
    ]


def _swap(view: dict, names: dict) -> dict | None:
    swap = view.get("swap")
    if not swap:
        return None
    return {
        "name": swap["player"],
        "who": names[swap["player"]],
        "joker": card(swap["joker"]),
        "json": _json({"by": swap["player"], "do": "swap_joker"}),
    }


def _heal(view: dict, public: dict, names: dict) -> dict | None:
    contest = view.get("contest")
    if view["phase"] != "heal" or not contest:
        return None
    winner = contest.get("winner")
    return {
        "by": winner,
        "who": names.get(winner, winner),
        "choices": _choices(public.get(winner, {}), "heal", "choice"),
    }


def _vote(view: dict, public: dict, names: dict, words: dict) -> dict | None:
    if view["phase"] != "vote" or not view.get("vote"):
        return None
    voter = view["vote"]["player"]
    return {
        "by": voter,
        "who": names[voter],
        "stay": _penalty_buttons(voter, "stay", public[voter], words),
        "leave": "leave" in public[voter],
    }


def _penalties_shown(board: dict | None, response: dict | None, vote: dict | None) -> list[dict]:
    """Every penalty button of the page (a refusal's, a forfeit's, a stay's)."""
    buttons = [f for side in (board or {}).get("sides", []) for f in side["forfeit"]]
    buttons += (response or {}).get("refuse", []) + (response or {}).get("forfeit", [])
    return buttons + (vote or {}).get("stay", [])


def _others(view: dict, names: dict, but: str) -> list[dict]:
    return [
        {"name": n, "who": names[n]}
        for n in view["seats"]
        if n != but and not view["players"][n]["out"]
    ]


def _vote_off(view: dict, public: dict, names: dict) -> dict | None:
    controller = view.get("controller")
    if not controller or "vote_off" not in public.get(controller, {}):
        return None
    return {
        "by": controller,
        "targets": [
            {"name": t, "who": names[t]} for t in _choices(public[controller], "vote_off", "target")
        ],
        "voters": _others(view, names, controller),
    }


def _seat_links(table: Table, names: dict) -> list[dict]:
    # Only the three columns the links are made of, by position alone (the seats' default
    # order also sorts by table, a join): no Seat is built, on every render of the page.
    seats = Seat.objects.filter(table_id=table.pk).order_by("position")
    return [
        {
            "name": name,
            "who": names.get(name, name),
            "url": address("contest:seat", token),
            "qr": address("contest:seat_qr", table.pk, position) + f"?link={link_mark(token)}",
            "reissue_url": address("games:reissue_link", table.pk, position),
            "position": position,
        }
        for name, token, position in seats.values_list("name", "token", "position")
    ]


def _credited(table: Table, view: dict, names: dict) -> list[dict]:
    """The saved characters this finished table has credited, with their points."""
    links = (
        SeatCharacter.objects.filter(seat__table=table, credited=True)
        .select_related("seat", "character")
        .order_by("seat__position")
    )
    return [
        {
            "character": link.character,
            "who": names.get(link.seat.name, link.seat.name),
            "points": view["earned_points"].get(link.seat.name, 0),
        }
        for link in links
    ]


def context(snap: Facing) -> dict[str, Any]:
    table = snap.table
    virtual = table.deck_mode == Table.DeckMode.VIRTUAL
    view = snap.view  # the presenters' own (read only here)
    mode = drinks_as(table)
    words = drink_words(mode)
    names = names_of(view)
    # The presenters' ``legal`` keeps one template per verb; taking control has three.
    public = _public_legal(snap.legal_moves, virtual)
    entries = snap.story_tail.entries  # the last of the story; the rest on demand
    options = view["options"]
    phase = view["phase"]
    controller = view.get("controller")
    challenge_form = _challenge_form(view, public, names)
    board = _board(view, public, names, mode, words)
    response = _response(view, public, names, words)
    vote = _vote(view, public, names, words)

    # Physical deck: the first contestant still to play gets the grid (either may go first).
    first_to_play = player_grid = None
    if board and board["to_play"] and not virtual:
        first_to_play = board["to_play"][0]
        attr = view["contest"]["attributes"].get(first_to_play["name"])
        chain_suit = ATTR_SUIT.get(attr) if attr else None
        player_grid = grid(options, visible_cards(view), None, chain_suit)

    just_settled = None
    for e in view.get("events") or []:
        if e.get("type") == "contest" and e.get("contest"):
            just_settled = contest_sides(e["contest"], view["players"], names, mode)

    # A penalty paid with cards is tapped in card by card on a physical deck (the builder).
    move_url = address("games:move", table.pk)
    build_url = address("contest:build", table.pk)
    for button in _penalties_shown(board, response, vote):
        button["url"] = build_url if button["cards"] and not virtual else move_url

    narration_form = ""
    if phase == "story" and challenge_form:
        narration_form = "challenge-form"
    elif phase == "response" and response:
        narration_form = "accept-form"
    elif first_to_play:
        narration_form = "play-form"

    last_events = describe_events(view.get("events") or [], names, mode)
    shown = {
        # The builder's address (the moves' own, move_url, is every table page's).
        "build_url": build_url,
        "lose_url": build_url if not virtual else move_url,
        "legal": public,
        "physical": not virtual,
        "virtual": virtual,
        "words": words,
        "drinks_mode": mode,
        "names": names,
        "phase_label": PHASES.get(phase, phase),
        "players": _players(view, public, names, snap.story_facts.get("out", {})),
        "controller_who": names.get(controller or "", ""),
        "control": control_info(view, snap.story_facts),
        "takers": _takers(view, public, names),
        "challenge_form": challenge_form,
        "narration_form": narration_form,
        "board": board,
        "first_to_play": first_to_play,
        "player_grid": player_grid,
        "play_json": first_to_play["play_json"] if first_to_play else "",
        "response": response,
        "debts": _debts(view, public, names),
        "swap": _swap(view, names),
        "heal": _heal(view, public, names),
        "vote": vote,
        "vote_off": _vote_off(view, public, names),
        "extra_movers": [
            {"name": n, "who": names[n], "others": _others(view, names, n)}
            for n in view["seats"]
            if "extra_point" in public[n] or "bribe" in public[n]
        ],
        "throwers": [
            {"name": n, "who": names[n]} for n in view["seats"] if "throw_pretzel" in public[n]
        ],
        "seat_links": _seat_links(table, names) if virtual else [],
        "last_events": last_events,
        "just_settled": just_settled,
        "story_blocks": story_blocks(entries, view["players"], names, mode),
        "winner_who": names.get(view["winners"][0]) if view.get("winners") else "",
        "bring_choices": available_for(table) if phase == "characters" else [],
        "credited": _credited(table, view, names) if view.get("finished") else [],
        "bounds": {
            "min": options["attribute_min"],
            "max": options["attribute_max"],
            "points": options["attribute_points"],
        },
        "attribute_list": [attribute_info(a) for a in ("brains", "muscle", "moves", "coolness")],
        "options_on": [
            {"label": OPTION_LABELS[k], "value": "" if v is True else v}
            for k, v in options.items()
            if k in OPTION_LABELS and v != GAME.options[k].default and v is not False
        ],
    }
    if last_events and phase != "characters":
        # What a screen reader says after a move: what the move did at the table.
        shown["announce"] = " ".join(str(line) for line in last_events)
    return shown


def story_part(snap: Facing, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Some of the story so far, for ``contest/_story.html``."""
    view = snap.view
    mode = drinks_as(snap.table)
    return {"story_blocks": story_blocks(entries, view["players"], names_of(view), mode)}


def _json(value: Any) -> str:
    return json.dumps(value)


# The built-in ruleset: the English seed with the app's rulings where it is silent.
RULESETS = (
    {
        "name": "Contest: default rulings",
        "label": _("Contest: default rulings"),
        "options": {},
        "changelog": "The English seed with the app's rulings where it is silent: "
        "8 cards, 12 attribute points, 5 pretzels put you out, ties are replayed.",
        "changelog_label": _(
            "The English seed with the app's rulings where it is silent: "
            "8 cards, 12 attribute points, 5 pretzels put you out, ties are replayed."
        ),
    },
)


# One sentence per verb (lazy: each is put into the reader's language when it is said), made
# once: a page says a dozen moves of the log on every render.
MOVE_SENTENCES = {
    "character": _("%(by)s makes a character."),
    "challenge": _("%(by)s challenges %(target)s."),
    "accept": _("%(by)s accepts the challenge."),
    "refuse": _("%(by)s refuses the challenge and pays."),
    "forfeit": _("%(by)s gives up the contest and pays."),
    "play": _("%(by)s plays a card."),
    "lose_card": _("%(by)s loses a card."),
    "drink": _("%(by)s drinks."),
    "take_control": _("%(by)s takes control of the story."),
    "throw_pretzel": _("%(by)s throws a pretzel."),
    "eat_pretzels": _("%(by)s eats pretzels."),
    "swap_joker": _("%(by)s takes the winning joker."),
    "heal": _("%(by)s heals."),
    "vote_off": _("%(by)s calls a vote to put %(target)s out."),
    "stay": _("%(by)s stays in the game and pays."),
    "extra_point": _("%(by)s calls a vote for an extra point."),
    "bribe": _("%(by)s offers a bribe."),
    "give_up": _("%(by)s gives up."),
    "leave": _("%(by)s leaves the game."),
}


def describe_move(move: dict[str, Any]) -> str:
    """One sentence for what a move did, in the reader's language (the move log, the live
    region, the undo's question); "" for a verb this page does not know."""
    by = move.get("by", "")
    sentence = MOVE_SENTENCES.get(move.get("do"))
    if sentence is None:
        return ""
    said = str(sentence) % {"by": by, "target": move.get("target", "")}
    card = move.get("card")
    if isinstance(card, str) and card:
        said += " " + _("Card: %(card)s.") % {"card": shown_value("card", card)}
    return said
