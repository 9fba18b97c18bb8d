"""Who sees what: each visibility on the reading page, the PDF, the cover, the secret link, the
archive and its search, for an author, a seated player, a stranger and an anonymous visitor."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from stories import pdf as story_pdf
from stories.models import Story

from .conftest import make_story, short_script

pytestmark = pytest.mark.django_db

FAKE_PDF = b"%PDF-1.7 fake for the permission tests"


@pytest.fixture(autouse=True)
def fast_pdf(monkeypatch):
    """Who may download is the question here, not how the book looks (see test_pdf)."""
    monkeypatch.setattr(story_pdf, "render_book_pdf", lambda book, size="a5": FAKE_PDF)


@pytest.fixture
def stories(gm) -> dict[str, Story]:
    def story(key: str, visibility: str, published: bool) -> Story:
        return make_story(
            gm,
            "en",
            title=f"Title {key}",
            visibility=visibility,
            published=published,
            script=short_script(f"A needle{key} in the haystack, and a shared-needle."),
        )

    return {
        "private": story("private", Story.Visibility.PRIVATE, True),
        "unlisted": story("unlisted", Story.Visibility.UNLISTED, True),
        "public": story("public", Story.Visibility.PUBLIC, True),
        "draft": story("draft", Story.Visibility.PUBLIC, False),
    }


@pytest.fixture
def seated_client(stories, django_user_model) -> Client:
    """A player linked to a seat of every story's table: an author too."""
    player = django_user_model.objects.create_user(username="seated")
    for story in stories.values():
        seat = story.table.seats.first()
        seat.user = player
        seat.save()
    client = Client()
    client.force_login(player)
    return client


def by_id(story: Story) -> dict[str, str]:
    return {
        "page": reverse("stories:detail", args=[story.pk]),
        "pdf": reverse("stories:pdf", args=[story.pk]),
        "cover": reverse("stories:cover", args=[story.pk]),
    }


def by_secret(story: Story) -> dict[str, str]:
    return {
        "page": reverse("stories:shared", args=[story.secret]),
        "pdf": reverse("stories:shared_pdf", args=[story.secret]),
        "cover": reverse("stories:shared_cover", args=[story.secret]),
    }


# What a reader who is not an author gets: (by id, by secret link, in the archive).
READER_SEES = {
    "private": (404, 404, False),
    "unlisted": (404, 200, False),
    "public": (200, 200, True),
    "draft": (404, 404, False),
}


def fetch(client: Client, url: str, what: str):
    """A GET of ``url``; a book not kept yet is asked for first, as its page does (a POST:
    the download's GET only reads, and sends the reader there)."""
    response = client.get(url)
    if what == "pdf" and response.status_code == 302:
        assert "/pdf/status/" in response["Location"]
        asked = client.post(response["Location"])
        assert asked.status_code == 302
        response = client.get(asked["Location"])
    return response


def check(client: Client, story: Story, by_id_status: int, secret_status: int) -> None:
    for what, url in by_id(story).items():
        response = fetch(client, url, what)
        assert response.status_code == by_id_status, (story.title, what, "by id")
        if by_id_status == 200 and what == "pdf":
            assert response.content == FAKE_PDF
            assert response["Content-Type"] == "application/pdf"
    for what, url in by_secret(story).items():
        status = fetch(client, url, what).status_code
        assert status == secret_status, (story.title, what, "by secret")


def archive_titles(client: Client, **params) -> str:
    response = client.get(reverse("stories:archive"), params)
    assert response.status_code == 200
    page = response.content.decode()
    # Only the list of results: "Your stories" (an author's own) is checked on its own.
    return page.split('class="archive-list"', 1)[1]


# Every visibility, for each kind of reader, in one test (and one test for the authors): the
# four stories are made once for all of them (each case was a test making all four, for one).
# Each case starts with the throttles at 0, as a test of its own would (fresh_cache).
CASES = [(who, key) for who in ("stranger", "anonymous") for key in READER_SEES]


def test_readers_who_are_not_authors(stories, other):
    # Searching finds the narration even of a story nobody has opened since it was published.
    for story in stories.values():
        if story.is_published:
            assert f"needle{story.title.split()[-1]}" in story.search_text
    for who, key in CASES:
        cache.clear()
        client = Client()
        if who == "stranger":
            client.force_login(other)
        by_id_status, secret_status, listed = READER_SEES[key]
        story = stories[key]
        check(client, story, by_id_status, secret_status)
        listing = archive_titles(client)
        assert (f"Title {key}" in listing) is listed, (who, key)
        assert (f"Title {key}" in archive_titles(client, q=f"needle{key}")) is listed, (who, key)
        assert (f"Title {key}" in archive_titles(client, q="shared-needle")) is listed, (who, key)
        assert (f"Title {key}" in archive_titles(client, q=f"Title {key}")) is listed, (who, key)


def test_authors_see_their_story_whatever_its_visibility(stories, gm_client, seated_client):
    for key in READER_SEES:
        for client in (gm_client, seated_client):
            cache.clear()
            check(client, stories[key], 200, 200)


def test_the_archive_lists_only_public_stories_even_to_their_authors(stories, gm_client):
    listing = archive_titles(gm_client)
    assert "Title public" in listing
    for key in ("private", "unlisted", "draft"):
        assert f"Title {key}" not in listing
    # An author finds their own under "Your stories", never in the public list.
    page = gm_client.get(reverse("stories:archive")).content.decode()
    mine = page.split('class="archive-mine"', 1)[1].split("</section>", 1)[0]
    assert all(f"Title {key}" in mine for key in READER_SEES)


def test_strangers_see_no_your_stories_section(stories, other_client):
    page = other_client.get(reverse("stories:archive")).content.decode()
    assert 'class="archive-mine"' not in page


def test_guessed_ids_and_secrets_are_404(stories, other_client, gm_client):
    missing = max(s.pk for s in stories.values()) + 1
    for client in (other_client, gm_client):
        for name in ("detail", "pdf", "cover"):
            assert client.get(reverse(f"stories:{name}", args=[missing])).status_code == 404
    for secret in ("nope", stories["private"].secret[:-1], stories["public"].secret + "x"):
        assert other_client.get(reverse("stories:shared", args=[secret])).status_code == 404


def test_a_new_secret_link_revokes_the_old(stories, gm_client, other_client):
    story = stories["unlisted"]
    old = by_secret(story)["page"]
    assert other_client.get(old).status_code == 200
    assert gm_client.post(reverse("stories:new_link", args=[story.pk])).status_code == 302
    story.refresh_from_db()
    assert other_client.get(old).status_code == 404
    assert other_client.get(by_secret(story)["page"]).status_code == 200
    # Only authors may draw a new link.
    assert other_client.post(reverse("stories:new_link", args=[story.pk])).status_code == 404


def test_the_authors_pages_are_404_to_strangers(stories, other_client):
    story = stories["public"]
    seq = story.table.moves.first().seq
    for url in (
        reverse("stories:edit", args=[story.pk]),
        reverse("stories:narration", args=[story.pk, seq]),
    ):
        assert other_client.get(url).status_code == 404
        assert other_client.post(url, {"text": "vandalism", "title": "x"}).status_code == 404
    for url in (
        reverse("stories:publish", args=[story.pk]),
        reverse("stories:revert", args=[story.pk, seq]),
    ):
        assert other_client.post(url, {"version": "original"}).status_code == 404
    assert not story.edits.exists()


def test_anonymous_visitors_are_sent_to_log_in_for_the_authors_pages(stories):
    story = stories["public"]
    response = Client().get(reverse("stories:edit", args=[story.pk]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_table_link_makes_the_draft_for_authors_only(gm, gm_client, other_client):
    from games.services import new_tables

    table = new_tables.create_table(gm, "amnesia", ["Ana", "Bruno"], name="Room 9")
    url = reverse("stories:for_table", args=[table.pk])
    assert other_client.get(url).status_code == 404
    assert other_client.post(url).status_code == 404
    assert gm_client.get(url).status_code == 200  # the button that makes it, nothing made
    assert not Story.objects.filter(table=table).exists()
    response = gm_client.post(url)
    story = Story.objects.get(table=table)
    assert response.status_code == 302 and response["Location"] == story.get_absolute_url()
    assert story.title == "Room 9" and story.visibility == Story.Visibility.PRIVATE
    assert not story.is_published
    assert other_client.get(story.get_absolute_url()).status_code == 404
    # Once public, the table's link leads a stranger to it.
    story.visibility = Story.Visibility.PUBLIC
    story.publish()
    story.save()
    assert other_client.get(url)["Location"] == story.get_absolute_url()


def test_private_pdfs_are_not_cached_publicly(stories, gm_client):
    response = fetch(gm_client, by_id(stories["private"])["pdf"], "pdf")
    assert response["Cache-Control"] == "private"
    assert "attachment" in response["Content-Disposition"]
