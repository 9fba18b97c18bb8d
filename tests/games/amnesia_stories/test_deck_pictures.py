"""A custom deck's pictures: random file names, served only to who may see them (the deck's
owner, the owner and the seat links of a table playing with it, the readers of its story),
printed into the story's PDF from storage, and never reachable under MEDIA_URL."""

from __future__ import annotations

import importlib
import re
from types import SimpleNamespace

import pytest
from django.apps import apps as django_apps
from django.core.files.base import ContentFile
from django.db import connection
from django.test import Client
from django.urls import clear_url_caches, reverse

from games.amnesia_stories import decks
from games.amnesia_stories.models import CustomCard
from games.services import new_tables, reading, writing
from stories import pdf as story_pdf
from stories.models import Story, story_for

from .test_decks import good_files, make_zip

pytestmark = pytest.mark.django_db

RANDOM_NAME = re.compile(r"decks/[0-9a-f]{32}\.(webp|jpg)")
OPTIONS = {"choices": 3, "questions": 2, "rounds": 1}


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.STORY_CACHE_DIR = str(tmp_path / "story-cache")
    return settings.MEDIA_ROOT


@pytest.fixture
def deck(gm):
    return decks.import_deck(gm, "Forest deck", make_zip(good_files()))


@pytest.fixture
def deck_table(gm, deck):
    return new_tables.create_table(
        gm, "amnesia_stories", ["Ana", "Bruno", "Caio"], options=OPTIONS, seed=7,
        extra=decks.table_extra(deck),
    )  # fmt: skip


def stored_bytes(stored) -> bytes:
    with stored.storage.open(stored.name, "rb") as handle:
        return handle.read()


def play(table, until: str = "finished") -> dict:
    """Play the table through the write path until the phase ``until`` (or the end)."""
    while True:
        table.refresh_from_db()
        state = reading.state_of(table)
        if state.get("finished") or state["phase"] == until:
            return state
        steps = state["options"]["questions"]
        if state["phase"] == "tell":
            move = {"by": state["bard"], "do": "tell", "story": state["journey"][:steps]}
            move["text"] = f"{state['bard']} went far."
        else:
            name = next(n for n in state["seats"] if n not in state["answered"])
            move = {"by": name, "do": "answer", "picks": list(range(1, steps + 1))}
        writing.play_many(table, [move], table.last_seq)


def pictures_in(page: str, prefix: str) -> list[str]:
    return re.findall(rf'src="({re.escape(prefix)}\d+/(?:large|thumb)/)"', page)


def card_of(url: str) -> CustomCard:
    return CustomCard.objects.get(pk=int(url.rstrip("/").split("/")[-2]))


def assert_serves(client: Client, url: str, cache: str = "private") -> None:
    response = client.get(url)
    assert response.status_code == 200, url
    card = card_of(url)
    stored = card.image if url.endswith("/large/") else card.thumb
    assert b"".join(response.streaming_content) == stored_bytes(stored)
    assert response["Content-Type"] in ("image/webp", "image/jpeg")
    assert response["Cache-Control"].startswith(f"{cache}, ")


# -- names ----------------------------------------------------------------------------------------
def test_new_uploads_get_random_names(deck):
    names = [n for c in deck.cards.all() for n in (c.image.name, c.thumb.name)]
    assert all(RANDOM_NAME.fullmatch(name) for name in names), names
    assert len(set(names)) == len(names)
    assert not any(f"deck{deck.pk}" in name for name in names)


def test_the_migration_renames_existing_files(gm, deck, django_capture_on_commit_callbacks):
    migration = importlib.import_module(
        "games.amnesia_stories.migrations.0002_unguessable_deck_files"
    )
    card = deck.cards.order_by("position").first()
    large, thumb = stored_bytes(card.image), card.thumb.name
    storage = card.image.storage
    old = storage.save(f"decks/2026/01/deck{deck.pk}-001.webp", ContentFile(large))
    assert old == f"decks/2026/01/deck{deck.pk}-001.webp"
    storage.delete(card.image.name)
    CustomCard.objects.filter(pk=card.pk).update(image=old)

    editor = SimpleNamespace(connection=connection)
    with django_capture_on_commit_callbacks(execute=True):
        migration.rename_deck_files(django_apps, editor)
    card.refresh_from_db()
    assert RANDOM_NAME.fullmatch(card.image.name) and card.image.name != old
    assert stored_bytes(card.image) == large
    assert not storage.exists(old)
    assert card.thumb.name == thumb  # already random: left alone
    client = Client()
    client.force_login(gm)
    assert_serves(client, reverse("amnesia_stories:deck_picture", args=[deck.pk, card.pk, "large"]))


# -- the deck's own pages -------------------------------------------------------------------------
def test_the_deck_pages_show_pictures_to_their_owner_only(gm_client, other_client, deck):
    page = gm_client.get(reverse("amnesia_stories:deck", args=[deck.pk])).content.decode()
    urls = pictures_in(page, f"/decks/{deck.pk}/cards/")
    assert len(urls) == deck.cards.count() and "/media/" not in page
    listing = gm_client.get(reverse("amnesia_stories:decks")).content.decode()
    assert pictures_in(listing, f"/decks/{deck.pk}/cards/")
    for url in urls[:2]:
        assert_serves(gm_client, url)
        assert other_client.get(url).status_code == 404
        assert Client().get(url).status_code == 302  # to log in
    card = deck.cards.first()
    for args in ([deck.pk + 1, card.pk, "large"], [deck.pk, card.pk, "huge"]):
        url = reverse("amnesia_stories:deck_picture", args=args)
        assert gm_client.get(url).status_code == 404


# -- tables ---------------------------------------------------------------------------------------
def test_the_table_pages_use_the_tables_own_door(gm_client, other_client, deck_table):
    prefix = f"/tables/{deck_table.pk}/pictures/"
    page = gm_client.get(deck_table.get_absolute_url()).content.decode()
    urls = pictures_in(page, prefix)
    assert urls and "/media/" not in page
    projector = reverse("amnesia_stories:projector", args=[deck_table.pk])
    assert pictures_in(gm_client.get(projector).content.decode(), prefix)
    play(deck_table, until="answer")
    seat = deck_table.seats.get(position=1)
    answer = reverse("amnesia_stories:answer", args=[deck_table.pk, seat.position])
    screen = gm_client.get(answer).content.decode()
    assert pictures_in(screen, prefix) and "/media/" not in screen
    for url in urls[:2]:
        assert_serves(gm_client, url)
        assert other_client.get(url).status_code == 404
        assert Client().get(url).status_code == 302


def test_a_table_cannot_borrow_another_users_deck(gm, other, other_client, deck, make_table):
    card = deck.cards.first()
    borrowed = new_tables.create_table(
        other, "amnesia_stories", ["Ana", "Bruno", "Caio"], options=OPTIONS, seed=7,
        extra=decks.table_extra(deck),
    )  # fmt: skip
    page = other_client.get(borrowed.get_absolute_url()).content.decode()
    assert not pictures_in(page, f"/tables/{borrowed.pk}/pictures/")
    url = reverse("games:picture", args=[borrowed.pk, card.pk, "large"])
    assert other_client.get(url).status_code == 404
    # The deck's owner, at a table of theirs that does not play with it: no picture either.
    plain = make_table("amnesia_stories")
    client = Client()
    client.force_login(gm)
    assert (
        client.get(reverse("games:picture", args=[plain.pk, card.pk, "large"])).status_code == 404
    )


def test_seat_links_see_their_tables_pictures(deck_table, make_table):
    card = CustomCard.objects.get(deck_id=deck_table.extra["custom_deck"], position=0)
    token = deck_table.seats.first().token
    visitor = Client()  # no account: the link is the credential
    assert_serves(visitor, reverse("games:seat_picture", args=[token, card.pk, "thumb"]))
    stranger = make_table("contest", ["Ada", "Bea"]).seats.first().token
    for bad in (stranger, token[:-1], "x" * 32):
        url = reverse("games:seat_picture", args=[bad, card.pk, "thumb"])
        assert visitor.get(url).status_code == 404


def test_pictures_answer_conditional_requests(gm_client, deck_table):
    card = CustomCard.objects.first()
    url = reverse("games:picture", args=[deck_table.pk, card.pk, "large"])
    etag = gm_client.get(url)["ETag"]
    assert gm_client.get(url, headers={"if-none-match": etag}).status_code == 304


# -- stories --------------------------------------------------------------------------------------
@pytest.fixture
def deck_story(deck_table) -> Story:
    play(deck_table)
    story = story_for(deck_table)
    story.publish()
    story.save()
    return story


def set_visibility(story: Story, visibility: str) -> None:
    story.visibility = visibility
    story.save()


def test_story_readers_see_the_pictures(gm_client, other_client, deck_story, make_table):
    page = gm_client.get(deck_story.get_absolute_url()).content.decode()
    urls = pictures_in(page, f"/stories/{deck_story.pk}/pictures/")
    assert urls and "/media/" not in page
    shared = reverse("stories:shared", args=[deck_story.secret])
    shared_urls = pictures_in(gm_client.get(shared).content.decode(), f"{shared}pictures/")
    assert len(shared_urls) == len(urls)
    by_id, by_secret = urls[0], shared_urls[0]
    # What a reader who is not an author gets, by id and by the secret link.
    for visibility, expected in [
        (Story.Visibility.PRIVATE, (404, 404)),
        (Story.Visibility.UNLISTED, (404, 200)),
        (Story.Visibility.PUBLIC, (200, 200)),
    ]:
        set_visibility(deck_story, visibility)
        for reader in (other_client, Client()):
            got = (reader.get(by_id).status_code, reader.get(by_secret).status_code)
            assert got == expected, visibility
        # Only a public story's pictures may sit in a shared cache.
        cache = "public" if visibility == Story.Visibility.PUBLIC else "private"
        assert_serves(gm_client, by_id, cache)
        assert_serves(gm_client, by_secret, cache)
    # A story whose table does not play with the deck cannot show its pictures.
    card = card_of(by_id)
    other_story = story_for(make_table("amnesia_stories"))
    url = reverse("stories:picture", args=[other_story.pk, card.pk, "large"])
    assert gm_client.get(url).status_code == 404


def test_the_pdf_prints_the_pictures_from_storage(deck_story, monkeypatch):
    fetchers = []

    class Recording(story_pdf.BookFetcher):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            fetchers.append(self)

    monkeypatch.setattr(story_pdf, "BookFetcher", Recording)
    book = story_pdf.make_book(deck_story)
    assert book.uploads
    assert story_pdf.render_book_pdf(book).startswith(b"%PDF")
    (fetcher,) = fetchers
    for number in book.uploads:
        path = f"{story_pdf.UPLOAD_PATH}{number}"
        assert f"https://book.invalid{path}" in fetcher.served
        stored = CustomCard.objects.get(pk=number).image
        assert fetcher.extra[path] == (stored_bytes(stored), "image/webp")
    assert fetcher.refused == []


# -- MEDIA_URL ------------------------------------------------------------------------------------
def test_uploads_are_served_with_debug_off_and_never_from_media_url(
    settings, gm_client, deck_story
):
    card = CustomCard.objects.first()
    deck_story.cover.save("cover.jpg", ContentFile(stored_bytes(card.image)))
    settings.DEBUG = False
    assert_serves(gm_client, reverse("games:picture", args=[deck_story.table.pk, card.pk, "large"]))
    # Not even the development set-up maps MEDIA_URL onto the uploads any more.
    urls = importlib.import_module(settings.ROOT_URLCONF)
    settings.DEBUG = True
    try:
        importlib.reload(urls)
        clear_url_caches()
        for name in (card.image.name, card.thumb.name, deck_story.cover.name):
            assert card.image.storage.exists(name)
            assert gm_client.get(f"{settings.MEDIA_URL}{name}").status_code == 404, name
    finally:
        settings.DEBUG = False
        importlib.reload(urls)
        clear_url_caches()
