"""An uploaded deck's pictures cleaned off the request, on the ``pictures`` queue.

Decoding a picture costs about half a second of CPU for 40 megapixels, and a deck holds up to
300: far too much for a request (it held the page threads). So the upload request
(:func:`receive`) only checks what is cheap (``decks.Upload``: the archive, the CSV, each
picture's header against DECK_MAX_PIXELS), stores each picture as it came (``CustomCard.raw``)
and queues the cleaning in chunks of :data:`CHUNK` cards, the deck ``cleaning`` meanwhile; its
page follows the progress (cards cleaned of cards) as a book's page follows the printing. One
person may have at most DECK_MAX_QUEUED_PICTURES pictures waiting.

Each chunk (:func:`clean_pictures`) cleans the cards of its positions that still have a raw
picture; a card is taken by one run only (an update on its raw name that only one can make),
so a chunk run again after its worker died (``amnesia_site.workers``) does only what is left.
The last card cleaned makes the deck ``ready``. A picture refused makes the deck ``failed``
with the reason kept as data (put in words in the reader's language by :func:`problem_text`),
and its cards and files are taken away (whichever chunk ends last finds it so and clears
what the others wrote meanwhile).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.db import transaction
from django.tasks import task
from django.utils.translation import gettext as _

from amnesia_site.workers import work
from games import images
from games.amnesia_stories import decks
from games.amnesia_stories.models import CustomCard, CustomDeck

logger = logging.getLogger(__name__)

Status = CustomDeck.Status
# Cards per task: a few seconds of a worker at most, so more workers share a big deck.
CHUNK = 12


def max_queued() -> int:
    """The most pictures one person may have waiting to be cleaned (DECK_MAX_QUEUED_PICTURES)."""
    return int(getattr(settings, "DECK_MAX_QUEUED_PICTURES", 300))


def waiting_pictures(owner) -> int:
    """How many of ``owner``'s pictures wait for a worker."""
    return (
        CustomCard.objects.filter(deck__owner=owner, deck__status=Status.CLEANING)
        .exclude(raw="")
        .count()
    )


def _check_room(owner, new: int) -> None:
    waiting = waiting_pictures(owner)
    if waiting + new > max_queued():
        raise decks.DeckError(
            _(
                "Too many pictures would be waiting to be prepared for you: %(n)s already, "
                "%(new)s in this deck, at most %(max)s at once. Upload it again once your "
                "other decks are ready."
            )
            % {"n": waiting, "new": new, "max": max_queued()}
        )


def receive(owner, name: str, archive_file, csv_file=None) -> CustomDeck:
    """A new deck from an upload, its pictures queued for cleaning; DeckError (and nothing
    written) when the cheap checks or the bound on waiting pictures refuse it."""
    written: list = []
    try:
        with decks.Upload(archive_file, csv_file) as upload:
            _check_room(owner, len(upload.rows))  # before a picture is read
            cards = []
            for position, raw in enumerate(upload.cards()):
                card = CustomCard(
                    card_id=raw.card_id,
                    text=raw.text,
                    position=position,
                    source=raw.source[:255],
                )
                card.raw.save("upload", ContentFile(raw.data), save=False)
                written.append(card.raw)
                cards.append(card)
        with transaction.atomic():
            # One upload at a time per person past this point, so that two at once cannot
            # both pass the bound (a row lock on PostgreSQL; SQLite has one writer anyway).
            get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
            _check_room(owner, len(cards))
            deck = CustomDeck.objects.create(
                owner=owner, name=name.strip()[:120] or _("My deck"), status=Status.CLEANING
            )
            for card in cards:
                card.deck = deck
            CustomCard.objects.bulk_create(cards)
            for start in range(0, len(cards), CHUNK):
                clean_pictures.enqueue(deck.pk, start, start + CHUNK)
    except BaseException:
        for field_file in written:
            field_file.storage.delete(field_file.name)
        raise
    return deck


def progress(deck: CustomDeck) -> tuple[int, int]:
    """(cards cleaned, cards) of a deck."""
    total = deck.cards.count()
    return total - deck.cards.exclude(raw="").count(), total


def problem_text(deck: CustomDeck) -> str:
    """Why the deck could not be prepared, in the reader's language."""
    problem = deck.problem or {}
    return decks.refusal_text(
        str(problem.get("reason", "")),
        str(problem.get("name", "")),
        problem.get("size"),
        problem.get("error", ""),
    )


# -- the task ----------------------------------------------------------------------------
@task(queue_name=work.PICTURES)
def clean_pictures(deck_id: int, start: int, stop: int) -> str:
    """Clean the pictures of the deck's cards at positions ``start`` to ``stop`` (excluded)
    that are still raw. Safe to run twice (see the module)."""
    cards = (
        CustomCard.objects.filter(deck_id=deck_id, position__gte=start, position__lt=stop)
        .exclude(raw="")
        .order_by("position")
    )
    outcome = "cleaned"
    for card in cards:
        work.beat()
        if not CustomDeck.objects.filter(pk=deck_id, status=Status.CLEANING).exists():
            outcome = "stopped"
            break
        work.pause_at(f"deck-{deck_id}-{card.position}")
        if not _clean(card):
            outcome = "failed"
            break
    _settle(deck_id)
    return outcome


def _clean(card: CustomCard) -> bool:
    """Clean one card's picture; False when it is refused (the deck then failed)."""
    raw_name = card.raw.name or ""
    try:
        data = images.stored_bytes(card.raw)
        if not data:
            raise images.ImageRefused("damaged", error="the uploaded file is empty or gone")
        large, thumb = decks.clean_image(data, card.source)
    except decks.DeckError as exc:
        refused = exc.__cause__
        if isinstance(refused, images.ImageRefused):
            _fail(card, refused.reason, refused.size, refused.error)
        else:
            _fail(card, "", None, exc.message)
        return False
    except images.ImageRefused as refused:
        _fail(card, refused.reason, refused.size, refused.error)
        return False
    except Exception as exc:  # the deck must say what happened, whatever it was
        logger.exception("Deck picture %s could not be cleaned", card.pk)
        _fail(card, "", None, exc.__class__.__name__)
        return False
    _fmt, ext, _save = images.web_format()
    card.image.save(f"large.{ext}", ContentFile(large), save=False)
    card.thumb.save(f"thumb.{ext}", ContentFile(thumb), save=False)
    taken = CustomCard.objects.filter(pk=card.pk, raw=raw_name).update(
        image=card.image.name, thumb=card.thumb.name, raw=""
    )
    if taken:
        card.raw.storage.delete(raw_name)
    else:  # another run cleaned it meanwhile, or the deck is gone
        for field_file in (card.image, card.thumb):
            if field_file.name:
                field_file.storage.delete(field_file.name)
    return True


def _fail(card: CustomCard, reason: str, size, error) -> None:
    problem = {
        "reason": reason,
        "name": card.source,
        "size": list(size) if size else None,
        "error": str(error or ""),
    }
    CustomDeck.objects.filter(pk=card.deck_id, status=Status.CLEANING).update(
        status=Status.FAILED, problem=problem
    )


def _settle(deck_id: int) -> None:
    """Ready when no picture is left raw; when failed, its cards and files taken away."""
    if not CustomCard.objects.filter(deck_id=deck_id).exclude(raw="").exists():
        CustomDeck.objects.filter(pk=deck_id, status=Status.CLEANING).update(status=Status.READY)
    if CustomDeck.objects.filter(pk=deck_id, status=Status.FAILED).exists():
        for card in CustomCard.objects.filter(deck_id=deck_id):
            for field_file in (card.image, card.thumb, card.raw):
                if field_file.name:
                    field_file.storage.delete(field_file.name)
            card.delete()
