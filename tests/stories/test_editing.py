"""The chapters a game makes, and the authors' edits: an overlay with history and revert that
never touches the move log."""

from __future__ import annotations

import dataclasses

import pytest
from django.urls import reverse

from games import registry
from games.models import Move
from games.services import new_tables, writing
from stories import books, services
from stories.models import NarrationEdit, Story, story_for
from stories.samples import SAMPLES, Scene, amnesia_script

from .conftest import make_story

pytestmark = pytest.mark.django_db


def log_of(story: Story) -> list[tuple]:
    return list(story.table.moves.order_by("seq").values_list("seq", "kind", "payload", "text"))


# -- chapters -------------------------------------------------------------------------------
def test_an_amnesia_game_becomes_chapters(gm):
    story = make_story(gm, "en")
    book = services.make_book(story)
    kinds = [c.kind for c in book.chapters]
    assert kinds == ["scene", "memory", "scene", "room", "ending"]
    assert [c.anchor for c in book.chapters] == [f"ch-{i}" for i in range(1, 6)]
    first, memory, second, room, ending = book.chapters
    assert first.narrators == ["Ana"] and memory.narrators == ["Bruno"]
    assert memory.data["abilities"] == ["lockpicking"]
    assert first.incipit == "She wakes on a cold floor with…"
    # The dispute: who, what was claimed and staked, the cards, the winner (as the referee
    # replayed them).
    (dispute,) = [i for i in second.data["items"] if i["type"] == "dispute"]
    assert (dispute["insister"], dispute["narrator"]) == ("Ana", "Caio")
    assert dispute["suggestion"].text == SAMPLES["en"]["claim"]
    assert [p.by for p in dispute["stakes"]] == ["Caio", "Ana"]
    assert dispute["cards"][0]["guess"] == "open" and dispute["cards"][0]["card"]["code"]
    assert dispute["winner"] in ("Ana", "Caio") and dispute["pot"] > 0
    # The pass is a quiet note after the chapter it follows.
    assert second.data["after"] == [
        {"by": "Ana", "take": 0, "passage": second.data["after"][0]["passage"]}
    ]
    assert ending.data["agreed"] == ["Ana", "Bruno", "Caio"]
    assert ending.passages[0].text == SAMPLES["en"]["epilogue"]
    assert room.narrators == ["Bruno"]


def test_credits_count_what_each_player_told(gm):
    book = services.make_book(make_story(gm, "en"))
    credit = {c.name: c for c in book.credits}
    assert credit["Ana"].chapters == ["Chapter 1"]
    assert credit["Bruno"].chapters == ["Memory 1", "The memory of the room"]
    assert credit["Caio"].words == books.word_count(
        " ".join([*SAMPLES["en"]["scenes"][1:], SAMPLES["en"]["stake"]])
    )
    assert book.authors == ["Ana", "Bruno", "Caio", "gm"]
    japanese = services.make_book(make_story(gm, "ja"))
    assert {c.name: c.words for c in japanese.credits}["春香"] > 20  # characters, not spaces


def test_a_game_whose_kit_prints_the_chronicle_gets_every_narrated_move(gm, monkeypatch):
    story = make_story(gm, "en")
    kit = registry.kit("amnesia")
    monkeypatch.setitem(registry._KITS, "amnesia", dataclasses.replace(kit, book=books.chronicle))
    book = services.make_book(story)
    (chapter,) = book.chapters
    assert chapter.kind == "chronicle"
    assert [p.text for p in chapter.passages][0] == SAMPLES["en"]["scenes"][0]
    assert len(chapter.passages) == len([m for m in story.table.moves.all() if m.text])


def test_undone_moves_leave_the_book(gm, gm_client):
    script = amnesia_script(
        ["Ana", "Bruno"],
        [Scene("Ana", ["Kept."]), Scene("Bruno", ["Taken back."], kind="flashback")],
        finish=False,
    )
    table = new_tables.import_script(script, gm)
    story = story_for(table)
    undone = table.moves.order_by("-seq").first()
    services.edit_narration(story, undone.seq, "Edited, then undone.", gm)
    writing.undo(table, table.last_seq)
    writing.undo(table, table.last_seq)
    texts = [p.text for c in services.make_book(story).chapters for p in c.passages]
    assert texts == ["Kept."]
    with pytest.raises(Move.DoesNotExist):
        services.edit_narration(story, undone.seq, "No.", gm)
    with pytest.raises(Move.DoesNotExist):
        services.current_text(story, undone.seq)
    url = reverse("stories:narration", args=[story.pk, undone.seq])
    assert gm_client.get(url).status_code == 404
    assert gm_client.post(url, {"text": "x"}).status_code == 404


# -- the overlay ----------------------------------------------------------------------------
def test_edits_are_an_overlay_with_history_and_revert(gm, other):
    story = make_story(gm, "en")
    before = log_of(story)
    passage = services.make_book(story).chapters[0].passages[0]
    original = passage.text

    first = services.edit_narration(story, passage.seq, "  She wakes.\r\n\r\nThe door.  ", gm)
    assert first.text == "She wakes.\n\nThe door." and first.editor == gm
    assert services.edit_narration(story, passage.seq, "She wakes.\n\nThe door.", gm) is None
    second = services.edit_narration(story, passage.seq, "She wakes, twice.", other)
    assert services.current_text(story, passage.seq) == "She wakes, twice."
    book = services.make_book(story)
    assert book.chapters[0].passages[0].text == "She wakes, twice."
    assert book.chapters[0].passages[0].edited
    assert "She wakes, twice." in Story.objects.get(pk=story.pk).search_text

    history = services.history(story, passage.seq)
    assert [v.text for v in history] == ["She wakes, twice.", "She wakes.\n\nThe door.", original]
    assert [v.who for v in history] == ["other", "gm", "gm"]
    assert history[0].current and not history[-1].current

    services.revert_narration(story, passage.seq, first, gm)
    assert services.current_text(story, passage.seq) == "She wakes.\n\nThe door."
    services.revert_narration(story, passage.seq, None, gm)
    assert services.current_text(story, passage.seq) == original
    assert services.make_book(story).chapters[0].passages[0].text == original
    # Every version is still there, the move log untouched.
    assert NarrationEdit.objects.filter(story=story).count() == 4
    assert [e.kind for e in NarrationEdit.objects.filter(story=story)] == [
        "edit",
        "edit",
        "revert",
        "revert",
    ]
    assert second.pk and log_of(story) == before


def test_an_author_can_write_a_scene_that_was_played_without_words(gm):
    script = amnesia_script(
        ["Ana", "Bruno"],
        [Scene("Ana", []), Scene("Bruno", [], kind="flashback")],
        finish=False,
    )
    story = story_for(new_tables.import_script(script, gm))
    chapter = services.make_book(story).chapters[0]
    assert not chapter.data["has_text"] and chapter.passages == []
    services.edit_narration(story, chapter.lead_seq, "Written afterwards.", gm)
    chapter = services.make_book(story).chapters[0]
    assert [p.text for p in chapter.passages] == ["Written afterwards."]


def test_the_narration_length_is_limited(gm):
    from django.core.exceptions import ValidationError

    story = make_story(gm, "en")
    seq = services.make_book(story).chapters[0].lead_seq
    with pytest.raises(ValidationError):
        services.edit_narration(story, seq, "x" * (services.MAX_NARRATION + 1), gm)


# -- through the pages ----------------------------------------------------------------------
def test_editing_through_the_pages(gm, gm_client):
    story = make_story(gm, "en")
    before = log_of(story)
    seq = services.make_book(story).chapters[0].passages[0].seq
    url = reverse("stories:narration", args=[story.pk, seq])
    page = gm_client.get(url).content.decode()
    assert SAMPLES["en"]["scenes"][0] in page and "History" in page

    response = gm_client.post(url, {"text": "A <b>new</b> beginning."})
    assert response.status_code == 302 and response["Location"].endswith(f"#m{seq}")
    reading = gm_client.get(story.get_absolute_url()).content.decode()
    assert "A &lt;b&gt;new&lt;/b&gt; beginning." in reading
    assert "passage--edited" in reading

    edit = NarrationEdit.objects.get(story=story)
    history = gm_client.get(url).content.decode()
    assert "Restore this version" in history and "Edited by gm" in history
    revert = reverse("stories:revert", args=[story.pk, seq])
    assert gm_client.post(revert, {"version": "original"}).status_code == 302
    assert services.current_text(story, seq) == SAMPLES["en"]["scenes"][0]
    assert gm_client.post(revert, {"version": str(edit.pk)}).status_code == 302
    assert services.current_text(story, seq) == "A <b>new</b> beginning."
    assert gm_client.post(revert, {"version": "nonsense"}).status_code == 404
    assert gm_client.post(revert, {"version": "999999"}).status_code == 404
    assert gm_client.get(reverse("stories:narration", args=[story.pk, 9999])).status_code == 404
    assert log_of(story) == before


def test_an_emptied_passage_stays_within_its_authors_reach(gm, gm_client, client):
    """An author who empties a passage takes it out of the book, and with it its Edit link:
    the story page lists it for its authors, with the way to its history (to restore it);
    readers see nothing of it."""
    story = make_story(gm, "en")
    book = services.make_book(story)
    # A passage in a chapter that keeps other words: no "Write it" link stands in for it.
    told = [
        [i["passage"] for i in c.data.get("items", []) if i["type"] == "text"]
        for c in book.chapters
    ]
    seq = next(t for t in told if len(t) > 1)[-1].seq
    url = reverse("stories:narration", args=[story.pk, seq])
    assert gm_client.post(url, {"text": ""}).status_code == 302
    page = gm_client.get(story.get_absolute_url()).content.decode()
    assert f'id="m{seq}"' not in page  # out of the book
    emptied = page[page.index('data-testid="emptied-passages"') :]
    emptied = emptied[: emptied.index("</p>")]
    assert "Emptied passages" in emptied and f'href="{url}"' in emptied
    story.publish()
    story.visibility = Story.Visibility.UNLISTED
    story.save()
    shared = client.get(reverse("stories:shared", args=[story.secret])).content.decode()
    assert "emptied-passages" not in shared and url not in shared
    # Restored, it is back in the book and off the list.
    revert = reverse("stories:revert", args=[story.pk, seq])
    assert gm_client.post(revert, {"version": "original"}).status_code == 302
    page = gm_client.get(story.get_absolute_url()).content.decode()
    assert f'id="m{seq}"' in page and "emptied-passages" not in page


def test_a_seated_player_is_an_author(gm, other, other_client):
    story = make_story(gm, "en")
    seat = story.table.seats.get(name="Bruno")
    seat.user = other
    seat.save()
    seq = services.make_book(story).chapters[1].passages[0].seq
    url = reverse("stories:narration", args=[story.pk, seq])
    assert other_client.post(url, {"text": "Bruno’s memory, polished."}).status_code == 302
    assert services.history(story, seq)[0].who == "other"


def test_publishing_waits_for_the_end_of_the_game(gm, gm_client):
    script = amnesia_script(["Ana", "Bruno"], [Scene("Ana", ["Still going."])], finish=False)
    story = story_for(new_tables.import_script(script, gm))
    publish = reverse("stories:publish", args=[story.pk])
    gm_client.post(publish, {"visibility": "public"})
    story.refresh_from_db()
    assert not story.is_published
    page = gm_client.get(story.get_absolute_url()).content.decode()
    assert "once the game has ended" in page

    finished = make_story(gm, "en")
    response = gm_client.post(
        reverse("stories:publish", args=[finished.pk]), {"visibility": "unlisted"}
    )
    assert response.status_code == 302
    finished.refresh_from_db()
    assert finished.is_published and finished.visibility == "unlisted"
    assert SAMPLES["en"]["memory"] in finished.search_text
    gm_client.post(reverse("stories:publish", args=[finished.pk]), {"action": "unpublish"})
    finished.refresh_from_db()
    assert not finished.is_published


def test_the_title_page_form(gm, gm_client):
    story = make_story(gm, "en")
    url = reverse("stories:edit", args=[story.pk])
    assert gm_client.get(url).status_code == 200
    response = gm_client.post(
        url,
        {
            "title": "A New Title",
            "subtitle": "and a subtitle",
            "language": "pt-br",
            "blurb": "Back cover.",
            "visibility": "public",
            "tags_text": "Noir, hospital, noir , ,  one shot",
        },
    )
    assert response.status_code == 302
    story.refresh_from_db()
    assert (story.title, story.subtitle, story.language) == (
        "A New Title",
        "and a subtitle",
        "pt-br",
    )
    assert sorted(story.tag_names(), key=str.lower) == ["hospital", "Noir", "one shot"]
    assert gm_client.post(url, {"title": "", "language": "xx"}).status_code == 400
