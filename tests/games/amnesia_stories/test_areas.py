"""The built-in area cards: generated art and the adventure texts."""

from __future__ import annotations

import itertools
from io import StringIO

import pytest
from PIL import Image, ImageChops, ImageStat

from games.amnesia_stories import area_store
from games.amnesia_stories.area_texts import (
    AREA_IDS,
    AREA_TEXTS,
    LANGUAGES,
    SCENES,
    area_scene,
    area_text,
    area_texts,
)
from games.amnesia_stories.art.render import render_area

THUMB = (240, 160)


@pytest.fixture(scope="module")
def thumbs() -> dict[str, Image.Image]:
    return {card_id: render_area(card_id, THUMB) for card_id in AREA_IDS}


def test_48_ids():
    assert len(AREA_IDS) == 48
    assert AREA_IDS[0] == "A01" and AREA_IDS[-1] == "A48"


def test_every_scene_has_three_variants_with_different_times():
    seen: dict[str, set[str]] = {}
    for card_id in AREA_IDS:
        scene, _, time = area_scene(card_id)
        seen.setdefault(scene, set()).add(time)
    assert set(seen) == set(SCENES)
    assert all(len(times) == 3 for times in seen.values())


def test_stated_sizes(thumbs):
    assert all(img.size == THUMB and img.mode == "RGB" for img in thumbs.values())
    assert render_area("A07", (960, 640)).size == (960, 640)


def test_deterministic(thumbs):
    for card_id in ("A01", "A18", "A35", "A48"):
        again = render_area(card_id, THUMB)
        assert again.tobytes() == thumbs[card_id].tobytes()
    assert render_area("A22", (480, 320)).tobytes() == render_area("A22", (480, 320)).tobytes()


def test_large_and_thumbnail_are_the_same_picture(thumbs):
    large = render_area("A10", (960, 640)).resize(THUMB, Image.Resampling.LANCZOS)
    diff = ImageStat.Stat(ImageChops.difference(large, thumbs["A10"])).mean
    assert sum(diff) / 3 < 6


def _small(img: Image.Image) -> tuple[Image.Image, Image.Image]:
    small = img.resize((32, 32), Image.Resampling.BOX)
    return small, small.convert("L")


def test_no_two_cards_look_alike(thumbs):
    small = {card_id: _small(img) for card_id, img in thumbs.items()}
    closest = []
    for a, b in itertools.combinations(AREA_IDS, 2):
        colour = sum(ImageStat.Stat(ImageChops.difference(small[a][0], small[b][0])).mean) / 3
        grey = ImageStat.Stat(ImageChops.difference(small[a][1], small[b][1])).mean[0]
        closest.append((colour + grey, a, b))
    worst = min(closest)
    # identical pictures score 0; the most alike pair of the deck scores about 25
    assert worst[0] > 12, worst


def test_pictures_are_not_flat(thumbs):
    for card_id, img in thumbs.items():
        spread = ImageStat.Stat(img.convert("L")).stddev[0]
        assert spread > 12, card_id


def test_texts_present_in_every_language():
    assert set(AREA_TEXTS) == set(AREA_IDS)
    for card_id in AREA_IDS:
        texts = area_texts(card_id)
        assert set(texts) == set(LANGUAGES)
        assert all(isinstance(t, str) and t.strip() for t in texts.values()), card_id
    for lang in LANGUAGES:
        assert len({AREA_TEXTS[c][lang] for c in AREA_IDS}) == 48, lang
    assert area_text("A01", "ja") == AREA_TEXTS["A01"]["ja"]
    assert area_text("A01", "xx") == AREA_TEXTS["A01"]["en"]
    assert area_texts("nope") == {}


def test_generate_command(tmp_path):
    django_settings = pytest.importorskip("django.conf").settings
    if not django_settings.configured:
        pytest.skip("Django settings are not configured")
    from django.core.management import call_command

    out = StringIO()
    call_command("generate_area_cards", "--out", str(tmp_path), "--only", "A01", "A02", stdout=out)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert len(files) == 4
    large = next(p for p in tmp_path.iterdir() if p.stem == "A01")
    thumb = next(p for p in tmp_path.iterdir() if p.stem == "A01_thumb")
    assert Image.open(large).size == (960, 640)
    assert Image.open(thumb).size == THUMB
    stamp = large.stat().st_mtime_ns
    call_command("generate_area_cards", "--out", str(tmp_path), "--only", "A01", stdout=out)
    assert large.stat().st_mtime_ns == stamp
    assert "2 already there" in out.getvalue()


def test_the_files_of_a_card_are_its_picture_at_two_sizes(tmp_path):
    """``area_store.draw`` writes the large card and a thumbnail of it, each the stated size,
    the thumbnail the large one scaled down (as a Lanczos filter would scale it, near enough)."""
    paths = area_store.card_paths("A10", tmp_path)
    area_store.draw.real("A10", paths)
    large, thumb = (Image.open(paths[kind]).convert("RGB") for kind in area_store.KINDS)
    assert large.size == area_store.LARGE and thumb.size == area_store.THUMB
    scaled = large.resize(area_store.THUMB, Image.Resampling.LANCZOS)
    assert sum(ImageStat.Stat(ImageChops.difference(scaled, thumb)).mean) / 3 < 3
