"""The table pages through the test client: a whole game, 409, 404, 400."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games import answers
from games.models import Move, Table
from games.services import reading

pytestmark = pytest.mark.django_db

PLAYERS = ["Ana", "Bruno", "Caio"]


def new_table(client, **extra) -> Table:
    data = {
        "game": "amnesia",
        "players": "Ana\nBruno\nCaio",
        "deck_mode": "virtual",
        "opt_start_tokens": 10,
        "opt_token_cap": 10,
        "opt_pass_at_cap": "refuse",
        "opt_finale_factor": 1,
        "opt_tie_loses": "on",
    }
    data.update(extra)
    response = client.post(reverse("games:table_new"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Table.objects.latest("pk")


def post_move(client, table, expected=None, htmx=False, **fields):
    table.refresh_from_db()
    fields["expected_seq"] = table.last_seq if expected is None else expected
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("games:move", args=[table.pk]), fields, **headers)


def test_new_table_form_shows_every_option_with_its_default(gm_client):
    page = gm_client.get(reverse("games:table_new") + "?game=amnesia").content.decode()
    for name, default in [("start_tokens", 10), ("token_cap", 10), ("finale_factor", 2)]:
        assert f'name="opt_{name}"' in page
        assert f'value="{default}"' in page
    assert 'name="opt_tie_loses"' in page and "checked" in page
    assert 'value="physical"' in page


def test_new_table_rejects_bad_players_with_a_message(gm_client):
    response = gm_client.post(
        reverse("games:table_new"),
        {
            "game": "amnesia",
            "players": "Ana\nAna",
            "deck_mode": "virtual",
            "opt_start_tokens": 10,
            "opt_token_cap": 10,
            "opt_finale_factor": 2,
        },
    )
    assert response.status_code == 400
    assert "different name" in response.content.decode()
    response = gm_client.post(
        reverse("games:table_new"),
        {
            "game": "amnesia",
            "players": "Ana\nBruno",
            "start": "Zed",
            "deck_mode": "virtual",
            "opt_start_tokens": 10,
            "opt_token_cap": 10,
            "opt_finale_factor": 2,
        },
    )
    assert response.status_code == 400
    assert Table.objects.count() == 0


def test_a_whole_game_through_the_pages(gm_client):
    table = new_table(gm_client, start="Bruno")
    assert table.start_player == "Bruno"
    script = [
        {"by": "Bruno", "do": "continue", "text": "Blood on her hands."},
        {"by": "Caio", "do": "suggest", "text": "The phone rings."},
        {"by": "Ana", "do": "insist", "text": "She climbs out of the window."},
        {"by": "Bruno", "do": "refuse"},
        {"by": "Caio", "do": "join", "text": "She hides under the bed."},
        {"by": "Bruno", "do": "stake", "text": "She answers the door."},
        {"by": "Bruno", "do": "open"},
    ]
    for move in script:
        response = post_move(gm_client, table, **move)
        assert response.status_code == 302, response.content.decode()[:3000]
    # play the challenge out with whatever the seeded deck gives: quit until one is left
    for _ in range(5):
        table.refresh_from_db()
        state = reading.state_of(table)
        if state["phase"] != "challenge":
            break
        response = post_move(gm_client, table, by=state["challenge"]["to_act"], do="quit")
        assert response.status_code == 302
    table.refresh_from_db()
    state = reading.state_of(table)
    assert state["phase"] == "scene" and state["challenges"] == 1
    rest = [
        {"by": "Bruno", "do": "end_scene", "text": "She opens the door."},
        {"by": "Caio", "do": "flashback", "abilities": "karate, first aid", "text": "A dojo."},
        {"by": "Caio", "do": "end_scene"},
        {"by": "Ana", "do": "flashback"},
        {"by": "Ana", "do": "end_scene"},
        {"by": "Bruno", "do": "flashback"},
        {"by": "Bruno", "do": "end_scene"},
        {"by": "Caio", "do": "flashback"},
        {"by": "Caio", "do": "end_scene"},
        {"by": "Ana", "do": "room_flashback", "text": "What happened in the room."},
        {"by": "Ana", "do": "end_scene"},
        {"by": "Bruno", "do": "end_story", "agreed": PLAYERS, "text": "The end."},
    ]
    heading = "the story heads to its end"
    for move in rest:
        if move["do"] == "end_story":
            # The finale under way says so; once the story is over, it no longer does.
            assert heading in gm_client.get(table.get_absolute_url()).content.decode()
        response = post_move(gm_client, table, **move)
        assert response.status_code == 302, response.content.decode()[:3000]
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert heading not in gm_client.get(table.get_absolute_url()).content.decode()
    state = reading.state_of(table)
    assert state["abilities"] == ["karate", "first aid"]
    total = sum(state["tokens"].values()) + state["bank"] + state["discard"] + state["pot"]
    assert total == 30
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "The story is over" in page
    for text in (
        "Blood on her hands.",
        "She opens the door.",
        "A dojo.",
        "What happened in the room.",
    ):
        assert text in page
    assert "karate" in page


def test_stale_expected_seq_gets_409_and_changes_nothing(gm_client):
    table = new_table(gm_client)
    assert post_move(gm_client, table, by="Ana", do="continue").status_code == 302
    response = post_move(gm_client, table, expected=0, by="Ana", do="end_scene")
    assert response.status_code == 409
    assert "moved on" in response.content.decode()
    table.refresh_from_db()
    assert table.last_seq == 1 and reading.state_of(table)["phase"] == "scene"
    # the JSON route says the same
    response = gm_client.post(
        reverse("games:move", args=[table.pk]),
        {"move": {"by": "Ana", "do": "end_scene"}, "expected_seq": 0},
        content_type="application/json",
    )
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "stale"
    assert Move.objects.filter(table=table).count() == 1


def test_another_user_gets_404_and_cannot_post(gm_client, other_client, client):
    table = new_table(gm_client)
    assert other_client.get(table.get_absolute_url()).status_code == 404
    for name in ("move", "undo", "draft"):
        response = other_client.post(
            reverse(f"games:{name}", args=[table.pk]),
            {"by": "Ana", "do": "continue", "expected_seq": 0},
        )
        assert response.status_code == 404
    assert other_client.get(reverse("games:export", args=[table.pk])).status_code == 404
    # anonymous visitors are sent to log in, and post nothing either
    response = client.post(reverse("games:move", args=[table.pk]), {"by": "Ana", "do": "continue"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert Move.objects.count() == 0
    assert table.name not in other_client.get("/").content.decode()


def test_malformed_fields_get_400_with_the_referees_message(gm_client):
    table = new_table(gm_client)
    post_move(gm_client, table, by="Ana", do="continue")
    post_move(gm_client, table, by="Ana", do="end_scene")
    response = post_move(gm_client, table, by="Bruno", do="pass", take="lots")
    assert response.status_code == 400
    assert "The tokens to take from the bank must be a whole number" in response.content.decode()
    response = post_move(gm_client, table, htmx=True, by="Bruno", do="pass", take="-3")
    assert response.status_code == 400
    body = response.content.decode()
    assert "at least 0" in body and 'id="table-panel"' in body and "<html" not in body
    response = gm_client.post(
        reverse("games:move", args=[table.pk]),
        {"move": {"by": "Bruno", "do": "flashback", "abilities": "x"}, "expected_seq": 2},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_argument"
    table.refresh_from_db()
    assert table.last_seq == 2


def test_the_page_offers_exactly_the_legal_moves(gm_client):
    table = new_table(gm_client)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert 'value="continue"' in page
    assert 'value="flashback"' not in page and 'value="pass"' not in page  # first move rule
    post_move(gm_client, table, by="Ana", do="continue")
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert 'value="end_scene"' in page and 'value="insist"' in page
    assert 'value="continue"' not in page


def test_htmx_gets_the_panel_and_a_plain_post_is_redirected(gm_client):
    table = new_table(gm_client)
    response = post_move(gm_client, table, htmx=True, by="Ana", do="continue")
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="table-panel"')
    assert "Ana narrates" in body


def test_undo_through_the_page(gm_client):
    table = new_table(gm_client)
    post_move(gm_client, table, by="Ana", do="continue")
    response = gm_client.post(reverse("games:undo", args=[table.pk]), {"expected_seq": 1})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.last_seq == 2 and reading.state_of(table)["phase"] == "turn"
    response = gm_client.post(reverse("games:undo", args=[table.pk]), {"expected_seq": 0})
    assert response.status_code == 409


def test_physical_deck_shows_a_52_card_grid_and_needs_a_card(gm_client):
    table = new_table(gm_client, deck_mode="physical")
    for move in [
        {"by": "Ana", "do": "continue"},
        {"by": "Bruno", "do": "insist"},
        {"by": "Ana", "do": "refuse"},
    ]:
        post_move(gm_client, table, **move)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert page.count('name="card"') == 52
    response = post_move(gm_client, table, by="Ana", do="open")
    assert response.status_code == 400 and "name the card" in response.content.decode()
    assert post_move(gm_client, table, by="Ana", do="open", card="7H").status_code == 302
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert 'value="7H" class="playing-card red" disabled' in page


def test_draft_autosave_survives_a_reload(gm_client):
    table = new_table(gm_client)
    post_move(gm_client, table, by="Ana", do="continue")
    response = gm_client.post(reverse("games:draft", args=[table.pk]), {"text": "Half a thought"})
    assert response.status_code == 204
    assert "Half a thought" in gm_client.get(table.get_absolute_url()).content.decode()
    post_move(gm_client, table, by="Ana", do="end_scene", text="Half a thought, finished.")
    table.refresh_from_db()
    assert table.draft == ""


def test_export_and_import_pages(gm_client):
    # A physical deck: its export in play is whole (a virtual deck's is refused on import,
    # tests/games/test_exports.py).
    table = new_table(gm_client, deck_mode="physical")
    post_move(gm_client, table, by="Ana", do="continue", text="Sirens.")
    response = gm_client.get(reverse("games:export", args=[table.pk]))
    assert response.status_code == 200
    script = json.loads(response.content)
    assert script["moves"][0]["text"] == "Sirens."
    response = gm_client.post(reverse("games:table_import"), {"script_text": json.dumps(script)})
    assert response.status_code == 302
    copy = Table.objects.latest("pk")
    table.refresh_from_db()
    assert reading.state_of(copy)["scenes"] == 1
    assert reading.state_of(copy) == reading.state_of(table)
    response = gm_client.post(reverse("games:table_import"), {"script_text": "{not json"})
    assert response.status_code == 400 and "not a JSON game script" in response.content.decode()
    bad = dict(script, moves=[{"by": "Zed", "do": "continue"}])
    response = gm_client.post(reverse("games:table_import"), {"script_text": json.dumps(bad)})
    assert response.status_code == 400 and "illegal move" in response.content.decode()


def test_narrative_is_listed_as_data(gm_client, other_client):
    table = new_table(gm_client)
    for move in [
        {"by": "Ana", "do": "continue", "text": "Sirens outside."},
        {"by": "Bruno", "do": "suggest", "text": "A cat"},
        {"by": "Caio", "do": "insist", "text": "The lights go out."},
        {"by": "Ana", "do": "accept"},
        {"by": "Ana", "do": "end_scene", "text": "She hides."},
        {"by": "Bruno", "do": "flashback", "abilities": "piano", "text": "A recital."},
    ]:
        assert post_move(gm_client, table, **move).status_code == 302
    data = gm_client.get(reverse("games:narrative", args=[table.pk])).json()
    scene, memory = data["entries"]
    assert scene["kind"] == "scene" and scene["narrator"] == "Ana"
    assert [p["text"] for p in scene["narration"]] == ["Sirens outside.", "She hides."]
    assert [(s["by"], s["paid"], s["outcome"]) for s in scene["suggestions"]] == [
        ("Bruno", False, "free"),
        ("Caio", True, "accepted"),
    ]
    assert memory["kind"] == "flashback" and memory["abilities"] == ["piano"]
    assert memory["seqs"] == [6]
    assert other_client.get(reverse("games:narrative", args=[table.pk])).status_code == 404


# -- hostile input: a sentence and a 400, never a 500, nothing stored ---------------------------
def move_json(client, table, body, **extra):
    return client.post(
        reverse("games:move", args=[table.pk]), body, content_type="application/json", **extra
    )


def test_a_field_the_verb_does_not_read_is_refused_from_a_form_and_from_json(gm_client):
    table = new_table(gm_client)
    response = post_move(gm_client, table, by="Ana", do="continue", colour="red")
    assert response.status_code == 400
    assert "reads no field called &#x27;colour&#x27;" in response.content.decode()
    response = move_json(gm_client, table, {"move": {"by": "Ana", "do": "continue", "x": 1}})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_argument"
    assert "'x'" in response.json()["error"]["message"]
    assert Move.objects.count() == 0
    # a bare move: what steers the write path is taken out, the rest is the move
    bare = {"by": "Ana", "do": "continue", "expected_seq": 0, "client_id": "c-1"}
    assert move_json(gm_client, table, bare).status_code == 200
    assert Move.objects.get().payload == {"by": "Ana", "do": "continue"}


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 50_000 + b"]" * 50_000,
        b'{"move": {"by": "Ana", "do": "pass", "take": ' + b"9" * 5000 + b"}}",
        b'{"move": {"by": "Ana", "do": "pass", "take": 1e999}}',
        b'{"move": {"by": "Ana", "do": "continue", "text": "\xff\xfe"}}',
        b'{"move": ' + b'{"a": ' * 40 + b"1" + b"}" * 41,
        b"[1, 2]",
        b'{"move": "continue"}',
        b'{"move": {"by": "Ana", "do": "continue"}, "expected_seq": "0"}',
        b'{"move": {"by": "Ana", "do": "continue"}, "expected_turn": ["x"]}',
    ],
)
def test_malformed_json_gets_400_and_a_sentence(gm_client, body):
    table = new_table(gm_client)
    response = move_json(gm_client, table, body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bad_argument" and error["message"].endswith(".")
    assert Move.objects.count() == 0


def test_a_move_field_of_deep_json_in_a_form_gets_400(gm_client):
    table = new_table(gm_client)
    response = post_move(gm_client, table, move="[" * 50_000 + "]" * 50_000)
    assert response.status_code == 400 and "levels deep" in response.content.decode()
    response = post_move(
        gm_client, table, move='{"by": "Ana", "do": "pass", "take": 1' + "0" * 5000 + "}"
    )
    assert response.status_code == 400 and "too long to read" in response.content.decode()
    assert Move.objects.count() == 0


def test_a_nul_in_the_narration_or_the_draft_gets_400_on_every_engine(gm_client):
    table = new_table(gm_client)
    response = post_move(gm_client, table, by="Ana", do="continue", text="Sirens\x00.")
    assert response.status_code == 400 and "NUL" in response.content.decode()
    response = gm_client.post(reverse("games:draft", args=[table.pk]), {"text": "half\x00"})
    assert response.status_code == 400 and "NUL" in response.content.decode()
    table.refresh_from_db()
    assert Move.objects.count() == 0 and table.draft == ""


@pytest.mark.parametrize(
    "text, says",
    [
        ("[" * 50_000 + "]" * 50_000, "levels deep"),
        ('{"game": "amnesia", "seed": ' + "1" * 5000 + "}", "too long to read"),
        ('{"game": "amnesia", "players": ["Ana", "Bo"], "title": "\\u0000"}', "NUL"),
        (
            '{"game": "amnesia", "players": ["Ana", "Bo"], "seed": 1' + "0" * 30 + "}",
            "&#x27;seed&#x27; must be between",
        ),
        (
            json.dumps(
                {
                    "game": "amnesia",
                    "players": ["Ana", "Bo"],
                    "moves": [{"by": "Ana", "do": "continue", "mood": "x"}],
                }
            ),
            "reads no field called &#x27;mood&#x27;",
        ),
    ],
)
def test_a_malformed_import_gets_400_and_creates_nothing(gm_client, text, says):
    response = gm_client.post(reverse("games:table_import"), {"script_text": text})
    assert response.status_code == 400 and says in response.content.decode()
    assert Table.objects.count() == 0 and Move.objects.count() == 0


def hidden_inputs(html: str) -> dict[str, str]:
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', html))


def test_each_move_form_carries_its_own_client_id_and_the_script_that_renews_it(gm_client):
    table = new_table(gm_client)
    post_move(gm_client, table, by="Ana", do="continue")
    page = gm_client.get(table.get_absolute_url()).content.decode()
    ids = re.findall(r'name="client_id" value="([0-9a-f]{32})"', page)
    assert len(ids) == page.count('name="expected_seq"') > 2  # end, suggest, undo...
    assert len(set(ids)) == len(ids)
    assert "js/moves.js" in page


def test_a_resend_after_a_lost_answer_is_stored_once(gm_client, monkeypatch):
    """The move is stored, then the answer never reaches the client; the client sends the
    same form again (its expected_seq now stale) and gets the success it missed."""
    table = new_table(gm_client)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    form = re.search(r'<form method="post"[^>]*>.*?value="continue".*?</form>', page, re.S)
    data = {**hidden_inputs(form.group(0)), "by": "Ana", "do": "continue", "text": "Sirens."}
    real_redirect = answers.redirect

    def connection_drops(*args, **kwargs):
        monkeypatch.setattr(answers, "redirect", real_redirect)
        raise ConnectionResetError("the answer never left the server")

    monkeypatch.setattr(answers, "redirect", connection_drops)
    gm_client.raise_request_exception = False
    lost = gm_client.post(reverse("games:move", args=[table.pk]), data)
    assert lost.status_code == 500  # what the client saw: nothing useful
    assert Move.objects.count() == 1  # what the server did: stored the move
    again = gm_client.post(reverse("games:move", args=[table.pk]), data)
    assert again.status_code == 302 and again["Location"] == table.get_absolute_url()
    assert Move.objects.count() == 1
    assert Move.objects.get().text == "Sirens."
    # the JSON route answers a resend with the very same body
    body = {"move": {"by": "Ana", "do": "end_scene"}, "expected_seq": 1, "client_id": "j-1"}
    first, second = move_json(gm_client, table, body), move_json(gm_client, table, body)
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json() and first.json()["seq"] == 2
    assert Move.objects.count() == 2


def test_an_undo_sent_twice_from_the_page_undoes_once(gm_client):
    table = new_table(gm_client)
    post_move(gm_client, table, by="Ana", do="continue")
    post_move(gm_client, table, by="Ana", do="end_scene")
    data = {"expected_seq": 2, "client_id": "undo-xyz"}
    url = reverse("games:undo", args=[table.pk])
    assert gm_client.post(url, data).status_code == gm_client.post(url, data).status_code == 302
    assert [m.seq for m in reading.live_moves(table)] == [1]


def test_suggestions_from_one_page_are_not_stale_while_the_scene_lasts(gm_client):
    table = new_table(gm_client)
    post_move(gm_client, table, by="Ana", do="continue")
    page = gm_client.get(table.get_absolute_url()).content.decode()
    form = re.search(r'<form [^>]*class="inline-form suggestion".*?</form>', page, re.S)
    hidden = hidden_inputs(form.group(0))
    assert hidden["expected_turn"] == "scene/1/0"
    url = reverse("games:move", args=[table.pk])
    for name, text in (("Bruno", "A cat"), ("Caio", "A storm")):
        data = {**hidden, "client_id": f"s-{name}", "by": name, "do": "suggest", "text": text}
        assert gm_client.post(url, data).status_code == 302
    # insisting depends on the table's position: from the same old page it is a 409
    data = {**hidden, "client_id": "i-1", "by": "Bruno", "do": "insist"}
    assert gm_client.post(url, data).status_code == 409
    post_move(gm_client, table, by="Ana", do="end_scene")
    data = {**hidden, "client_id": "s-late", "by": "Bruno", "do": "suggest"}
    assert gm_client.post(url, data).status_code == 409  # that scene is over
    assert [m.payload["do"] for m in table.moves.all()] == [
        "continue",
        "suggest",
        "suggest",
        "end_scene",
    ]


def test_an_amnesia_table_opens_on_the_whole_opening_situation(gm_client):
    """Before anything is told, the page sets the scene the first narrator goes on from: the
    room, no memory, the blood on her hands and clothes, the dead around her, the police."""
    table = new_table(gm_client)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    opening = re.search(r'data-testid="opening">(.*?)</div>', page, re.S).group(1)
    for part in ("remembers nothing", "her hands and her clothes", "are dead", "Police!"):
        assert part in opening, part
    post_move(gm_client, table, by="Ana", do="continue", text="She opens the door.")
    assert 'data-testid="opening"' not in gm_client.get(table.get_absolute_url()).content.decode()
