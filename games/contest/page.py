"""What the contest table page shows, beyond what every table page has.

No rule is decided here. The buttons come from the referee's legal moves, the figures from
its state; the physical-deck builder asks the referee itself whether a move is complete
(``contest_cards``). The game master's page is built from ``view(state, None)`` and the legal
moves stripped of anything drawn from a hand: it never shows a hand.

Its neighbours: ``decisions`` (what the page offers each player, button by button),
``deck_builder`` (the physical deck's builder box) and ``options`` (the options' labels and the
built-in ruleset).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _

from amnesia_site import lists
from games.addresses import address
from games.contest import clock as narration_clock
from games.contest import decisions
from games.contest.cards import attribute_info, grid
from games.contest.characters import available_for, drinks_as
from games.contest.models import SeatCharacter
from games.contest.options import OPTION_LABELS
from games.contest.rules import GAME
from games.contest.rules.core import ATTR_SUIT, player_and_character, visible_cards
from games.contest.story import contest_sides, describe_events, drink_words, story_blocks
from games.facing import Facing
from games.models import Seat, Table, link_mark
from games.presenters import shown_value

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
    challenge_form = decisions.challenge_form(view, public, names)
    board = decisions.board(view, public, names, mode, words)
    response = decisions.response(view, public, names, words)
    vote = decisions.vote(view, public, names, words)

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
    for button in decisions.penalties_shown(board, response, vote):
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
        "players": decisions.players(view, public, names, snap.story_facts.get("out", {})),
        "controller_who": names.get(controller or "", ""),
        "control": control_info(view, snap.story_facts),
        "takers": decisions.takers(view, public, names),
        "challenge_form": challenge_form,
        "narration_form": narration_form,
        "board": board,
        "first_to_play": first_to_play,
        "player_grid": player_grid,
        "play_json": first_to_play["play_json"] if first_to_play else "",
        "response": response,
        "debts": decisions.debts(view, public, names),
        "swap": decisions.swap(view, names),
        "heal": decisions.heal(view, public, names),
        "vote": vote,
        "vote_off": decisions.vote_off(view, public, names),
        "extra_movers": [
            {"name": n, "who": names[n], "others": decisions.others(view, names, n)}
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
