"""Stories made from finished sample games, and a private cache and media folder per test."""

from __future__ import annotations

import re

import pytest

from games import services as game_services
from stories import services
from stories.models import Story, story_for
from stories.samples import SAMPLES, Scene, amnesia_script, sample_script


@pytest.fixture(autouse=True)
def story_folders(settings, tmp_path):
    settings.STORY_CACHE_DIR = str(tmp_path / "story-cache")
    settings.MEDIA_ROOT = str(tmp_path / "media")


def make_story(
    owner,
    language: str = "en",
    *,
    visibility: str = Story.Visibility.PRIVATE,
    published: bool = False,
    title: str | None = None,
    script: dict | None = None,
    **fields,
) -> Story:
    table = game_services.import_script(script or sample_script(language), owner)
    story = story_for(table, language)
    story.title = title or SAMPLES[language]["title"]
    story.visibility = visibility
    for name, value in fields.items():
        setattr(story, name, value)
    if published:
        story.publish()
    story.save()
    if published:
        services.refresh_search_text(story)
    return story


def short_script(text: str, players: tuple[str, str] = ("Ana", "Bruno")) -> dict:
    """A finished game of three chapters whose first scene says ``text``."""
    a, b = players
    return amnesia_script(
        [a, b],
        [
            Scene(a, [text]),
            Scene(b, ["A memory of a lighthouse."], kind="flashback", abilities=["swimming"]),
            Scene(a, ["The room, at last."], kind="room_flashback"),
        ],
        epilogue="The end of it.",
    )


HEADER_LINE = re.compile(r"^\d+$")


def pdf_text(data: bytes, running_heads: set[str]) -> str:
    """The text of a PDF with page numbers and running heads taken out, pages joined."""
    from io import BytesIO

    from pypdf import PdfReader

    pages = []
    for page in PdfReader(BytesIO(data)).pages:
        lines = page.extract_text().split("\n")
        while lines and (
            HEADER_LINE.match(lines[-1].strip()) or lines[-1].strip() in running_heads
        ):
            lines.pop()
        pages.append("\n".join(lines))
    return "\n".join(pages).replace("\u2010\n", "")


def squeeze(text: str) -> str:
    """Text without any whitespace: line breaks fall in different places in a PDF."""
    return "".join(text.split())
