"""Amnesia referee: narrative() of a small game told line by line, and of a tie guessed again."""

from __future__ import annotations

from games.amnesia.rules import GAME
from games.rules.script import parse_script, replay_script
from tests.games.amnesia.scripts import ABC, CHALLENGE, M, script


# -- narrative() -----------------------------------------------------------------------------
def test_narrative_of_a_small_game():
    moves = [
        M("Ana", "continue", text="I wake up."),  # 0
        M("Bruno", "suggest", text="A knife on the floor."),  # 1
        M("Caio", "insist", text="The police break in."),  # 2
        M("Ana", "accept", text="They break in."),  # 3
        M("Ana", "end_scene", text="I run."),  # 4
        M("Bruno", "flashback", abilities=["surgery"], text="Med school."),  # 5
        M("Ana", "insist", text="You failed the exam."),  # 6
        M("Bruno", "refuse"),  # 7
        M("Bruno", "stake", text="I graduated."),  # 8
        M("Ana", "stake", text="I failed."),  # 9
        M("Caio", "join", text="I was expelled."),  # 10
        M("Bruno", "open"),  # 11 8H
        M("Caio", "higher"),  # 12 QS hit
        M("Ana", "lower"),  # 13 2D hit
        M("Bruno", "lower"),  # 14 2C tie: miss
        M("Caio", "higher"),  # 15 5H hit
        M("Ana", "quit"),  # 16 2 bets, 1 back
        M("Bruno", "end_scene"),  # 17
        M("Caio", "pass", take=0),  # 18
        M("Ana", "room_flashback", text="The room."),  # 19
        M("Ana", "end_scene"),  # 20
        M("Bruno", "pass", take=1, text="I wait."),  # 21
        M("Caio", "end_story", agreed=ABC, text="Fin."),  # 22
    ]
    scr = script(
        moves,
        ABC,
        options={"finale_factor": 0, "pass_at_cap": "allow"},
        deck=["8H", "QS", "2D", "2C", "5H"],
        seed=1,
    )
    code, final = replay_script(scr)
    assert code == 0, final
    assert final["last_challenge"]["winner"] == "Caio"
    assert final["last_challenge"]["pot"] == 6
    assert final["tokens"] == {"Ana": 8, "Bruno": 8, "Caio": 12}
    assert final["finished"] is True

    setup, parsed = parse_script(scr)
    entries = GAME.narrative(setup, parsed)
    assert [e["kind"] for e in entries] == ["scene", "flashback", "pass", "room", "pass", "end"]

    scene, flash, pass1, room, pass2, end = entries
    assert scene["number"] == 1 and scene["narrator"] == "Ana"
    assert scene["abilities"] == []
    assert scene["narration"] == [
        {"by": "Ana", "text": "I wake up.", "move": 0},
        {"by": "Ana", "text": "They break in.", "move": 3},
        {"by": "Ana", "text": "I run.", "move": 4},
    ]
    assert scene["suggestions"] == [
        {
            "by": "Bruno",
            "text": "A knife on the floor.",
            "paid": False,
            "outcome": "free",
            "move": 1,
        },
        {
            "by": "Caio",
            "text": "The police break in.",
            "paid": True,
            "outcome": "accepted",
            "move": 2,
        },
    ]
    assert scene["challenges"] == []
    assert scene["moves"] == [0, 1, 2, 3, 4]

    assert flash["number"] == 1 and flash["narrator"] == "Bruno"
    assert flash["abilities"] == ["surgery"]
    assert flash["narration"] == [{"by": "Bruno", "text": "Med school.", "move": 5}]
    assert flash["suggestions"] == [
        {"by": "Ana", "text": "You failed the exam.", "paid": True, "outcome": "refused", "move": 6}
    ]
    assert flash["moves"] == list(range(5, 18))
    (duel,) = flash["challenges"]
    assert duel["narrator"] == "Bruno" and duel["insister"] == "Ana"
    assert duel["suggestion"] == "You failed the exam."
    assert duel["stakes"] == [
        {"by": "Bruno", "text": "I graduated.", "move": 8},
        {"by": "Ana", "text": "I failed.", "move": 9},
    ]
    assert duel["joined"] == [{"by": "Caio", "text": "I was expelled.", "move": 10}]
    assert duel["reference"] == "8H"
    assert duel["cards"] == [
        {"by": "Bruno", "guess": "open", "card": "8H", "result": "reference"},
        {"by": "Caio", "guess": "higher", "card": "QS", "against": "8H", "result": "hit"},
        {"by": "Ana", "guess": "lower", "card": "2D", "against": "QS", "result": "hit"},
        {"by": "Bruno", "guess": "lower", "card": "2C", "against": "2D", "result": "miss"},
        {"by": "Caio", "guess": "higher", "card": "5H", "against": "2D", "result": "hit"},
    ]
    assert duel["quits"] == [{"by": "Ana", "refund": 1}]
    assert duel["winner"] == "Caio" and duel["pot"] == 6
    assert duel["moves"] == list(range(7, 17))

    assert pass1 == {"kind": "pass", "by": "Caio", "take": 0, "text": "", "moves": [18]}
    assert room["number"] == 1 and room["narrator"] == "Ana"
    assert room["narration"] == [{"by": "Ana", "text": "The room.", "move": 19}]
    assert room["moves"] == [19, 20]
    assert pass2 == {"kind": "pass", "by": "Bruno", "take": 1, "text": "I wait.", "moves": [21]}
    assert end == {"kind": "end", "agreed": ABC, "text": "Fin.", "moves": [22]}

    # an illegal move ends the readable story there
    assert GAME.narrative(setup, parsed[:5] + [M("Ana", "open")] + parsed[5:]) == entries[:1]


def test_narrative_tie_guess_again():
    moves = CHALLENGE + [M("Ana", "open"), M("Bruno", "higher"), M("Bruno", "higher")]
    scr = script(moves, options={"tie_loses": False}, deck=["9C", "9D", "JH"])
    setup, parsed = parse_script(scr)
    (scene,) = GAME.narrative(setup, parsed)
    results = [c["result"] for c in scene["challenges"][0]["cards"]]
    assert results == ["reference", "again", "hit"]
    assert scene["challenges"][0]["winner"] is None
