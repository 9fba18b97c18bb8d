"""A deck upload off the request: the request checks only what is cheap and queues the
pictures on the ``pictures`` queue; a worker cleans them; the deck's page follows; the pixel
cap and the bound on waiting pictures are refused in sentences in the reader's language."""

from __future__ import annotations

import contextlib
import io
import os
import signal
from pathlib import Path

import pytest
from django.urls import reverse
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult
from PIL import Image

from amnesia_site.workers import work
from games import images
from games.amnesia_stories import deck_queue, decks
from games.amnesia_stories.models import CustomCard, CustomDeck
from tests.games.amnesia_stories.test_decks import IDS, good_files, make_zip, png
from tests.workers import let_go, reached, run_queued, start_worker, stop, wait_for, worker_env

pytestmark = pytest.mark.django_db

Status = CustomDeck.Status


@pytest.fixture(autouse=True)
def media(settings, tmp_path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def _never(*args, **kwargs):
    raise AssertionError("a picture was decoded in the request")


@contextlib.contextmanager
def no_decoding():
    """Within it, a picture decoded or cleaned fails the test."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(images, "decode", _never)
        patch.setattr(decks, "clean_image", _never)
        yield


def upload(client, name="Forest deck", files=None, **headers):
    return client.post(
        reverse("amnesia_stories:deck_upload"),
        {"name": name, "archive": make_zip(files or good_files())},
        **headers,
    )


def files_in(media: Path, pattern: str) -> list[Path]:
    return sorted(media.rglob(pattern)) if media.exists() else []


def test_the_upload_queues_the_pictures_and_the_worker_cleans_them(gm_client, media, settings):
    with no_decoding():
        response = upload(gm_client)
    assert response.status_code == 302
    deck = CustomDeck.objects.get()
    assert deck.status == Status.CLEANING
    # Nothing cleaned yet: the pictures wait as they came, on the pictures queue.
    assert not CustomCard.objects.exclude(image="").exists()
    assert len(files_in(media, "*.upload")) == len(IDS)
    assert files_in(media, "*.webp") + files_in(media, "*.jpg") == []
    tasks = DBTaskResult.objects.filter(status=TaskResultStatus.READY)
    assert list(tasks.values_list("queue_name", flat=True)) == [work.PICTURES]

    # The deck's page says how far it is, and polls its own status until it is ready.
    page = gm_client.get(response["Location"])
    body = page.content.decode()
    assert "Preparing the pictures: 0 of 12 ready." in body
    assert 'hx-trigger="every 2s"' in body and "Play with it" not in body
    assert "No picture worker is running" in body  # none here
    partial = gm_client.get(response["Location"], HTTP_HX_REQUEST="true").content.decode()
    assert partial.lstrip().startswith('<div id="deck-status"') and "<html" not in partial
    # No table may play with it yet.
    form = gm_client.get(reverse("games:table_new") + "?game=amnesia_stories").content.decode()
    assert "Forest deck" not in form

    assert run_queued((work.PICTURES,)) == 1
    deck.refresh_from_db()
    assert deck.status == Status.READY
    assert files_in(media, "*.upload") == []
    fmt = images.web_format()[0]
    for card in deck.cards.order_by("position"):
        with Image.open(card.image.path) as large, Image.open(card.thumb.path) as thumb:
            assert (large.format, large.size) == (fmt, decks.LARGE)
            assert (thumb.format, thumb.size) == (fmt, decks.THUMB)
    partial = gm_client.get(response["Location"], HTTP_HX_REQUEST="true").content.decode()
    assert "every 2s" not in partial and "F12" in partial  # the poll ends: the cards instead
    assert (
        "Forest deck"
        in gm_client.get(reverse("games:table_new") + "?game=amnesia_stories").content.decode()
    )


def test_a_deck_is_cleaned_in_chunks_any_worker_may_take(gm, settings, media):
    ids = [f"F{i:02d}" for i in range(1, 31)]
    # One picture for all (its cleaning made once a run: tests/conftest.py)
    files: dict[str, bytes | str] = {f"{card}.png": png() for card in ids}
    files["cards.csv"] = "id,text\n" + "".join(f"{i},{i}\n" for i in ids)
    deck = deck_queue.receive(gm, "Big", make_zip(files))
    chunks = DBTaskResult.objects.filter(queue_name=work.PICTURES).order_by("enqueued_at")
    assert [r.args_kwargs["args"] for r in chunks] == [
        [deck.pk, 0, 12],
        [deck.pk, 12, 24],
        [deck.pk, 24, 36],
    ]
    # A chunk run twice (its worker died after it was done, say) cleans nothing twice.
    deck_queue.clean_pictures.call(deck.pk, 0, 12)
    assert deck_queue.progress(deck) == (12, 30)
    written = len(files_in(media, "*.*"))
    assert deck_queue.clean_pictures.call(deck.pk, 0, 12) == "cleaned"
    assert len(files_in(media, "*.*")) == written
    assert run_queued((work.PICTURES,)) == 3
    deck.refresh_from_db()
    assert deck.status == Status.READY and deck_queue.progress(deck) == (30, 30)
    assert len(files_in(media, "*.*")) == 60


def test_a_picture_over_the_pixel_cap_is_refused_from_its_header(gm_client, media, settings):
    settings.DECK_MAX_PIXELS = 6000
    files = good_files(**{"F08.png": png(size=(100, 100))})
    with no_decoding():
        response = upload(gm_client, files=files)
        assert response.status_code == 400
        body = response.content.decode()
        assert "“F08.png” is 100 × 100 pixels; the limit is 6,000 pixels." in body
        response = upload(gm_client, files=files, HTTP_ACCEPT_LANGUAGE="pt-br")
    assert "“F08.png” tem 100 × 100 pixels; o limite é" in response.content.decode()
    assert CustomDeck.objects.count() == 0 and files_in(media, "*.*") == []
    assert not DBTaskResult.objects.exists()


def test_a_person_may_have_only_so_many_pictures_waiting(gm_client, other_client, media, settings):
    settings.DECK_MAX_QUEUED_PICTURES = 20
    assert upload(gm_client, "First").status_code == 302
    response = upload(gm_client, "Second")
    assert response.status_code == 400
    assert (
        "Too many pictures would be waiting to be prepared for you: 12 already, 12 in this "
        "deck, at most 20 at once." in response.content.decode()
    )
    assert list(CustomDeck.objects.values_list("name", flat=True)) == ["First"]
    assert len(files_in(media, "*.upload")) == len(IDS)  # the second one's left nothing
    assert DBTaskResult.objects.count() == 1
    # Someone else's pictures are theirs to count.
    assert upload(other_client, "Theirs").status_code == 302
    # Once the first deck is ready, the second may come.
    run_queued((work.PICTURES,))
    assert upload(gm_client, "Second").status_code == 302


def test_the_bound_speaks_the_readers_language(gm_client, media, settings):
    settings.DECK_MAX_QUEUED_PICTURES = 5
    body = upload(gm_client, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "準備" in body and "Too many pictures" not in body


def test_a_picture_the_worker_refuses_fails_the_deck_in_words(gm_client, media):
    out = io.BytesIO()
    Image.effect_noise((300, 200), 60).convert("RGB").save(out, "PNG")
    data = out.getvalue()
    # Its header is whole: only decoding it finds it cut short, in the worker.
    response = upload(gm_client, files=good_files(**{"F05.png": data[: len(data) // 2]}))
    assert response.status_code == 302
    run_queued((work.PICTURES,))
    deck = CustomDeck.objects.get()
    assert deck.status == Status.FAILED
    assert deck.problem["reason"] == "damaged" and deck.problem["name"] == "F05.png"
    body = gm_client.get(response["Location"]).content.decode()
    assert "“F05.png” is damaged or truncated" in body and "every 2s" not in body
    ja = gm_client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "F05.png" in ja and "damaged or truncated" not in ja
    # Nothing of it is kept but the sentence: no card, no file.
    assert not CustomCard.objects.exists() and files_in(media, "*.*") == []
    listing = gm_client.get(reverse("amnesia_stories:decks")).content.decode()
    assert "Could not be prepared" in listing


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_in_the_middle_of_a_deck_and_another_finishes_it(gm, media, tmp_path):
    """A real ``manage.py worker --queues pictures`` killed between two cards: the next
    worker (here, in this process) runs the lost chunk again and cleans only what was left,
    each card once."""
    pauses = tmp_path / "pauses"
    pauses.mkdir()
    log = tmp_path / "workers.log"
    deck = deck_queue.receive(gm, "Killed", make_zip(good_files()))
    for position in range(4):
        let_go(pauses, f"deck-{deck.pk}-{position}")
    first = start_worker(worker_env(pauses), "--queues", work.PICTURES, log=log)
    try:
        wait_for(lambda: reached(pauses, f"deck-{deck.pk}-4"), "the fifth card", log=log)
        assert deck_queue.progress(deck) == (4, len(IDS))
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
    finally:
        stop(first)
    assert DBTaskResult.objects.get().status == TaskResultStatus.RUNNING  # lost, not done
    assert run_queued((work.PICTURES,)) == 1
    deck.refresh_from_db()
    assert deck.status == Status.READY and deck_queue.progress(deck) == (len(IDS), len(IDS))
    task = DBTaskResult.objects.get()
    assert task.status == TaskResultStatus.SUCCESSFUL and len(task.worker_ids) == 2
    # Two files a card, each written once; no upload left.
    assert len(files_in(media, "*.*")) == 2 * len(IDS)
