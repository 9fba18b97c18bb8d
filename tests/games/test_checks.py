"""The game contract's system check (games/checks/): every registered game passes it, and
each kind of broken kit is one message naming the game, the part and what to do."""

from __future__ import annotations

import copy
import dataclasses
import io

import pytest
from django.core.checks.registry import registry as registered_checks
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.template.loader import get_template

from games import checks, registry
from games.checks import frames
from games.playtests import stats
from games.playtests.figures import MOVES, Figure
from games.rules.base import Field
from games.simulate.bots import Bot, Param


def ids(messages) -> list[str]:
    return [m.id for m in messages]


def only(messages, code: str):
    """The one message of ``messages``, which must have id ``code``."""
    assert ids(messages) == [code], [str(m) for m in messages]
    return messages[0]


@pytest.mark.parametrize("slug", [kit.slug for kit in registry.kits()])
def test_every_registered_game_passes(slug):
    assert checks.check_kit(registry.kit(slug)) == []


@pytest.mark.django_db
def test_manage_py_check_runs_it_and_passes():
    out = io.StringIO()
    call_command("check", stdout=out)
    assert "no issues" in out.getvalue()
    assert checks.check_games in registered_checks.get_checks()


def test_the_toy_game_passes(toy_game):
    assert checks.check_kit(toy_game) == []


def test_a_missing_part(toy_game):
    broken = dataclasses.replace(toy_game, components=None)
    message = only(checks.check_kit(broken), "games.E001")
    assert "'toy'" in message.msg and "'components'" in message.msg
    assert "components.py" in message.hint
    assert message.level == checks.checks.ERROR


def test_a_missing_template(toy_game):
    broken = dataclasses.replace(toy_game, table_template="toy/no_such_table.html")
    message = only(checks.check_kit(broken), "games.E003")
    assert "'table_template'" in message.msg and "toy/no_such_table.html" in message.msg
    assert "templates/toy/no_such_table.html" in message.hint


def test_a_table_template_outside_the_frame(toy_game):
    # A page of its own (here the rules page, which extends the site's frame only) has
    # none of the table's plumbing: the check names the frame to extend.
    broken = dataclasses.replace(toy_game, table_template="toy/rules.html")
    message = only(checks.check_kit(broken), "games.E012")
    assert "'table_template'" in message.msg and "toy/rules.html" in message.msg
    assert '{% extends "games/table_frame.html" %}' in message.hint
    assert frames.parents(get_template(toy_game.table_template).template)[0] == frames.TABLE_FRAME


def test_a_part_of_the_wrong_kind(toy_game):
    broken = dataclasses.replace(toy_game, page_context="toy.page.context")
    message = only(checks.check_kit(broken), "games.E002")
    assert "'page_context'" in message.msg and "context(snap)" in message.hint
    takes_two = dataclasses.replace(toy_game, demos=lambda now, extra: [])
    assert "'demos'" in only(checks.check_kit(takes_two), "games.E002").msg


def test_a_table_guard_and_which_tables_it_keeps(toy_game):
    def guard(table, state, moves, now):
        return None

    kept = dataclasses.replace(toy_game, table_guard=guard, guarded=lambda table: True)
    assert checks.check_kit(kept) == []
    alone = dataclasses.replace(toy_game, guarded=lambda table: True)
    message = only(checks.check_kit(alone), "games.E002")
    assert "'guarded'" in message.msg and "table_guard" in message.hint
    wrong = dataclasses.replace(kept, guarded=lambda: True)
    assert "'guarded'" in only(checks.check_kit(wrong), "games.E002").msg


def test_a_missing_emblem(toy_game):
    broken = dataclasses.replace(toy_game, emblem="toy/emblem.svg")
    message = only(checks.check_kit(broken), "games.E004")
    assert "'emblem'" in message.msg and "toy/emblem.svg" in message.msg
    not_svg = dataclasses.replace(toy_game, emblem="https://example.com/emblem.png")
    assert "SVG" in only(checks.check_kit(not_svg), "games.E002").hint


def test_a_part_that_raises_is_a_message_not_a_traceback(toy_game):
    def demos(now):
        raise RuntimeError("the demo script is not written yet")

    message = only(checks.check_kit(dataclasses.replace(toy_game, demos=demos)), "games.E010")
    assert "RuntimeError: the demo script is not written yet" in message.msg


def test_an_illegal_demo(toy_game):
    def demos(now):
        moves = [{"by": "Bruno", "do": "say"}]
        return [("Out of turn", {"game": "toy", "players": ["Ana", "Bruno"], "moves": moves})]

    message = only(checks.check_kit(dataclasses.replace(toy_game, demos=demos)), "games.E007")
    assert "move 0 of the demo 'Out of turn'" in message.msg and "Ana" in message.msg


def test_fields_that_disagree_with_the_moves(toy_game):
    referee = copy.copy(toy_game.referee)
    referee.fields = {"shout": {"volume": Field("int")}}
    messages = checks.check_kit(dataclasses.replace(toy_game, referee=referee))
    message = only(messages, "games.E005")
    assert "'shout'" in message.msg


def test_a_demo_move_with_an_undeclared_field(toy_game):
    def demos(now):
        moves = [{"by": "Ana", "do": "say", "volume": 11}]
        return [("Loud", {"game": "toy", "players": ["Ana", "Bruno"], "moves": moves})]

    message = only(checks.check_kit(dataclasses.replace(toy_game, demos=demos)), "games.E005")
    assert "volume" in message.msg and "write path would refuse" in message.msg


def test_options_the_referee_does_not_accept(toy_game):
    presets = {"long": {"label": "Long", "options": {"max_lines": 1000}}}
    message = only(checks.check_kit(dataclasses.replace(toy_game, presets=presets)), "games.E006")
    assert "preset 'long'" in message.msg and "at most 100" in message.msg
    labels = {"volume": "How loud"}
    assert (
        "'volume'"
        in only(
            checks.check_kit(dataclasses.replace(toy_game, option_labels=labels)), "games.E006"
        ).msg
    )


class SayBot(Bot):
    params = {"chatty": Param(0.5, 0.0, 1.0, "how often it says something")}

    def choose(self, view, legal_moves, may_wait=False):
        return dict(legal_moves[0])


def bot_figures(setup, moves, initial, states, bots_by_seat):
    return {"moves": len(moves)}


def test_bots_well_formed_and_not(toy_game):
    good = {"random": SayBot, "sensible": SayBot}
    named = {
        "figures": (Figure("moves", "Length", "The moves a game takes.", MOVES),),
        "bot_param_labels": {"chatty": ("Chattiness", "How often it says something.")},
    }
    toy_game = dataclasses.replace(toy_game, **named)
    with_bots = dataclasses.replace(toy_game, bots=good, bot_figures=bot_figures)
    assert checks.check_kit(with_bots) == []
    # A figure the bots give, or a parameter they take, without its words is refused.
    for missing, said in (("figures", "'moves'"), ("bot_param_labels", "'chatty'")):
        bare = dataclasses.replace(with_bots, **{missing: type(named[missing])()})
        message = only(checks.check_kit(bare), "games.E013")
        assert "Game 'toy'" in message.msg and said in message.msg
    for bots, where in [
        ([SayBot], "not a non-empty mapping"),
        ({}, "not a non-empty mapping"),
        ({"random": SayBot}, "no 'sensible' bot"),
        ({**good, "Say Bot": SayBot}, "not a lower-case identifier"),
        ({**good, "say": "SayBot"}, "not a games.simulate.bots.Bot class"),
        ({**good, "say": Bot}, "does not write choose"),
        ({**good, "say": type("Loose", (SayBot,), {"params": {"x": 1}})}, "Param"),
    ]:
        kit = dataclasses.replace(toy_game, bots=bots, bot_figures=bot_figures)
        message = only(checks.check_kit(kit), "games.E011")
        assert where in message.msg and "bots" in message.msg
    no_figures = dataclasses.replace(toy_game, bots=good)
    assert "'bot_figures'" in only(checks.check_kit(no_figures), "games.E011").msg
    figures_alone = dataclasses.replace(toy_game, bot_figures=bot_figures)
    assert "without bots" in only(checks.check_kit(figures_alone), "games.E011").msg
    traced = dataclasses.replace(with_bots, bot_trace=lambda state: {})
    assert checks.check_kit(traced) == []
    trace_alone = dataclasses.replace(with_bots, bot_figures=None, bot_trace=lambda state: {})
    assert any(
        "'bot_trace'" in m.msg and "without bot_figures" in m.msg
        for m in checks.check_kit(trace_alone)
    )
    bad_trace = dataclasses.replace(with_bots, bot_trace=lambda: {})
    assert "'bot_trace'" in only(checks.check_kit(bad_trace), "games.E002").msg


@pytest.mark.django_db
def test_manage_py_check_fails_on_a_broken_game(toy_game, game_for_tests):
    game_for_tests(dataclasses.replace(toy_game, components=None, table_template=""))
    with pytest.raises(SystemCheckError) as failed:
        call_command("check")
    text = str(failed.value)
    assert "games.E001" in text and "'components'" in text and "'table_template'" in text
    assert "Traceback" not in text


def test_a_rules_page_filling_a_block_its_frame_does_not_have(toy_game):
    """Its text would never show: the check names the block and the frame's own."""
    broken = dataclasses.replace(toy_game, rules_template="toy/rules_misnamed.html")
    message = only(checks.check_kit(broken), "games.E016")
    assert "'rules_template'" in message.msg and "block(s) rules" in message.msg
    assert "intro" in message.hint and "setup" in message.hint and "turn" in message.hint


def test_balance_rows_are_typed_records(toy_game):
    def untyped(entries, figs):
        return [{"label": "Stops", "value": 1}]  # no key, no kind: the dashboard answered 500

    message = only(
        checks.check_kit(
            dataclasses.replace(
                toy_game, playtest=dataclasses.replace(toy_game.playtest, balance=untyped)
            )
        ),
        "games.E008",
    )
    assert "'playtest.balance'" in message.msg and "BalanceRow" in message.hint

    def typed(entries, figs):
        return [stats.row("stops", "Stops", 1.0), stats.row("won", "Won", 0.5, "percent")]

    fine = dataclasses.replace(
        toy_game, playtest=dataclasses.replace(toy_game.playtest, balance=typed)
    )
    assert checks.check_kit(fine) == []


@pytest.mark.django_db
def test_the_emblem_is_optional_with_the_sites_picture_by_default(toy_game, client):
    assert toy_game.emblem == registry.DEFAULT_EMBLEM and checks.check_kit(toy_game) == []
    assert f"/static/{registry.DEFAULT_EMBLEM}" in client.get("/").content.decode()
