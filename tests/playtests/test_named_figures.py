"""Figures with names: every figure a game's bots produce is declared, and shown in its unit
and the reader's number form (games.playtests.figures)."""

from __future__ import annotations

import dataclasses

from django.utils import translation

from games import registry
from games.checks import check_kit
from games.playtests import figures as F


def test_the_check_refuses_a_figure_without_its_declaration():
    kit = registry.kit("amnesia_stories")
    without = tuple(f for f in kit.figures if f.key != "bard_share")
    broken = dataclasses.replace(kit, figures=without)
    found = [m for m in check_kit(broken) if m.id == "games.E013"]
    assert len(found) == 1
    assert "'amnesia_stories'" in found[0].msg and "'bard_share'" in found[0].msg


def test_every_game_with_bots_declares_its_figures():
    for kit in registry.kits():
        if kit.bots:
            assert not [m for m in check_kit(kit) if m.id == "games.E013"], kit.slug


def test_patterns_name_the_seat_and_the_bot():
    with translation.override("en"):
        assert F.label("contest", "seat3.wins") == "Wins of seat 3"
        assert F.label("contest", "bot.sensible.win_edge") == "Edge of the sensible bot"
        assert F.find("contest", "seat3.nonsense") is None


def test_a_share_is_a_percentage_and_a_number_has_the_readers_decimal_mark():
    fig = {"value": 0.286, "low": 0.25, "high": 0.32, "n": 500}
    with translation.override("en"):
        assert F.show_figure("amnesia_stories", "bard_share", fig) == "29% (25% to 32%)"
        diff = {"value": 0.023, "low": 0.014, "high": 0.031}
        assert F.show_difference("amnesia_stories", "bard_share", diff) == (
            "+2.3 (+1.4 to +3.1) points"
        )
    with translation.override("pt-br"):
        assert F.show("amnesia_stories", "seat1.vp", 5.32).startswith("5,32")


def test_headline_figures_come_first():
    keys = ["moves", "seat1.vp", "bard_share", "draw", "steps_none_matched"]
    assert F.ordered("amnesia_stories", keys)[:3] == ["bard_share", "steps_none_matched", "moves"]


def test_a_figures_name_in_japanese_is_a_noun():
    """A study's answer says "<figure>は29%": a name ending as a verb or an adjective does not
    take は ("部屋の記憶が語られたは100%", seen on a phone); every game's, in Japanese."""
    with translation.override("ja"):
        verbs = [
            (kit.slug, str(f.label))
            for kit in registry.kits()
            if kit.bots
            for f in F.declared(kit.slug)
            if str(f.label).endswith(("た", "る", "い", "す", "だ"))
        ]
    assert verbs == []
