"""The figures of golden games, against numbers worked out by hand from the scripts.

No database: ``games.playtests.reports`` is a pure function of a script's set-up and timed moves.
"""

from __future__ import annotations

from datetime import timedelta

from games.playtests.reports import PAUSE_SECONDS, figures, timeline
from games.rules.script import parse_script

from .conftest import T0, golden, with_times


def report_of(name: str, gaps=None) -> dict:
    setup, moves = parse_script(with_times(golden(name), gaps))
    return figures(setup, moves)


# -- time -----------------------------------------------------------------------------------------
def test_pause_rule_leaves_out_gaps_over_fifteen_minutes():
    moves = [{"at": (T0 + timedelta(seconds=s)).isoformat()} for s in (0, 60, 960, 2761, 2821)]
    # gaps: 60, 900 (exactly 15 minutes: counted), 1801 (a pause: left out), 60
    time = timeline(moves)
    assert PAUSE_SECONDS == 900
    assert time["duration_seconds"] == 60 + 900 + 60
    assert time["elapsed"] == [0, 60, 960, 960, 1020]
    assert time["pauses"] == [{"after_move": 2, "seconds": 1801}]
    assert time["started_at"] == T0.isoformat()
    assert time["ended_at"] == (T0 + timedelta(seconds=2821)).isoformat()


def test_one_second_over_the_limit_is_a_pause():
    moves = [{"at": (T0 + timedelta(seconds=s)).isoformat()} for s in (0, 901, 961)]
    assert timeline(moves)["duration_seconds"] == 60


def test_moves_without_times_add_nothing():
    moves = [{"at": T0.isoformat()}, {}, {"at": (T0 + timedelta(seconds=30)).isoformat()}]
    assert timeline(moves)["duration_seconds"] == 30
    assert timeline([])["duration_seconds"] == 0


# -- Amnesia --------------------------------------------------------------------------------------
def test_amnesia_finale_game():
    # 17 moves a minute apart, but 20 minutes of dinner before move 5 and exactly 15 minutes
    # of thinking before move 9: 14 gaps of 60 s + 900 s = 1740 s.
    report = report_of("amnesia/11_finale_and_end_story", gaps={5: 1200, 9: 900})
    assert report["participants"] == ["Ana", "Bruno"]
    assert report["players"] == 2
    assert report["moves"] == 17
    assert report["finished"] is True
    assert report["winners"] == []
    assert report["duration_seconds"] == 1740
    assert report["pauses"] == [{"after_move": 4, "seconds": 1200}]
    f = report["figures"]
    assert (f["scenes"], f["flashbacks"], f["passes"]) == (2, 6, 0)
    assert f["room_flashback_told"] is True
    assert (f["paid_suggestions"], f["paid_accepted"], f["paid_refused"]) == (0, 0, 0)
    assert f["challenges"] == 0
    # Each pays one token per scene or memory: Ana at moves 0, 4, 8, 12; Bruno at 2, 6, 10, 14.
    ana = [10, 9, 9, 9, 9, 8, 8, 8, 8, 7, 7, 7, 7, 6, 6, 6, 6, 6]
    bruno = [10, 10, 10, 9, 9, 9, 9, 8, 8, 8, 8, 7, 7, 7, 7, 6, 6, 6]
    assert f["tokens"]["series"] == {"Ana": ana, "Bruno": bruno}
    # The discard reaches 5 (> 2 x 2 players) with Bruno's memory at move 10; the room is
    # told at move 12, 10 playing minutes + the 15-minute think = 1500 s in.
    assert f["finale_available"]["move"] == 10
    assert f["finale"]["move"] == 12
    assert f["finale"]["elapsed_seconds"] == 10 * 60 + 900
    assert f["finale"]["fraction"] == 0.75
    assert f["finale"]["at"] == (T0 + timedelta(seconds=10 * 60 + 1200 + 900)).isoformat()


def test_amnesia_challenge_with_joiners():
    f = report_of("amnesia/31_pass_at_cap_allow_takes_nothing")["figures"]
    assert f["free_suggestions"] == 1
    assert (f["paid_suggestions"], f["paid_accepted"], f["paid_refused"]) == (1, 0, 1)
    assert f["passes"] == 2
    # The refusal is move 3; Bruno's quit at move 13 leaves Caio alone: 11 moves.
    assert f["challenge_lengths"] == [11]
    (challenge,) = f["challenge_list"]
    assert challenge["winner"] == "Caio" and challenge["winner_role"] == "insister"
    assert challenge["pot"] == 6 and challenge["joined"] == 2
    assert f["tokens"]["final"] == {"Ana": 7, "Bruno": 9, "Caio": 14, "Dora": 9}


def test_amnesia_accepted_then_refused():
    f = report_of("amnesia/06_tie_guess_again_and_accept")["figures"]
    assert (f["paid_suggestions"], f["paid_accepted"], f["paid_refused"]) == (2, 1, 1)
    assert f["challenge_lengths"] == [5]  # refuse, open, higher, higher (a tie), higher


# -- Amnesia Stories ------------------------------------------------------------------------------
def test_amnesia_stories_judging_branches():
    report = report_of("amnesia_stories/01_judging_branches", gaps={4: 3600})
    assert report["duration_seconds"] == 10 * 60  # 11 gaps, one of them an hour's pause
    assert report["winners"] == ["Ana"]
    assert report["scores"] == {"Ana": 9, "Bruno": 3, "Caio": 3}
    # Ana 9, then Bruno and Caio on 3 (Caio's 6 less his 3 red cards): a margin of 6.
    assert report["margin"] == 6
    f = report["figures"]
    assert f["vp"]["series"] == {"Ana": [0, 4, 9, 9], "Bruno": [0, 3, 3, 3], "Caio": [0, 1, 6, 6]}
    assert f["vp"]["final"] == {"Ana": 9, "Bruno": 3, "Caio": 3}
    assert f["red_cards"] == {"Ana": 1, "Bruno": 0, "Caio": 3}
    assert f["red_cards_total"] == 4
    assert f["penalty"] == {"Ana": 0, "Bruno": 0, "Caio": 3}
    # Turn 1: Bruno's 2-1-4 is Ana's 2-4-1 in another order; turn 2: Ana and Caio exactly.
    assert f["set_bonuses"] == {"Ana": 1, "Bruno": 1, "Caio": 1}
    assert [t["set_bonus"] for t in f["turns"]] == [["Bruno"], ["Ana", "Caio"], []]
    # Step by step, audience members matching the bard (2 per step, 3 turns):
    # step 1: 1 + 2 + 0, step 2: 1 + 2 + 0, step 3: 0 + 2 + 0.
    assert [t["matches"] for t in f["turns"]] == [[1, 1, 0], [2, 2, 2], [0, 0, 0]]
    assert f["step_matches"] == [3, 3, 2]
    assert f["step_chances"] == [6, 6, 6]
    assert f["match_rate_by_step"] == [0.5, 0.5, 0.333]
    assert f["steps"] == {"all": 3, "some": 2, "none": 4}
    # draft 4: the bard scores only for the steps some (not all) matched
    assert f["bard_scored_steps"] == 2


def test_amnesia_stories_draw_has_no_margin():
    report = report_of("amnesia_stories/02_penalty_tie_and_draw")
    assert report["winners"] == ["Ana", "Bruno"]
    assert report["margin"] == 0
    f = report["figures"]
    # Ana and Caio hold 2 red cards each (the most) and lose 2 VP: 4 -> 2 and 3 -> 1.
    assert f["vp"]["series"]["Ana"][-1] == 4 and f["vp"]["final"]["Ana"] == 2
    assert f["vp"]["final"] == {"Ana": 2, "Bruno": 2, "Caio": 1}
    assert f["set_bonuses"] == {"Ana": 1, "Bruno": 0, "Caio": 1}


# -- Contest --------------------------------------------------------------------------------------
def test_contest_forfeits():
    f = report_of("contest/forfeits")["figures"]
    assert f["contests"] == 2
    assert f["by_attribute"] == {"brains": 1, "muscle": 0, "moves": 1, "coolness": 0}
    assert (f["challenger_wins"], f["defender_wins"]) == (2, 0)
    assert f["forfeits"] == 2 and f["refusals"] == 0
    assert f["drinks"] == {"Ana": 0, "Bo": 1} and f["drinks_total"] == 1
    assert f["cards_lost"] == {"Ana": 0, "Bo": 1}


def test_contest_refusals_and_who_dropped_out_when():
    report = report_of("contest/control_passes_when_narrator_drops_out", gaps={10: 1000})
    f = report["figures"]
    assert f["refusals"] == 2 and f["contests"] == 0
    assert [r["penalty"] for r in f["refusal_list"]] == [["card", "card"], ["card", "card"]]
    # Bo's second refusal (move 7) empties his hand; Ana's fourth unnamed challenge is paid at
    # move 15. The 1000 s gap before move 10 is a pause: Ana is out after 14 playing minutes.
    assert [(d["player"], d["move"]) for d in f["dropouts"]] == [("Bo", 7), ("Ana", 15)]
    assert [d["elapsed_seconds"] for d in f["dropouts"]] == [7 * 60, 14 * 60]
    assert f["cards_lost"] == {"Ana": 4, "Bo": 4, "Cy": 0, "Di": 0}


def test_contest_pretzels():
    f = report_of("contest/pretzel_limit_void_challenge")["figures"]
    # Bo's pretzel and Cy's land on Ana (the controller); Cy's next one on Bo, who took over.
    assert f["pretzels_at"] == {"Ana": 2, "Bo": 1, "Cy": 0}
    assert f["pretzels_thrown"] == 3
    assert [(d["player"], d["move"]) for d in f["dropouts"]] == [("Ana", 5)]


def test_contest_winner():
    report = report_of("contest/last_card_and_winner")
    assert report["finished"] and report["winners"] == ["Ana"]
    assert report["seat_order"] == ["Ana", "Bo"]
    assert [d["player"] for d in report["figures"]["dropouts"]] == ["Bo"]
