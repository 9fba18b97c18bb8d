"""A fourth game, registered only here, played through every generic room: the write path,
the table page, the new-table form, the story book and the playtest report. Nothing generic
names it: if this passes, adding a game is one package plus one registration."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Table
from games.rules import IllegalMove
from games.services import new_tables, reading, writing
from stories import covers
from stories import services as story_services
from stories.models import story_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(toy_game, gm) -> Table:
    return new_tables.create_table(gm, "toy", ["Ana", "Bruno", "Caio"], name="Toy night")


def post_move(client, table: Table, htmx: bool = False, **fields):
    table.refresh_from_db()
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    data = {"expected_seq": table.last_seq, **fields}
    return client.post(reverse("games:move", args=[table.pk]), data, **headers)


def test_the_write_path_plays_and_undoes(table, gm):
    assert table.state["turn"] == "Ana"
    writing.play_many(table, [{"by": "Ana", "do": "say", "text": "Hello."}], 0, gm)
    with pytest.raises(IllegalMove) as exc:
        writing.play_many(table, [{"by": "Ana", "do": "say"}], 1, gm)
    assert exc.value.code == "not_your_turn"
    played = writing.play_many(table, [{"by": "Bruno", "do": "stop"}], 1, gm)[0]
    assert played.state["winners"] == ["Bruno"]
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    writing.undo(table, 2, gm)
    table.refresh_from_db()
    assert table.status == Table.Status.ACTIVE
    assert reading.state_of(table) == reading.rebuild_state(table)
    assert reading.state_of(table)["turn"] == "Bruno"
    assert str(table) == "Toy night (Toy)"


def test_the_table_page_shows_and_takes_moves(table, gm_client):
    page = gm_client.get(table.get_absolute_url())
    assert page.status_code == 200
    assert b'value="say"' in page.content
    response = post_move(gm_client, table, by="Ana", do="say", text="A toy speaks.")
    assert response.status_code == 302
    page = gm_client.get(table.get_absolute_url())
    assert "Ana: A toy speaks." in page.content.decode()
    # htmx gets the panel alone, with the next line in it.
    response = post_move(gm_client, table, htmx=True, by="Bruno", do="say", text="It answers.")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Bruno: It answers." in html and "<html" not in html
    # An illegal move is the referee's word, shown on the page.
    response = post_move(gm_client, table, by="Ana", do="say", text="Out of turn.")
    assert response.status_code == 400
    assert "It is Caio" in response.content.decode()
    response = post_move(gm_client, table, by="Caio", do="stop")
    assert response.status_code == 302
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "Caio won." in page
    assert 'value="say"' not in page


def test_the_rules_page_and_the_new_table_form(toy_game, gm_client):
    rules = gm_client.get(reverse("games:rules", args=["toy"]))
    assert b"How to play the toy game" in rules.content
    form = gm_client.get(reverse("games:table_new") + "?game=toy&preset=short")
    assert form.status_code == 200
    assert "Lines before someone must stop" in form.content.decode()
    response = gm_client.post(
        reverse("games:table_new"),
        {
            "game": "toy",
            "players": "Ana\nBruno",
            "deck_mode": "virtual",
            "opt_max_lines": 3,
            "opt_polite": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.get(game="toy")
    assert table.options == {"max_lines": 3, "polite": True}
    # The list of tables names the game by the title its kit gives.
    home = gm_client.get(reverse("games:home")).content.decode()
    assert '<span class="badge">Toy</span>' in home


def test_the_story_book_is_the_chronicle(table, gm):
    writing.play_many(table, [{"by": "Ana", "do": "say", "text": "The toy woke up."}], 0, gm)
    writing.play_many(table, [{"by": "Bruno", "do": "say", "text": "It went for a walk."}], 1, gm)
    writing.play_many(table, [{"by": "Caio", "do": "stop"}], 2, gm)
    story = story_for(table, "en")
    book = story_services.make_book(story)
    assert book.game_title == "Toy"
    [chapter] = book.chapters
    assert chapter.kind == "chronicle"
    assert [(p.by, p.text) for p in chapter.passages] == [
        ("Ana", "The toy woke up."),
        ("Bruno", "It went for a walk."),
    ]
    assert book.plain_text() == "The toy woke up.\nIt went for a walk."
    # An author's edit is laid over the log's text.
    story_services.edit_narration(story, chapter.passages[0].seq, "The toy woke.", gm)
    book = story_services.make_book(story)
    assert book.chapters[0].passages[0].text == "The toy woke."


def test_the_story_pages_and_pdf(table, gm, gm_client):
    writing.play_many(table, [{"by": "Ana", "do": "say", "text": "A very small story."}], 0, gm)
    writing.play_many(table, [{"by": "Bruno", "do": "stop"}], 1, gm)
    story = story_for(table, "en")
    from stories import pdf as story_pdf

    data = story_pdf.pdf_for(story)
    assert data.startswith(b"%PDF")
    from tests.stories.conftest import pdf_text, squeeze

    assert squeeze("A very small story.") in squeeze(pdf_text(data, {story.title}))


def test_the_playtest_report(table, gm, gm_client):
    writing.play_many(table, [{"by": "Ana", "do": "say", "text": "One line."}], 0, gm)
    writing.play_many(table, [{"by": "Bruno", "do": "stop"}], 1, gm)
    response = gm_client.get(reverse("playtests:table_report", args=[table.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<dt>Lines</dt><dd>1</dd>" in html  # the toy's own figure row
    assert "· Toy</p>" in html


def test_the_demo_command_loads_the_toy_demos(toy_game, db):
    from django.core.management import call_command

    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    names = set(Table.objects.filter(game="toy").values_list("name", flat=True))
    assert names == {"Toy: a finished game", "Toy: in play"}


def test_the_story_reading_page_and_cover(table, gm, gm_client):
    writing.play_many(table, [{"by": "Ana", "do": "say", "text": "Read me aloud."}], 0, gm)
    response = gm_client.post(reverse("stories:for_table", args=[table.pk]), follow=True)
    assert response.status_code == 200
    assert "Read me aloud." in response.content.decode()
    story = story_for(table)
    cover = gm_client.get(reverse("stories:cover", args=[story.pk]))
    assert cover.status_code == 200
    assert cover["Content-Type"].startswith("image/")
    # A game without book parts of its own: no pictures, and the archive's plain cover.
    book = story_services.make_book(story)
    assert book.pictures is None and book.picture_ids == frozenset() and book.images == []
    assert covers.generated_cover(book).tobytes() == covers.plain_cover(book).tobytes()


def test_the_designers_pages(table, gm, gm_client):
    gm.is_superuser = True
    gm.save(update_fields=["is_superuser"])
    writing.play_many(table, [{"by": "Ana", "do": "say", "text": "One line."}], 0, gm)
    writing.play_many(table, [{"by": "Bruno", "do": "stop"}], 1, gm)
    for name in ("dashboard", "export_csv", "export_json", "rulesets", "public_report"):
        response = gm_client.get(reverse(f"playtests:{name}", args=["toy"]))
        assert response.status_code == 200, name
    export = gm_client.get(reverse("playtests:export_csv", args=["toy"])).content.decode()
    assert "Ana; Bruno; Caio" in export and '{""lines"": 1}' in export
