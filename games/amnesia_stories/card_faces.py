"""An area card as a page shows it: its pictures' addresses (a built-in card's drawn art, a
custom deck's pictures through the table's own door), its text in the page's language and
its alt text; and the selection's slots, each with its card.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from amnesia_site import lists
from games.addresses import address
from games.amnesia_stories.area_texts import AREA_IDS, area_scene, area_text
from games.amnesia_stories.decks import table_cards
from games.models import Table

SCENE_LABELS = {
    "mountains": _("mountains"),
    "sea": _("sea"),
    "forest": _("forest"),
    "desert": _("desert"),
    "snowfield": _("snowfield"),
    "cave": _("cave"),
    "castle": _("castle"),
    "village": _("village"),
    "ruins": _("ruins"),
    "swamp": _("swamp"),
    "volcano": _("volcano"),
    "lake": _("lake"),
    "canyon": _("canyon"),
    "waterfall": _("waterfall"),
    "island": _("island"),
    "tower": _("tower"),
}
TIME_LABELS = {"dawn": _("dawn"), "day": _("day"), "dusk": _("dusk"), "night": _("night")}


def text_language() -> str:
    """The adventure texts' language (en, pt or ja) for the page's language."""
    code = (get_language() or "en").lower()
    if code.startswith("pt"):
        return "pt"
    if code.startswith("ja"):
        return "ja"
    return "en"


def pick_text(texts: Any, lang: str) -> str:
    if isinstance(texts, dict):
        return str(texts.get(lang) or texts.get("en") or next(iter(texts.values()), ""))
    return str(texts or "")


def card_lookup(table: Table, seat_token: str | None = None) -> Callable[[str], dict[str, Any]]:
    """``card(id)``: the id, its pictures' URLs (or None) and its text in the page's language.
    A seat's page (``seat_token``) reaches a custom deck's pictures through its own link."""
    lang = text_language()
    custom = table.extra.get("area_ids")
    texts = table.extra.get("area_texts") or {}
    images: dict[str, tuple[str, str]] = {}
    if custom is not None:
        # The table's own door to its deck's pictures: the files are served to those who may
        # see this table, never from MEDIA_URL (games.uploads).
        def url(card_pk: int, size: str) -> str:
            if seat_token is not None:
                return reverse("games:seat_picture", args=[seat_token, card_pk, size])
            return reverse("games:picture", args=[table.pk, card_pk, size])

        images = {
            c.card_id: (url(c.pk, "large"), url(c.pk, "thumb"))
            for c in table_cards(table).only("pk", "card_id", "image")
            if c.image
        }
    cache: dict[str, dict[str, Any]] = {}

    def card(card_id: str) -> dict[str, Any]:
        if card_id in cache:
            return cache[card_id]
        if custom is None and card_id in AREA_IDS:
            info = dict(
                _built_in(
                    card_id,
                    lang,
                    get_language(),
                    get_script_prefix(),
                    get_urlconf(),
                    str(settings.ROOT_URLCONF),
                )
            )
        else:
            large, thumb = images.get(card_id, (None, None))
            info = {
                "id": card_id,
                "large": large,
                "thumb": thumb,
                "text": pick_text(texts.get(card_id), lang),
                "alt": card_id,
            }
        cache[card_id] = info
        return info

    return card


@functools.lru_cache(maxsize=4096)
def _built_in(
    card_id: str, lang: str, language: str | None, prefix: str, urlconf: Any, root: str
) -> dict[str, Any]:
    """A built-in card as a page in ``language`` shows it: the same for every table, so drawn
    once per language and address prefix (a table page shows some thirty cards, each with its
    text and its alt text translated: a tenth of the Amnesia Stories table panel's CPU). Keyed
    by what it reads (``urlconf`` and ``root`` for its addresses); the caller takes a copy."""
    scene, _variant, time = area_scene(card_id)
    return {
        "id": card_id,
        "large": address("amnesia_stories:area_image", card_id, "large"),
        "thumb": address("amnesia_stories:area_image", card_id, "thumb"),
        "text": area_text(card_id, lang),
        "alt": lists.listing([SCENE_LABELS.get(scene, scene), TIME_LABELS.get(time, time)]),
    }


@receiver(setting_changed)
def _forget(*, setting: str, **_kwargs: Any) -> None:
    if setting == "ROOT_URLCONF":
        _built_in.cache_clear()


def slots_of(selection: dict[str, str], card) -> list[dict[str, Any]]:
    return [
        {"n": int(n), **card(card_id)}
        for n, card_id in sorted(selection.items(), key=lambda kv: int(kv[0]))
    ]
