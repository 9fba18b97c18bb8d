"""Amnesia's own design questions (``games.playtests.questions``): it is cooperative and
nobody wins, so it asks where its challenges go, what becomes of the tokens, how much is
told before the finale, and whether one kind of player gets an edge."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from amnesia_site import lists
from games.amnesia.bots import SensibleBot
from games.playtests.figures import COUNT, SHARE, TOKENS, Figure
from games.playtests.questions import (
    Question,
    ask,
    known,
    mean_text,
    on_scale,
    proportion,
    share_text,
)


def questions(figures: dict[str, Any], players: int) -> list[Question]:
    out = []
    side = figures.get("challenges_to_narrator")
    if known(side):
        assert side is not None
        other = {**side, "value": 1 - side["value"]}
        if "low" in side:
            other.update(low=1 - side["high"], high=1 - side["low"])
        out.append(
            ask(
                "challenge_sides",
                _("Which side does a challenge go to?"),
                _(
                    "The narrator wins %(narrator)s of challenges; the one who insisted, or a "
                    "player who joined, wins %(other)s."
                )
                % {"narrator": share_text(side), "other": share_text(other)},
                ["challenges_to_narrator"],
            )
        )
    kept, spent = figures.get("tokens_kept"), figures.get("tokens_spent")
    if known(kept) and known(spent):
        assert kept is not None and spent is not None
        out.append(
            ask(
                "tokens",
                _("How many tokens are kept, and how many spent?"),
                _(
                    "The players keep %(kept)s of their tokens to the end and spend "
                    "%(spent)s tokens a game."
                )
                % {"kept": share_text(kept), "spent": mean_text(spent)},
                ["tokens_kept", "tokens_spent"],
            )
        )
    scenes, flashbacks = (
        figures.get("scenes_before_finale"),
        figures.get("flashbacks_before_finale"),
    )
    if known(scenes) and known(flashbacks):
        assert scenes is not None and flashbacks is not None
        out.append(
            ask(
                "before_finale",
                _("How much is told before the finale?"),
                _(
                    "Before the memory of the room, %(scenes)s scenes and %(flashbacks)s "
                    "flashbacks are told (in the %(n)s games that reached it)."
                )
                % {
                    "scenes": mean_text(scenes),
                    "flashbacks": mean_text(flashbacks),
                    "n": scenes["n"],
                },
                ["scenes_before_finale", "flashbacks_before_finale"],
            )
        )
    edges = sorted(
        k for k in figures if k.endswith(".challenge_edge") or k.endswith(".tokens_edge")
    )
    said = []
    for name in edges:
        fig = figures[name]
        if known(fig) and "low" in fig and not fig["low"] <= 0 <= fig["high"]:
            bot = name.split(".")[1]
            said.append(
                (
                    _("the %(bot)s bot wins %(edge)s more challenges than its share")
                    if name.endswith(".challenge_edge")
                    else _("the %(bot)s bot keeps %(edge)s more tokens than its share")
                )
                % {"bot": bot, "edge": share_text(fig)}
            )
    if edges:
        out.append(
            ask(
                "edges",
                _("Does one way of playing get an edge?"),
                (_("Yes: %(edges)s.") % {"edges": lists.groups().join(said)})
                if said
                else _("No measurable edge in challenges won or tokens kept."),
                edges,
            )
        )
    return out


# The figures these questions read, declared beside them (``games.playtests.figures``).
FIGURES = (
    Figure(
        "challenges_to_narrator",
        gettext_lazy("Challenges won by the narrator"),
        gettext_lazy("The share of a game's challenges the challenged narrator wins."),
        SHARE,
    ),
    Figure(
        "tokens_kept",
        gettext_lazy("Tokens kept at the end"),
        gettext_lazy("The share of the starting tokens the players still hold at the end."),
        SHARE,
    ),
    Figure(
        "tokens_spent",
        gettext_lazy("Tokens spent"),
        gettext_lazy("Tokens paid to the bank or the discard in a game."),
        TOKENS,
    ),
    Figure(
        "scenes_before_finale",
        gettext_lazy("Scenes before the finale"),
        gettext_lazy("Scenes continued before the memory of the room."),
        COUNT,
    ),
    Figure(
        "flashbacks_before_finale",
        gettext_lazy("Flashbacks before the finale"),
        gettext_lazy("Flashbacks told before the memory of the room."),
        COUNT,
    ),
)


def bot_params(options: dict[str, Any], reports: list[dict[str, Any]]) -> dict[str, dict]:
    """What the real plays measure of the bots' parameters, each with its interval:

    - how often a narrator refuses a paid suggestion (``refuse``: refusals over paid
      suggestions);
    - how often a listener insists (``insist``). The logs hold a listener's suggestions,
      free or paid, not the moments they said nothing, so what is measured is the share of
      suggestions that were paid; the sensible bot, asked, insists with chance ``insist``
      and else suggests with chance ``suggest`` (its default), so that share is
      ``insist / (insist + (1 - insist) * suggest)``, solved here for ``insist``. An
      approximation the designer can sweep around, as Amnesia Stories' ``agreement``.
    """
    refused = paid = free = plays = insisting = 0
    for report in reports:
        figs = report.get("figures") or {}
        p, r = int(figs.get("paid_suggestions") or 0), int(figs.get("paid_refused") or 0)
        f = int(figs.get("free_suggestions") or 0)
        if p:
            paid, refused, plays = paid + p, refused + r, plays + 1
        if p or f:
            free, insisting = free + f, insisting + 1
    out = {}
    if paid:
        out["refuse"] = proportion(refused, paid, plays)
    if paid + free:
        suggest = SensibleBot.params["suggest"].default
        measured = proportion(paid, paid + free, insisting)

        def to_scale(share: float) -> float:
            return share * suggest / (1 - share + share * suggest) if share < 1 else 1.0

        note = _("Listeners paid to insist in %(share)s of their suggestions.") % {
            "share": share_text(measured)
        }
        out["insist"] = on_scale(measured, to_scale, note, exact=paid / (paid + free))
    return out
