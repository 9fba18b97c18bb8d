"""Custom decks of area cards (their tables keep the names they had in the games app)."""

from __future__ import annotations

import uuid
from pathlib import PurePath

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def card_picture_path(card: CustomCard, filename: str) -> str:
    """A random name: a deck's pictures are never found by guessing a deck's id or a date.
    They are served only through views that check who may see them (``games.uploads``)."""
    return f"decks/{uuid.uuid4().hex}{PurePath(filename).suffix.lower() or '.webp'}"


def raw_picture_path(card: CustomCard, filename: str) -> str:
    """An uploaded picture as it came, until a worker has cleaned it: a random name with no
    picture's extension, so nothing would ever serve it (``games.uploads.SERVED_TYPES``)."""
    return f"decks/raw/{uuid.uuid4().hex}.upload"


class CustomDeck(models.Model):
    """A designer's own deck of area cards for Amnesia Stories (uploaded as ZIP + CSV).

    Its pictures are cleaned by a worker after the upload (``deck_queue``): until then it is
    ``cleaning`` and no table may play with it; a picture the worker refuses makes it
    ``failed``, ``problem`` saying which and why (put in words in the reader's language)."""

    class Status(models.TextChoices):
        CLEANING = "cleaning", _("Pictures being prepared")
        READY = "ready", _("Ready")
        FAILED = "failed", _("Could not be prepared")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        on_delete=models.CASCADE,
        related_name="custom_decks",
    )
    name = models.CharField(_("name"), max_length=120)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.READY
    )
    # Why a picture was refused by the worker: reason, name, size, error (deck_queue.problem_text).
    problem = models.JSONField(_("problem"), default=dict, blank=True)

    class Meta:
        verbose_name = _("custom deck")
        verbose_name_plural = _("custom decks")
        db_table = "games_customdeck"
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class CustomCard(models.Model):
    deck = models.ForeignKey(
        CustomDeck, verbose_name=_("deck"), on_delete=models.CASCADE, related_name="cards"
    )
    card_id = models.CharField(_("card id"), max_length=40)
    text = models.TextField(_("adventure text"), blank=True, default="")
    image = models.ImageField(_("image"), upload_to=card_picture_path)
    thumb = models.ImageField(_("thumbnail"), upload_to=card_picture_path)
    position = models.PositiveIntegerField(_("position"), default=0)
    # The uploaded picture until a worker has cleaned it into image and thumb (then emptied),
    # and its name in the archive (for the sentence that says what was wrong with it).
    raw = models.FileField(_("uploaded picture"), upload_to=raw_picture_path, blank=True)
    source = models.CharField(_("file in the archive"), max_length=255, blank=True, default="")

    class Meta:
        verbose_name = _("custom card")
        verbose_name_plural = _("custom cards")
        db_table = "games_customcard"
        ordering = ["deck", "position"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "card_id"], name="custom_card_id_unique"),
        ]

    def __str__(self) -> str:
        return self.card_id


class RevealProgress(models.Model):
    """How many steps of a judged turn's reveal the table has opened.

    Table state beside the log, not a move: opening a step changes what the room is shown,
    never the game, so it is not undone, exported or replayed. ``judged`` is a fingerprint of
    the judged turn (its story and picks): when an undo takes the judging back and the turn is
    judged again differently, the old count no longer applies. Written only through
    ``games.amnesia_stories.reveal.open_step``.
    """

    table = models.ForeignKey(
        "games.Table",
        verbose_name=_("table"),
        on_delete=models.CASCADE,
        related_name="stories_reveals",
    )
    turn = models.PositiveIntegerField(_("turn"))
    judged = models.CharField(_("judged turn"), max_length=64)
    opened = models.PositiveSmallIntegerField(_("steps opened"), default=0)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("reveal progress")
        verbose_name_plural = _("reveal progress")
        constraints = [
            models.UniqueConstraint(fields=["table", "turn"], name="reveal_progress_per_turn"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} turn {self.turn}: {self.opened}"


class AnswerTimer(models.Model):
    """A table's answer timer: its length, and when the game master last started it again.

    Table state kept on the server, not a move of the log (the rules never read a clock): a
    turn's timer runs from the bard's ``tell`` (its time as the server stored it) unless it was
    started again during that turn, so every screen shows the same time left
    (``games.amnesia_stories.timer``).
    """

    table = models.OneToOneField(
        "games.Table",
        verbose_name=_("table"),
        on_delete=models.CASCADE,
        related_name="answer_timer",
    )
    # 0: no timer at this table.
    seconds = models.PositiveSmallIntegerField(_("seconds to answer"), default=60)
    restarted_turn = models.PositiveIntegerField(_("restarted turn"), null=True, blank=True)
    restarted_at = models.DateTimeField(_("restarted"), null=True, blank=True)

    class Meta:
        verbose_name = _("answer timer")
        verbose_name_plural = _("answer timers")

    def __str__(self) -> str:
        return f"{self.table_id}: {self.seconds}s"
