"""The public archive: search, filters by game, language and tag, sorting and pages."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.services import new_tables
from stories.models import Story, Tag, story_for

pytestmark = pytest.mark.django_db


def quick_story(owner, title: str, *, game="amnesia", language="en", tags=(), days_ago=0, text=""):
    """A published public story without playing a game (the archive only reads the rows)."""
    players = ["Ana", "Bruno", "Caio"]
    table = new_tables.create_table(owner, game, players, name=title)
    story = story_for(table, language)
    story.title = title
    story.visibility = Story.Visibility.PUBLIC
    story.published_at = timezone.now() - timedelta(days=days_ago)
    story.search_text = text
    story.save()
    story.tags.set(Tag.for_names(list(tags)))
    return story


def titles(client, **params) -> list[str]:
    response = client.get(reverse("stories:archive"), params)
    assert response.status_code == 200
    page = response.context["page"]
    return [story.title for story in page]


@pytest.fixture
def shelf(gm):
    return [
        quick_story(gm, "Banana Night", tags=["noir"], days_ago=3, text="a lighthouse keeper"),
        quick_story(gm, "apple dawn", language="pt-br", tags=["noir", "praia"], days_ago=1),
        quick_story(gm, "窓のない部屋", language="ja", tags=["ミステリー"], days_ago=2),
        quick_story(gm, "Cherry Noon", game="amnesia_stories", days_ago=0),
    ]


def test_newest_first_by_default_and_the_other_sorts(client, shelf):
    assert titles(client) == ["Cherry Noon", "apple dawn", "窓のない部屋", "Banana Night"]
    assert titles(client, sort="old") == [
        "Banana Night",
        "窓のない部屋",
        "apple dawn",
        "Cherry Noon",
    ]
    assert titles(client, sort="title")[:3] == ["apple dawn", "Banana Night", "Cherry Noon"]


def test_filters(client, shelf):
    assert titles(client, language="ja") == ["窓のない部屋"]
    assert titles(client, language="pt-br") == ["apple dawn"]
    assert titles(client, game="amnesia_stories") == ["Cherry Noon"]
    assert set(titles(client, tag="noir")) == {"Banana Night", "apple dawn"}
    assert titles(client, tag="ミステリー") == ["窓のない部屋"]
    assert titles(client, tag="noir", language="pt-br") == ["apple dawn"]
    assert titles(client, tag="nothing") == []
    # Nonsense parameters are ignored, not errors.
    assert len(titles(client, game="chess", sort="random", language="xx")) == 4


def test_search_in_titles_text_tags_and_names(client, shelf):
    assert titles(client, q="banana") == ["Banana Night"]
    assert titles(client, q="LIGHTHOUSE") == ["Banana Night"]
    assert titles(client, q="部屋") == ["窓のない部屋"]
    assert titles(client, q="praia") == ["apple dawn"]
    assert len(titles(client, q="Bruno")) == 4  # a player's name
    assert titles(client, q="zebra") == []
    page = client.get(reverse("stories:archive"), {"q": "zebra"}).content.decode()
    assert "No story matches." in page


def test_search_ignores_accents_and_the_case_of_accented_letters(client, gm):
    """A Brazilian reader types "heroi" or "ACUCAR" (a laptop's keyboard, a search box's
    habits): the story of "O herói" and its "açúcar" is found all the same. SQLite's LIKE
    folds only ASCII letters, so "HERÓI" missed "herói" there too."""
    quick_story(gm, "O herói que esqueceu", language="pt-br", text="Açúcar queimado no pântano.")
    quick_story(gm, "窓のない部屋", language="ja", text="ガラスの鍵")
    for q in ("herói", "heroi", "HERÓI", "Heroi", "acucar", "AÇÚCAR", "pantano", "Pântano"):
        assert titles(client, q=q) == ["O herói que esqueceu"], q
    assert titles(client, q="ガラス") == ["窓のない部屋"]
    assert titles(client, q="カラス") == []  # a Japanese sound mark is not an accent


def test_search_finds_a_tag_without_its_accents(client, gm, gm_client):
    story = quick_story(gm, "O herói que esqueceu", language="pt-br")
    form = {"title": story.title, "language": "pt-br", "visibility": "public"}
    edit = reverse("stories:edit", args=[story.pk])
    assert gm_client.post(edit, {**form, "tags_text": "mistério, Ação"}).status_code == 302
    for q in ("mistério", "misterio", "MISTERIO", "acao"):
        assert titles(client, q=q) == ["O herói que esqueceu"], q
    assert gm_client.post(edit, {**form, "tags_text": "noir"}).status_code == 302
    assert titles(client, q="misterio") == []  # the tag is gone, and so is the match


def test_pages_of_twelve(client, gm):
    for i in range(14):
        quick_story(gm, f"Story {i:02d}", days_ago=i)
    first = titles(client)
    second = titles(client, page=2)
    assert len(first) == 12 and len(second) == 2
    assert first[0] == "Story 00" and second == ["Story 12", "Story 13"]
    page = client.get(reverse("stories:archive"), {"page": 2, "sort": "new"}).content.decode()
    assert "Page 2 of 2" in page and "sort=new" in page
    assert titles(client, page=99) == second  # past the end: the last page


def test_the_plays_to_take_away_are_offered_to_anyone_signed_in(client, gm_client):
    """README's "Your plays, to take away on Stories": there for a person with no story of
    their own yet (a player who never made a book), never for a visitor."""
    plays = reverse("stories:my_plays_json")
    assert not Story.objects.exists()
    page = gm_client.get(reverse("stories:archive")).content.decode()
    assert f'href="{plays}"' in page and f'href="{reverse("stories:my_plays_csv")}"' in page
    assert "Your stories" not in page
    assert f'href="{plays}"' not in client.get(reverse("stories:archive")).content.decode()
