"""``manage.py simulate``: every game, its figures with n and intervals, the same figures
for the same seed however the games are split, bad input refused with exit 2, the time
budget, rulesets by name and version, and draft against draft."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from games.models import Ruleset

pytestmark = pytest.mark.django_db


def simulate(tmp_path, *args: str) -> tuple[dict, str]:
    out = tmp_path / "run.json"
    from io import StringIO

    text = StringIO()
    call_command("simulate", *args, "--json", str(out), stdout=text)
    return json.loads(out.read_text("utf-8")), text.getvalue()


@pytest.mark.parametrize(
    "game,extra",
    [
        ("amnesia", []),
        ("amnesia_stories", []),
        ("contest", ["--set", "hand_size=4", "--players", "2"]),
    ],
)
def test_simulate_each_game(tmp_path, game, extra):
    report, text = simulate(
        tmp_path, game, "--games", "6", "--bots", "sensible,random", "--seed", "4", *extra
    )
    assert report["game"] == game and report["games"] == 6 and not report["partial"]
    moves = report["figures"]["moves"]
    assert moves["n"] == 6 and moves["low"] <= moves["value"] <= moves["high"]
    assert report["figures"]["finished"]["value"] == 1.0
    assert report["app_version"] and report["ruleset"]
    assert set(report["params"]) == {"sensible", "random"}
    assert report["params"]["random"] == {}
    assert "seconds" in report["timings"] and "seconds" not in report["figures"]
    assert "moves " in text and "n=6" in text


def test_the_same_seed_gives_the_same_figures_however_split(tmp_path):
    args = ("amnesia_stories", "--games", "12", "--bots", "sensible,random", "--seed", "7")
    one, _ = simulate(tmp_path, *args)
    again, _ = simulate(tmp_path, *args)
    two, _ = simulate(tmp_path, *args, "--processes", "2")
    assert one["figures"] == again["figures"] == two["figures"]
    assert two["timings"]["processes"] == 2
    other, _ = simulate(tmp_path, *args[:-1], "8")
    assert other["figures"] != one["figures"]


def test_amnesia_over_two_processes_matches_one(tmp_path):
    args = ("amnesia", "--games", "6", "--bots", "sensible,random", "--players", "3")
    one, _ = simulate(tmp_path, *args)
    two, _ = simulate(tmp_path, *args, "--processes", "2")
    assert one["figures"] == two["figures"]


@pytest.mark.parametrize(
    "args,words",
    [
        (["chess"], "Unknown game 'chess'"),
        (["amnesia_stories", "--ruleset", "No such draft"], "No ruleset called"),
        (["amnesia_stories", "--ruleset", "Amnesia Stories draft 3@9"], "has no version 9"),
        (["amnesia_stories", "--set", "colour=red"], "Unknown option 'colour'"),
        (["amnesia_stories", "--set", "choices=99"], "at most 8"),
        (["amnesia_stories", "--bots", "sensible,genius"], "Unknown bot 'genius'"),
        (["amnesia_stories", "--param", "luck=1"], "Unknown parameter luck"),
        (["amnesia_stories", "--param", "agreement=2"], "between 0 and 1"),
        (["amnesia_stories", "--players", "2"], "3 to 8 players, not 2"),
        (["amnesia", "--games", "100001"], "between 1 and 100,000"),
        (["amnesia", "--set", "nonsense"], "NAME=VALUE"),
    ],
)
def test_bad_input_is_a_sentence_and_exit_2(args, words):
    with pytest.raises(CommandError) as caught:
        call_command("simulate", *args)
    assert caught.value.returncode == 2
    assert words in str(caught.value)
    assert str(caught.value).endswith(".")


def test_a_game_without_bots_cannot_be_simulated():
    from games import registry
    from tests.games.toy.kit import KIT

    assert KIT.bots is None
    registry.register(KIT)
    try:
        with pytest.raises(CommandError, match="toy has no bots, so it cannot be simulated"):
            call_command("simulate", "toy")
    finally:
        registry.unregister(KIT.slug)


def test_a_run_out_of_time_keeps_its_figures_marked_partial(tmp_path):
    report, text = simulate(tmp_path, "amnesia", "--games", "5000", "--budget", "0.3")
    assert report["partial"] and 0 < report["games"] < 5000
    assert report["figures"]["moves"]["n"] == report["games"]
    assert "PARTIAL" in text
    # The games kept are the run's first ones: the same figures as a run of that many.
    whole, _ = simulate(tmp_path, "amnesia", "--games", str(report["games"]))
    assert whole["figures"] == report["figures"]


def test_a_ruleset_by_name_and_version_and_draft_against_draft(tmp_path):
    draft3 = Ruleset.objects.get(game="amnesia_stories", name="Amnesia Stories draft 3", version=2)
    report, text = simulate(
        tmp_path,
        "amnesia_stories",
        "--ruleset",
        "Amnesia Stories draft 3@2",
        "--compare",
        "Amnesia Stories draft 4",
        "--games",
        "10",
        "--players",
        "3",
    )
    assert report["ruleset"] == "Amnesia Stories draft 3@2"
    assert report["options"]["choices"] == draft3.options["choices"] == 6
    compare = report["compare"]
    assert compare["ruleset"] == "Amnesia Stories draft 4@1"
    assert compare["options"]["choices"] == 5
    # Draft 3 tells four steps, draft 4 three: the same seeds, fewer steps each turn.
    assert compare["figures"]["set_bonuses"]["kind"] == "difference"
    assert compare["figures"]["moves"]["value"] == 0  # 2 rounds × 3 players × (1 + 3) moves
    assert "compared with Amnesia Stories draft 4@1" in text


def test_minutes_at_the_pace_of_real_tables(tmp_path, gm):
    """With finished real tables of the game, each simulated game has a length in minutes:
    its moves at their pooled seconds per move (here 600 s over 60 moves, and 300 over 60)."""
    from games.playtests.models import PlaytestReport
    from games.services import new_tables

    none, _ = simulate(tmp_path, "amnesia_stories", "--games", "3", "--players", "3")
    assert none["real_plays"] is None and "minutes" not in none["figures"]
    for seconds in (600, 300):
        table = new_tables.create_table(gm, "amnesia_stories", ["Ana", "Bo", "Cy"])
        PlaytestReport.objects.create(
            table=table, figures={"finished": True, "duration_seconds": seconds, "moves": 60}
        )
    report, _ = simulate(tmp_path, "amnesia_stories", "--games", "3", "--players", "3")
    assert report["real_plays"] == {"seconds_per_move": 7.5, "tables": 2}
    # 3 players, 2 rounds: 6 turns of 4 moves, at 7.5 s each.
    assert report["figures"]["minutes"]["value"] == 24 * 7.5 / 60
