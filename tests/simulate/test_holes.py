"""Rule holes planted in the marker game (tests/simulate/marker.py) are found by
``simulate``, and each finding's script reproduces it with ``referee replay``."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from games.rules import get_game

pytestmark = pytest.mark.django_db


def simulate(tmp_path, *args: str) -> tuple[dict, str]:
    out = tmp_path / "run.json"
    text = StringIO()
    call_command("simulate", "marker", *args, "--json", str(out), stdout=text)
    return json.loads(out.read_text("utf-8")), text.getvalue()


def replay(tmp_path, script: dict) -> dict:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script), "utf-8")
    out = StringIO()
    call_command("referee", "replay", str(path), stdout=out)  # exit 0: every move legal
    return json.loads(out.getvalue())


def test_a_game_that_never_ends_is_found_with_its_stall(tmp_path, marker_game):
    report, text = simulate(
        tmp_path, "--set", "bounce=true", "--games", "4", "--move-cap", "40", "--bots", "random"
    )
    (finding,) = report["findings"]
    assert finding["kind"] == "move_cap" and finding["games"] == 4
    assert "bounce=True" in finding["ruleset"]
    assert "RULE HOLE: 4 of 4 games did not end within the move cap" in text
    state = replay(tmp_path, finding["script"])
    assert not state["finished"] and len(finding["script"]["moves"]) == 40
    assert state == finding["position"]
    # Without the planted hole, games of random steps end.
    fine, _ = simulate(tmp_path, "--games", "4", "--move-cap", "40", "--bots", "random")
    assert fine["findings"] == [] and fine["figures"]["finished"]["value"] == 1.0


def test_a_position_where_nobody_can_move_is_found(tmp_path, marker_game):
    report, text = simulate(
        tmp_path, "--set", "dead_end=true", "--bots", "random", "--games", "20", "--seed", "3"
    )
    (finding,) = [f for f in report["findings"] if f["kind"] == "no_legal_move"]
    assert 0 < finding["games"] <= 20
    state = replay(tmp_path, finding["script"])
    assert state["pos"] == 1 and not state["finished"]
    referee = get_game("marker")
    assert all(referee.legal_moves(state, p) == [] for p in state["seats"])
    assert "nobody has a legal move" in text


def test_an_inert_option_is_found_and_a_live_one_is_not(tmp_path, marker_game):
    report, text = simulate(
        tmp_path, "--probe", "polite", "--probe", "length", "--games", "30", "--bots", "random"
    )
    probes = {(p["option"], str(p["value"])): p for p in report["probes"]}
    polite = probes[("polite", "True")]
    assert polite["inert"] and polite["figures"] >= 3
    assert not probes[("length", "3")]["inert"] and not probes[("length", "20")]["inert"]
    assert "INERT OPTION: polite=True" in text
    # Its scripts: the same game with and without the option ends in the same position.
    with_it = replay(tmp_path, polite["script"])
    without = replay(tmp_path, polite["baseline_script"])
    assert with_it["options"]["polite"] and not without["options"]["polite"]
    with_it.pop("options"), without.pop("options")
    assert with_it == without


def test_a_dominant_bot_is_flagged_after_the_correction(tmp_path, marker_game):
    """Heading for the nearer end beats stepping at random, far above the fair share; two
    bots of the same kind flag nothing.

    The move cap is 100, not the 5,000 of a real run: the games where a random bot moves first
    never end (it always moves from the middle square, the sensible bots always from beside
    it, so nobody reaches an end) and play to the cap whatever it is, 150,000 moves at 5,000;
    the games that end do within a few moves (each random move from beside the middle puts the
    marker beside an end with chance 1/2, and the sensible bot then wins: 100 moves happen
    about once in 2**49 games). The finding is the same at either cap (30 wins of 30 finished
    games, measured)."""
    report, text = simulate(
        tmp_path, "--bots", "sensible,random", "--games", "60", "--move-cap", "100"
    )
    (finding,) = [f for f in report["findings"] if f["kind"] == "dominant"]
    assert finding["bot"] == "sensible" and finding["p_adjusted"] < 0.05
    assert finding["wins"] > finding["games"] * finding["fair_share"]
    assert replay(tmp_path, finding["script"])["winners"]
    same, _ = simulate(tmp_path, "--bots", "random", "--games", "60")
    assert not [f for f in same["findings"] if f["kind"] == "dominant"]
