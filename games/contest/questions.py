"""The contest's own design questions (``games.playtests.questions``): it ends by
elimination, so it asks who goes out first and in what order, and who takes control of the
story and how."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from amnesia_site import lists
from games.playtests.figures import COUNT, Figure
from games.playtests.questions import (
    Question,
    ask,
    known,
    mean_text,
    on_scale,
    proportion,
    share_text,
)
from games.simulate.figures import interval_of


def full_stop() -> str:
    """A sentence's end as the reader's language writes it."""
    return "。" if (get_language() or "").lower().startswith("ja") else "."


HOW = ("face_card", "drinks", "plot_card")


def questions(figures: dict[str, Any], players: int) -> list[Question]:
    out = []
    first = figures.get("first_out_at")
    places = [figures.get(f"seat{k}.out_place") for k in range(1, players + 1)]
    if known(first):
        assert first is not None
        answer = _("The first player goes out %(share)s of the way into the game.") % {
            "share": share_text(first)
        }
        if all(known(p) for p in places):
            answer = lists.sentences(
                answer,
                _("Average place in the order of elimination: %(places)s.")
                % {"places": _by_seat(places, mean_text)},
            )
        out.append(
            ask(
                "eliminations",
                _("When do players go out, and in what order?"),
                answer,
                ["first_out_at", *[f"seat{k}.out_place" for k in range(1, players + 1)]],
            )
        )
    take = figures.get("take_control")
    if known(take):
        assert take is not None
        ways: dict[str, dict[str, Any]] = {
            how: figures[f"take_control.{how}"] for how in HOW if f"take_control.{how}" in figures
        }
        labels = {
            "face_card": _("with a face card"),
            "drinks": _("with drinks"),
            "plot_card": _("with a plot card"),
        }
        parts = [
            _("%(times)s %(how)s") % {"times": mean_text(fig), "how": labels[how]}
            for how, fig in ways.items()
            if known(fig) and fig["value"]
        ]
        control = [figures.get(f"seat{k}.control") for k in range(1, players + 1)]
        answer = _("Control is taken %(times)s times a game") % {"times": mean_text(take)}
        answer += (
            (lists.colon() + lists.separator().join(parts) + full_stop()) if parts else full_stop()
        )
        if all(known(c) for c in control):
            answer = lists.sentences(
                answer,
                _("Share of the game each seat controls the story: %(shares)s.")
                % {"shares": _by_seat(control, share_text)},
            )
        out.append(
            ask(
                "control",
                _("Who takes control of the story, and how?"),
                answer,
                ["take_control", *[f"take_control.{how}" for how in HOW]],
            )
        )
    return out


# The figures these questions read, declared beside them (``games.playtests.figures``).
FIGURES = (
    Figure(
        "take_control.face_card",
        gettext_lazy("Control taken with a face card"),
        gettext_lazy("Times a game a player takes control of the story with a face card."),
        COUNT,
    ),
    Figure(
        "take_control.drinks",
        gettext_lazy("Control taken with drinks"),
        gettext_lazy("Times a game a player takes control of the story by taking drinks."),
        COUNT,
    ),
    Figure(
        "take_control.plot_card",
        gettext_lazy("Control taken with a plot card"),
        gettext_lazy("Times a game a player takes control of the story with a plot card."),
        COUNT,
    ),
)


def bot_params(options: dict[str, Any], reports: list[dict[str, Any]]) -> dict[str, dict]:
    """What the real plays measure of the bots' parameters, each with its interval:

    - drinks against lost cards: the chance a penalty is paid with a drink rather than a
      card (``drink``: drinks over drinks and cards lost);
    - how long a narrator keeps the story (``take_control``): the sensible bot not in
      control takes it with a face card with chance ``take_control`` each time it is asked,
      about once a move, so the chance is measured as the face-card take-overs over the
      moves times the listeners (the players but the narrator). Some of those moves are a
      contest's, when nobody may take control: the chance measured is a little low. The
      note says the moves a narrator kept the story, with its interval.
    """
    drinks = cards = plays = 0
    taken = asked = kept_plays = 0
    kept: list[float] = []
    for report in reports:
        figs = report.get("figures") or {}
        d = int(figs.get("drinks_total") or 0)
        c = sum((figs.get("cards_lost") or {}).values())
        if d or c:
            drinks, cards, plays = drinks + d, cards + c, plays + 1
        engine = figs.get("engine") or {}
        moves, turns = int(engine.get("moves") or 0), int(engine.get("control_turns") or 0)
        listeners = int(figs.get("players") or 0) - 1
        if moves and turns and listeners > 0:
            taken += int(engine.get("take_control.face_card") or 0)
            asked += moves * listeners
            kept_plays += 1
            kept.append(moves / turns)
    out = {}
    if drinks + cards:
        out["drink"] = proportion(drinks, drinks + cards, plays)
    if asked:
        keeps = interval_of(kept, 0)
        note = _("At the real tables a narrator keeps the story %(moves)s moves.") % {
            "moves": mean_text(keeps)
        }
        out["take_control"] = on_scale(proportion(taken, asked, kept_plays, 4), float, note, 4)
    return out


def _by_seat(figures: list[Any], text: Callable[[Any], str]) -> str:
    """Each seat's figure in words, in seat order ("seat 1 …, seat 2 …")."""
    return lists.separator().join(
        _("seat %(k)s %(share)s") % {"k": k, "share": text(f)} for k, f in enumerate(figures, 1)
    )
