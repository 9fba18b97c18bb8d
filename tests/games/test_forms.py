"""A posted form becomes a move by the fields the game's referee declares."""

from __future__ import annotations

import ast
from pathlib import Path

from django.http import QueryDict

from games.forms import declared_fields, move_from_post
from games.rules import get_game

AMNESIA = get_game("amnesia")
STORIES = get_game("amnesia_stories")
CONTEST = get_game("contest")


def post(**fields) -> QueryDict:
    data = QueryDict(mutable=True)
    for key, value in fields.items():
        data.setlist(key, value if isinstance(value, list) else [value])
    return data


def test_ints_lists_and_text_by_the_declared_kinds() -> None:
    move = move_from_post(
        post(by="Ana", do="pass", take=" 2 ", text="x", expected_seq="4"), AMNESIA
    )
    assert move == {"by": "Ana", "do": "pass", "take": 2, "text": "x"}
    move = move_from_post(post(by="Ana", do="end_story", agreed=["Ana", "", "Bruno"]), AMNESIA)
    assert move["agreed"] == ["Ana", "Bruno"]


def test_a_list_typed_in_one_box_is_split_on_its_separator() -> None:
    move = move_from_post(
        post(by="Ana", do="flashback", abilities=" surgery, ,lock-picking"), AMNESIA
    )
    assert move["abilities"] == ["surgery", "lock-picking"]


def test_what_does_not_parse_is_passed_on_for_the_referee_to_refuse() -> None:
    assert move_from_post(post(by="Ana", do="pass", take="two"), AMNESIA)["take"] == "two"
    picks = move_from_post(post(by="Ana", do="answer", picks=["2", "x", " "]), STORIES)["picks"]
    assert picks == [2, "x"]
    # a field no verb declares is text (the referee ignores or refuses it)
    assert move_from_post(post(by="Ana", do="pass", colour=["a", "b"]), AMNESIA)["colour"] == "b"


def test_checkboxes_and_blank_values() -> None:
    move = move_from_post(post(by="Ana", do="play", card="", word="on", ham="1"), CONTEST)
    assert move == {"by": "Ana", "do": "play", "word": True, "ham": 1}  # no card: left out
    move = move_from_post(post(by="Ana", do="take_control", reward="", card="M1"), CONTEST)
    assert move["reward"] is None  # "no reward" is a value of its own
    move = move_from_post(post(by="Ana", do="challenge", contest="", named="false"), CONTEST)
    assert move["contest"] == "" and move["named"] is False  # the referee says it is empty


def test_the_same_name_can_mean_a_list_for_one_verb_and_a_text_for_another() -> None:
    assert move_from_post(post(by="A", do="forfeit", penalty="card"), CONTEST)["penalty"] == "card"
    refused = move_from_post(post(by="A", do="refuse", penalty=["drink", "card"]), CONTEST)
    assert refused["penalty"] == ["drink", "card"]


def test_a_form_that_does_not_post_its_verb_names_it() -> None:
    data = post(by="Ana", name="Zed", brains="3", bfa="true", keep="true")
    move = move_from_post(data, CONTEST, verb="character")
    assert move == {"by": "Ana", "name": "Zed", "brains": 3, "bfa": True, "keep": "true"}


def test_the_fields_a_form_adds_to_a_move_it_carries_whole() -> None:
    """A move built card by card rides as JSON; the form adds the fields its verb declares
    (the contest's word bonus, a reward), read by their kinds, and nothing else."""
    data = post(move='{"by": "Ana", "do": "play"}', pick="7C", word="on", ham="2", reward="")
    assert declared_fields(data, CONTEST, "play") == {"word": True, "ham": 2}
    assert declared_fields(post(reward=""), CONTEST, "take_control") == {"reward": None}
    assert declared_fields(post(ham=""), CONTEST, "play") == {}  # left empty: left out
    assert declared_fields(post(ham="a lot"), CONTEST, "play") == {"ham": "a lot"}
    assert declared_fields(post(word="on"), CONTEST, None) == {}


def test_the_form_parser_names_no_game_field() -> None:
    """forms.py knows kinds, not fields: no game's field name is spelled in it."""
    source = Path(__file__).resolve().parents[2] / "games" / "forms.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    start = next(
        n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "move_from_post"
    )
    spelled = {
        n.value
        for node in tree.body
        if node.lineno <= start.end_lineno
        for n in ast.walk(node)
        if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }
    names = {f for g in (AMNESIA, STORIES, CONTEST) for v in g.fields.values() for f in v}
    assert spelled & names == set()
