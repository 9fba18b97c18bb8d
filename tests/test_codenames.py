"""The shared detector of code names (tests/codenames.py) finds what a program writes and
leaves alone what a person reads."""

from __future__ import annotations

import pytest

from tests.codenames import code_names


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("A partilha do bardo: bard_share", ["bard_share"]),
        ("seat1.wins 0,31", ["seat1.wins"]),
        ("Contests on contest.brains", ["contest.brains"]),
        ("bard_points=3 (was 2)", ["bard_points", "bard_points=3"]),
        ("もしもchoicesを変えたら CLARITY", ["CLARITY"]),
        ("Bo (Yum) perde 10H · KS", ["10H", "KS"]),
        ("zero_at_climax, refuse", ["zero_at_climax"]),
    ],
)
def test_code_names_are_found(text, found):
    assert code_names(text) == found


@pytest.mark.parametrize(
    "text",
    [
        "O bardo ganha 5,32 PV por partida (29%).",
        "Baixe o PDF, o EPUB ou o CSV; leia o código QR.",
        "Abra http://amnesia.local:8000/tables/3/ no celular.",
        "story.pdf · 127.0.0.1:8000 · e.g. a note",
        "吟遊詩人の得点は平均5.3点です。",
        "Ana (Zed) joga 10♥ e 7♣: 4+10+0+8=22",
        "Rodada 2 de 3 · 1500 de 1500",
    ],
)
def test_what_a_person_reads_passes(text):
    assert code_names(text) == []


def test_a_word_allowed_by_the_caller_is_left_alone():
    assert code_names("Mesa do_bar e seat1.wins", allowed={"do_bar"}) == ["seat1.wins"]
