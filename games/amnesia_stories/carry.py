"""A custom deck in a bundle (``stories.bundles``; the kit's ``carry``).

A table that plays with its owner's custom deck names the deck by its database id
(``extra["custom_deck"]``), which means nothing on another site. The bundle carries the deck
itself: its name and, per card, the id, the text and the large picture. On arrival the
pictures are made safe again (``decks.clean_image``: re-encoded from their pixels, both sizes),
and the table is pointed at the new deck; an identical deck its owner has already (same name,
same cards and texts) is used instead of a copy. A table whose deck is not carried points at
none, so it never shows pictures of an unrelated deck that has the same id here.
"""

from __future__ import annotations

from typing import Any

from games.amnesia_stories.decks import (
    MAX_CARDS,
    MAX_ID,
    MAX_TEXT,
    CardData,
    DeckError,
    clean_image,
    save_cards,
    table_cards,
)
from games.amnesia_stories.models import CustomDeck
from games.images import stored_bytes
from games.registry import Brought, Carry

NAME_LENGTH = CustomDeck._meta.get_field("name").max_length


def export(table, add_file, person) -> dict[str, Any] | None:
    cards = list(table_cards(table).select_related("deck").order_by("position"))
    if not cards:
        return None
    out = []
    for card in cards:
        picture = None
        data = stored_bytes(card.image) if card.image else b""
        if data:
            picture = add_file(data, card.image.name.rsplit(".", 1)[-1].lower())
        out.append({"card_id": card.card_id, "text": card.text, "picture": picture})
    return {"deck": {"name": cards[0].deck.name, "cards": out}}


def check(part, files: dict[str, bytes], people: set[str]) -> None:
    if not isinstance(part, dict) or not isinstance(part.get("deck"), dict):
        raise ValueError("deck")
    deck = part["deck"]
    name = deck.get("name")
    if not isinstance(name, str) or not 0 < len(name) <= NAME_LENGTH:
        raise ValueError("deck.name")
    cards = deck.get("cards")
    if not isinstance(cards, list) or not 0 < len(cards) <= MAX_CARDS:
        raise ValueError("deck.cards")
    seen = set()
    for i, card in enumerate(cards):
        where = f"deck.cards[{i}]"
        if not isinstance(card, dict):
            raise ValueError(where)
        card_id, text, picture = card.get("card_id"), card.get("text"), card.get("picture")
        if not isinstance(card_id, str) or not 0 < len(card_id) <= MAX_ID or card_id in seen:
            raise ValueError(f"{where}.card_id")
        seen.add(card_id)
        if not isinstance(text, str) or len(text) > MAX_TEXT:
            raise ValueError(f"{where}.text")
        if picture is not None and (not isinstance(picture, str) or picture not in files):
            raise ValueError(f"{where}.picture")


def _same_deck(owner, name: str, cards: list[dict[str, Any]]) -> CustomDeck | None:
    wanted = [(c["card_id"], c["text"]) for c in cards]
    ready = CustomDeck.objects.filter(owner=owner, name=name, status=CustomDeck.Status.READY)
    for deck in ready.prefetch_related("cards"):
        if [(c.card_id, c.text) for c in deck.cards.all()] == wanted:
            return deck
    return None


def _make_deck(owner, name: str, cards, files: dict[str, bytes], brought: Brought) -> CustomDeck:
    """A new deck of ``cards``, every picture made safe again before any is written."""
    made = []
    for card in cards:
        large = thumb = b""
        if card["picture"] is not None:
            try:
                large, thumb = clean_image(files[card["picture"]], card["card_id"])
            except DeckError as refused:
                raise ValueError(refused.message) from None
        made.append(CardData(card["card_id"], card["text"], card["picture"] or "", large, thumb))
    deck = CustomDeck.objects.create(owner=owner, name=name)
    brought.files.extend(f.name for f in save_cards(deck, made))
    return deck


def bring(table, part, files: dict[str, bytes], people) -> Brought:
    brought = Brought()
    extra = dict(table.extra)
    if part is None:
        if "custom_deck" in extra:
            extra.pop("custom_deck")
            table.extra = extra
            table.save(update_fields=["extra"])
        return brought
    cards = part["deck"]["cards"]
    deck = _same_deck(table.owner, part["deck"]["name"], cards)
    if deck is None:
        deck = _make_deck(table.owner, part["deck"]["name"], cards, files, brought)
        brought.decks = 1
    extra["custom_deck"] = deck.pk
    table.extra = extra
    table.save(update_fields=["extra"])
    return brought


CARRY = Carry(export=export, check=check, bring=bring)
