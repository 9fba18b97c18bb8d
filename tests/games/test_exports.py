"""Exports keep secrets: the answers to an Amnesia Stories turn not judged yet are left out of
the web page's export and ``referee export`` (``"pending_left_out": N``), written whole with
``--with-pending``, and whole again once the turn is judged; an import says what it did not
restore (shared/referee/README.md, "Secrets")."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from games import exports
from games.models import Table
from games.rules import get_game
from games.rules.script import parse_script, replay, replay_script, rules_part
from games.services import new_tables, reading, writing
from tests.playtests.conftest import finished_table

pytestmark = pytest.mark.django_db

# Picks nobody would guess from the judged turns: the test looks for them in the exports.
PICKS = {"Ana": [4, 2, 5], "Bruno": [5, 4, 1], "Caio": [1, 3, 2]}


def told(table: Table) -> None:
    state = reading.state_of(table)
    story = state["journey"][: state["options"]["questions"]]
    writing.play_many(table, [{"by": state["bard"], "do": "tell", "story": story}], None)


def answer(table: Table, name: str) -> None:
    writing.play_many(table, [{"by": name, "do": "answer", "picks": PICKS[name]}], None)


@pytest.fixture
def pending(make_table) -> Table:
    """A turn told and answered by two of three players: their picks are secret. The area
    cards are real ones on the table (a physical deck), so the export keeps its seed and
    replays (a virtual deck in play is left out whole: the tests at the end)."""
    table = make_table("amnesia_stories", deck_mode="physical")
    areas = [f"A{n:02}" for n in range(1, 11)]
    writing.play_many(
        table, [{"by": "Ana", "do": "deal", "slots": areas[:5], "journey": areas[5:]}], None
    )
    told(table)
    answer(table, "Ana")
    answer(table, "Bruno")
    return table


def cli_export(table: Table, *args: str) -> dict:
    out = StringIO()
    call_command("referee", "export", str(table.pk), *args, stdout=out)
    return json.loads(out.getvalue())


def picks_in(script: dict) -> list[list[int]]:
    return [m["picks"] for m in script["moves"] if m["do"] == "answer"]


def test_the_referee_names_the_pending_answers_and_nothing_else(pending):
    referee = get_game("amnesia_stories")
    moves = [rules_part(m) for m in reading.script_of(pending)["moves"]]
    state = reading.state_of(pending)
    assert referee.pending_secrets(state, moves) == [len(moves) - 2, len(moves) - 1]
    # Before anyone answers nothing is pending; nor in a game without secrets.
    before = replay(reading.setup_of(pending), moves[:-2]).state
    assert before["phase"] == "answer"
    assert referee.pending_secrets(before, moves[:-2]) == []
    assert get_game("amnesia").pending_secrets({"phase": "answer"}, moves) == []


def test_web_export_leaves_the_pending_answers_out_and_replays_to_before_them(pending, gm_client):
    response = gm_client.get(reverse("games:export", args=[pending.pk]))
    assert response.status_code == 200
    script = json.loads(response.content)
    assert next(iter(script)) == "pending_left_out"  # at the top of the script
    assert script["pending_left_out"] == 2
    assert picks_in(script) == []
    body = response.content.decode()
    assert '"picks"' not in body
    # It replays to the state before the two answers: the story told, nobody answered.
    code, state = replay_script(script)
    assert code == 0
    full = reading.state_of(pending)
    assert state["phase"] == "answer" and state["answered"] == [] and state["_picks"] == {}
    assert state["story"] == full["story"] and full["answered"] == ["Ana", "Bruno"]


def test_cli_export_does_the_same_unless_asked_for_the_whole_log(pending):
    partial = cli_export(pending)
    assert partial["pending_left_out"] == 2 and picks_in(partial) == []
    assert partial == exports.export_script(pending)
    whole = cli_export(pending, "--with-pending")
    assert "pending_left_out" not in whole
    assert picks_in(whole) == [PICKS["Ana"], PICKS["Bruno"]]
    assert whole == reading.script_of(pending)
    setup, moves = parse_script(whole)
    assert replay(setup, [rules_part(m) for m in moves]).state == reading.state_of(pending)


def test_once_the_turn_is_judged_every_export_is_whole_again(pending, gm_client):
    answer(pending, "Caio")
    script = json.loads(gm_client.get(reverse("games:export", args=[pending.pk])).content)
    assert "pending_left_out" not in script
    assert picks_in(script) == [PICKS["Ana"], PICKS["Bruno"], PICKS["Caio"]]
    assert script == cli_export(pending) == reading.script_of(pending)
    code, state = replay_script(script)
    assert code == 0 and state == reading.state_of(pending)
    assert state["history"][0]["picks"] == PICKS


def test_the_export_link_shows_while_answers_are_pending(pending, gm_client):
    page = gm_client.get(reverse("games:table", args=[pending.pk])).content.decode()
    assert reverse("games:export", args=[pending.pk]) in page


def test_cli_import_of_a_partial_script_says_what_it_did_not_restore(pending, gm, tmp_path):
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(cli_export(pending)), encoding="utf-8")
    out, err = StringIO(), StringIO()
    call_command("referee", "import", str(path), "--owner", "gm", stdout=out, stderr=err)
    copy = Table.objects.get(pk=int(out.getvalue()))  # standard output: the id alone
    assert "left out 2 secret answer" in err.getvalue()
    assert "pending_left_out" not in reading.script_of(copy)  # it describes the file only
    state = reading.state_of(copy)
    assert state["phase"] == "answer" and state["answered"] == []
    # The players answer again on the new table, and the export is whole.
    for name in ("Ana", "Bruno", "Caio"):
        answer(copy, name)
    assert "pending_left_out" not in exports.export_script(copy)


def test_cli_import_of_a_whole_script_says_nothing(pending, tmp_path):
    path = tmp_path / "whole.json"
    path.write_text(json.dumps(cli_export(pending, "--with-pending")), encoding="utf-8")
    out, err = StringIO(), StringIO()
    call_command("referee", "import", str(path), "--owner", "gm", stdout=out, stderr=err)
    assert err.getvalue() == ""
    copy = Table.objects.get(pk=int(out.getvalue()))
    assert reading.state_of(copy) == reading.state_of(pending)


def test_web_import_of_a_partial_script_says_what_it_did_not_restore(pending, gm_client):
    partial = gm_client.get(reverse("games:export", args=[pending.pk])).content.decode()
    response = gm_client.post(reverse("games:table_import"), {"script_text": partial}, follow=True)
    assert response.status_code == 200
    copy = Table.objects.latest("pk")
    assert copy.pk != pending.pk and response.redirect_chain[-1][0] == copy.get_absolute_url()
    page = response.content.decode()
    assert "left out 2 secret answers" in page and "answer again" in page


@pytest.mark.parametrize("value", [-1, "2", 1.5, True])
def test_a_pending_count_that_is_not_a_count_is_a_malformed_script(pending, gm_client, value):
    script = dict(exports.export_script(pending), pending_left_out=value)
    response = gm_client.post(reverse("games:table_import"), {"script_text": json.dumps(script)})
    assert response.status_code == 400
    assert "pending_left_out" in response.content.decode()
    assert Table.objects.count() == 1


def test_the_tables_language_goes_out_with_its_script_and_comes_back(pending, gm_client, tmp_path):
    """A Japanese table exported and imported (on the page, by the command) is Japanese again:
    its projector, seat pages and story speak Japanese on the other laptop too."""
    pending.language = "ja"
    pending.save(update_fields=["language"])
    web = json.loads(gm_client.get(reverse("games:export", args=[pending.pk])).content)
    assert web["language"] == "ja" and cli_export(pending)["language"] == "ja"
    gm_client.post(reverse("games:table_import"), {"script_text": json.dumps(web)})
    copy = Table.objects.latest("pk")
    assert copy.pk != pending.pk and copy.language == "ja"
    assert "language" not in copy.extra  # the table's, not a set-up key
    path = tmp_path / "whole.json"
    path.write_text(json.dumps(cli_export(pending, "--with-pending")), encoding="utf-8")
    out = StringIO()
    call_command("referee", "import", str(path), "--owner", "gm", stdout=out, stderr=StringIO())
    again = Table.objects.get(pk=int(out.getvalue()))
    assert again.language == "ja" and reading.script_of(again)["language"] == "ja"


@pytest.mark.parametrize("said", ["fr", "", 7, None, ["ja"]])
def test_a_language_this_site_does_not_speak_leaves_the_default(pending, gm, said):
    """An informational key never refuses a script: the table takes the site's default."""
    script = {**reading.script_of(pending), "language": said}
    copy = new_tables.import_script(script, gm)
    assert copy.language == "en" and "language" not in copy.extra
    assert reading.state_of(copy) == reading.state_of(pending)


def test_a_language_given_as_a_locale_name_is_understood(pending, gm):
    copy = new_tables.import_script({**reading.script_of(pending), "language": "pt_BR"}, gm)
    assert copy.language == "pt-br"


# -- the deck of a table in play (ruling of the issue "Bounded by design", item 1) -----------
# A virtual deck's seed (and stacked deck) would show every hand and every card to come: while
# the table is in play its export leaves them out, and nothing replays or imports that script.
DECK_SENTENCE = (
    "This export of a table in play leaves out its deck; export it again when the game is "
    "over, or as the server's operator with `referee export --with-secrets`."
)


@pytest.fixture
def contest(make_table) -> Table:
    """A contest in play at a virtual deck: the referee holds both hands and the deck."""
    table = make_table("contest", ("Ana", "Bruno"))
    for name, brains in (("Ana", 3), ("Bruno", 2)):
        points = {"brains": brains, "muscle": 6 - brains, "moves": 3, "coolness": 3}
        writing.play_many(
            table, [{"by": name, "do": "character", "name": name[0] * 3, **points}], None
        )
    assert reading.state_of(table)["players"]["Bruno"]["hand"]  # what Ana must not see
    return table


def web_export(client, table: Table) -> dict:
    response = client.get(reverse("games:export", args=[table.pk]))
    assert response.status_code == 200
    return json.loads(response.content)


def test_the_web_export_of_a_virtual_table_in_play_leaves_its_deck_out(contest, gm_client):
    script = web_export(gm_client, contest)
    assert next(iter(script)) == "deck_left_out" and script["deck_left_out"] is True
    assert "seed" not in script and "deck" not in script
    assert script == cli_export(contest)  # the operator's command without its flag: the same
    # The referee's replay refuses it with the sentence (exit 2, as a malformed script).
    code, out = replay_script(script)
    assert code == 2 and out["error"] == {
        "index": None,
        "code": "bad_script",
        "message": DECK_SENTENCE,
    }


def test_a_stacked_deck_in_play_is_left_out_too(make_table, gm_client):
    table = make_table("amnesia", deck=["7H", "KS", "2C", "AD"])
    script = web_export(gm_client, table)
    assert script["deck_left_out"] is True and "deck" not in script and "seed" not in script


def test_referee_replay_refuses_the_export_of_a_table_in_play(contest, gm_client, tmp_path):
    path = tmp_path / "in-play.json"
    path.write_text(json.dumps(web_export(gm_client, contest)), encoding="utf-8")
    out = StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("referee", "replay", str(path), "--player", "Ana", stdout=out)
    assert exited.value.code == 2
    assert json.loads(out.getvalue())["error"]["message"] == DECK_SENTENCE


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("en", "leaves out its deck; export it again when the game is over"),
        ("pt-br", "deixa o baralho de fora"),
        ("ja", "デッキが入っていません"),
    ],
)
def test_the_import_page_refuses_the_export_of_a_table_in_play(contest, gm_client, language, says):
    exported = gm_client.get(reverse("games:export", args=[contest.pk])).content.decode()
    response = gm_client.post(
        reverse("games:table_import"), {"script_text": exported}, HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert says in page and "referee export --with-secrets" in page
    assert Table.objects.count() == 1  # no copy that deals itself other cards


def test_referee_import_refuses_it_too(contest, gm_client, tmp_path):
    path = tmp_path / "in-play.json"
    path.write_text(json.dumps(web_export(gm_client, contest)), encoding="utf-8")
    with pytest.raises(CommandError, match="leaves out its deck"):
        call_command("referee", "import", str(path), "--owner", "gm", stdout=StringIO())
    assert Table.objects.count() == 1


def test_the_operators_export_with_secrets_is_the_whole_script(contest, tmp_path):
    whole = cli_export(contest, "--with-secrets")
    assert whole == reading.script_of(contest) and whole["seed"] == contest.seed
    assert "deck_left_out" not in whole
    code, state = replay_script(whole)
    assert code == 0 and state == reading.state_of(contest)
    path = tmp_path / "whole.json"
    path.write_text(json.dumps(whole), encoding="utf-8")
    out = StringIO()
    call_command("referee", "import", str(path), "--owner", "gm", stdout=out)
    copy = Table.objects.get(pk=int(out.getvalue()))
    assert reading.state_of(copy) == reading.state_of(contest)


def test_with_secrets_writes_the_pending_answers_too(pending, make_table):
    """--with-secrets is the whole script: a virtual table's deck and a turn's answers."""
    assert cli_export(pending, "--with-secrets") == reading.script_of(pending)
    stories = make_table("amnesia_stories")
    told(stories)
    answer(stories, "Ana")
    partial = cli_export(stories, "--with-pending")  # the answers, not the deck
    assert partial["deck_left_out"] is True and "pending_left_out" not in partial
    assert cli_export(stories, "--with-secrets") == reading.script_of(stories)


def test_a_finished_table_carries_its_seed_and_deck(gm, gm_client):
    finished = finished_table(gm, "contest/last_card_and_winner")
    script = web_export(gm_client, finished)
    assert "deck_left_out" not in script
    assert script == reading.script_of(finished) and script["deck"] and "seed" in script
    code, state = replay_script(script)
    assert code == 0 and state == reading.state_of(finished)


def test_a_physical_deck_in_play_keeps_its_seed(pending, gm_client):
    """Its cards are entered by people: the seed shows nothing, and the export replays."""
    script = web_export(gm_client, pending)
    assert "deck_left_out" not in script and script["seed"] == pending.seed
