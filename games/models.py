"""Tables, seats and the append-only move log.

The move log is the only truth: ``Table.state`` is a cache of the referee's replay of the
log, droppable at any time (``reading.rebuild_state`` proves it rebuilds the same).
"""

from __future__ import annotations

import secrets
import uuid
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _

from games import registry
from games.fields import ExactJSONField


def new_seed() -> int:
    # Below 2**53 so the seed survives any JSON consumer (JavaScript included) exactly.
    return secrets.randbelow(2**53)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def link_mark(token: str) -> str:
    """A short mark of a seat's current link, for the address of its QR code: browsers keep
    the code for an hour, and a re-issued link must not show the old one. A hash, so that the
    code's address never carries the secret itself. Kept per token and key (a contest page
    draws one per seat on every render)."""
    return _link_mark(token, settings.SECRET_KEY)


@lru_cache(maxsize=1024)
def _link_mark(token: str, secret: str) -> str:
    mark = salted_hmac("games.models.link_mark", token, secret=secret, algorithm="sha256")
    return mark.hexdigest()[:10]


class TableQuerySet(models.QuerySet):
    def owned_by(self, user) -> TableQuerySet:
        if not user.is_authenticated:
            return self.none()
        return self.filter(owner=user)

    def active(self) -> TableQuerySet:
        return self.filter(status=Table.Status.ACTIVE)

    def finished(self) -> TableQuerySet:
        return self.filter(status=Table.Status.FINISHED)


class Table(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")

    class DeckMode(models.TextChoices):
        VIRTUAL = "virtual", _("Virtual deck (the app draws)")
        PHYSICAL = "physical", _("Physical deck (you enter each card)")

    class ReportSharing(models.TextChoices):
        PRIVATE = "private", _("Don’t share it: only you and the players see the report")
        LABELS = "labels", _("Share it, with the players shown as “Player 1”, “Player 2”…")
        NAMES = "names", _("Share it, with the players’ names")

    name = models.CharField(_("name"), max_length=120)
    game = models.CharField(_("game"), max_length=32)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        on_delete=models.CASCADE,
        related_name="tables",
    )
    options = models.JSONField(_("options"), default=dict, blank=True)
    seed = models.BigIntegerField(_("seed"), default=new_seed)
    deck_mode = models.CharField(
        _("deck mode"), max_length=16, choices=DeckMode.choices, default=DeckMode.VIRTUAL
    )
    # The language of the screens the whole table looks at (projector, seat pages, passing the
    # laptop) and the default of its story's (games.languages).
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text=_("The projector, the seat pages and the story speak it, whoever reads them."),
    )
    deck = models.JSONField(_("stacked deck"), null=True, blank=True)
    extra = models.JSONField(_("extra set-up"), default=dict, blank=True)
    start_player = models.CharField(_("start player"), max_length=60)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.ACTIVE
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # The number of rows in the move log (moves and undos); the next row gets last_seq + 1.
    last_seq = models.PositiveIntegerField(_("moves logged"), default=0)
    # One more with every change people watching the table must see (a move, an undo, and
    # whatever else calls writing.bump_version): the pages' polls compare against it. Kept
    # from the log (games.services.kept.Version): one per row of the log plus ``bumps``, the
    # changes outside it.
    version = models.PositiveBigIntegerField(default=0, editable=False)
    bumps = models.PositiveBigIntegerField(default=0, editable=False)
    # A droppable cache of the referee's state after the log up to state_seq.
    state = ExactJSONField(null=True, blank=True, editable=False)
    state_seq = models.PositiveIntegerField(default=0, editable=False)
    # Where the kept story so far (StoryEntry rows, games.story) stands: the narrator's cursor,
    # the count of live moves and entries, and the last live move, as of the log's row
    # story_seq. Droppable like ``state``: null (or behind last_seq) means "tell it again".
    story_cursor = ExactJSONField(null=True, blank=True, editable=False)
    story_seq = models.PositiveIntegerField(default=0, editable=False)
    # The narration being typed for the current scene; not game state, just a draft.
    draft = models.TextField(_("narration draft"), blank=True, default="")
    # The ruleset version this table plays (null: options of its own, or made before rulesets).
    ruleset = models.ForeignKey(
        "games.Ruleset",
        verbose_name=_("ruleset"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tables",
    )
    # Whether the playtest report goes to the ruleset's owner and the designers group: the
    # owner's choice, off unless asked for ("labels" leaves the players' names out of it).
    report_sharing = models.CharField(
        _("Share the playtest report with the game’s designers?"),
        max_length=8,
        choices=ReportSharing.choices,
        default=ReportSharing.PRIVATE,
        help_text=_(
            "When the game ends, the app writes a playtest report: who played, for how long, "
            "the game’s figures and the players’ impressions (never the narration). Shared, "
            "it goes to the owner of the table’s ruleset and to the site’s designers group; "
            "not shared, only you and the players seated with an account see it. You can "
            "change this later from the table’s page."
        ),
    )
    # The table's name across sites: a bundle (stories.bundles) made on one laptop and imported
    # into another site is matched by it, so importing the same bundle twice adds nothing.
    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)

    objects = TableQuerySet.as_manager()

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_game_display()})"

    def get_absolute_url(self) -> str:
        return reverse("games:table", args=[self.pk])

    def get_game_display(self) -> str:
        # ``game`` has no choices (a new game needs no migration): the registry has the title.
        return str(registry.title(self.game))

    @property
    def report_shared(self) -> bool:
        return self.report_sharing != self.ReportSharing.PRIVATE

    @property
    def players(self) -> list[str]:
        return [seat.name for seat in self.seats.all()]


class Seat(models.Model):
    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="seats"
    )
    position = models.PositiveSmallIntegerField(_("position"))
    name = models.CharField(_("name"), max_length=60)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
    )
    # The secret of the seat's private page (an unguessable link).
    token = models.CharField(max_length=64, default=new_token, unique=True, editable=False)
    # The neutral label ("Player 2") a player who asked to be left out is shown as in the
    # table's stories, exports and reports; the name stays the log's truth (games.aliases).
    alias = models.CharField(_("shown as"), max_length=60, blank=True, default="")

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["table", "name"], name="seat_name_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class Move(models.Model):
    """One row of a table's append-only log: a move, or the undo of the last live move."""

    class Kind(models.TextChoices):
        MOVE = "move", _("Move")
        UNDO = "undo", _("Undo")

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="moves"
    )
    seq = models.PositiveIntegerField(_("number"))
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.MOVE)
    # What the referee reads: {"by": ..., "do": ..., fields...}, without text and time.
    payload = models.JSONField(_("move"), default=dict)
    text = models.TextField(_("text"), blank=True, default="")
    at = models.DateTimeField(_("played at"))
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
    )
    # For an undo: the seq of the move it took back.
    undoes = models.PositiveIntegerField(_("undoes move"), null=True, blank=True)
    # The id the client gave the move (a page makes one per submission; up to 64 characters,
    # and "/2", "/3"... on the next rows of a batch): a resend of the same id is answered with
    # this row, never stored again (``writing.play_many``). Null, not "", for a move without one:
    # the unique constraint below lets any number of nulls through.
    client_id = models.CharField(  # noqa: DJ001
        max_length=80, null=True, blank=True, editable=False
    )

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="move_seq_unique"),
            models.UniqueConstraint(fields=["table", "client_id"], name="move_client_id_unique"),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.UNDO:
            return f"#{self.seq} undo #{self.undoes}"
        return f"#{self.seq} {self.payload.get('by')} {self.payload.get('do')}"

    def as_script_move(self) -> dict:
        move = dict(self.payload)
        if self.text:
            move["text"] = self.text
        move["at"] = self.at.isoformat()
        return move


class StoryEntry(models.Model):
    """One entry of a table's story so far (a scene, a story, an event), as the game's
    narrator tells it: data (a kind and its parameters, the moves' own text), never a
    rendered sentence, so every reader sees it in their own language. A cache kept by the
    write path (``games.story``), dropped and told again from the log whenever in doubt."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="story_entries")
    position = models.PositiveIntegerField()
    # The entry's kind (its "kind" or "type"), for the few readers that look one up.
    kind = models.CharField(max_length=32, blank=True, default="")
    # The row of the log that told it first, and when that move was made.
    seq = models.PositiveIntegerField()
    at = models.DateTimeField()
    data = ExactJSONField()

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="story_entry_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} #{self.position} {self.kind}"


class RulesetQuerySet(models.QuerySet):
    def for_game(self, game: str) -> RulesetQuerySet:
        return self.filter(game=game)


class Ruleset(models.Model):
    """One version of a named set of rule options (a draft of a game)."""

    game = models.CharField(_("game"), max_length=32)
    name = models.CharField(_("name"), max_length=120)
    version = models.PositiveIntegerField(_("version"), default=1)
    options = models.JSONField(_("options"), default=dict)
    changelog = models.TextField(_("changelog"), blank=True, default="")
    # Null for the built-in rulesets; otherwise the designer who made this version.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rulesets",
    )
    # The designer who owns the named ruleset (set on version 1, carried to later versions).
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="owned_rulesets",
    )
    builtin = models.BooleanField(default=False, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    objects = RulesetQuerySet.as_manager()

    class Meta:
        verbose_name = _("ruleset")
        verbose_name_plural = _("rulesets")
        ordering = ["game", "name", "-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "name", "version"], name="ruleset_version_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.shown_name} v{self.version}"

    def get_game_display(self) -> str:
        return str(registry.title(self.game))

    def _builtin_spec(self) -> dict[str, Any]:
        """The game's own record of a built-in ruleset (its name and changelog in every
        language), found by its stable key, the stored (name, version); {} for one a
        designer made, whose words are shown as typed."""
        if not self.builtin or not registry.is_game(self.game):
            return {}
        for spec in registry.kit(self.game).rulesets:
            if spec["name"] == self.name and spec.get("version", 1) == self.version:
                return spec
        return {}

    @property
    def shown_name(self) -> str:
        return str(self._builtin_spec().get("label") or self.name)

    @property
    def shown_changelog(self) -> str:
        return str(self._builtin_spec().get("changelog_label") or self.changelog)

    @property
    def label(self) -> str:
        return f"{self.shown_name} · v{self.version}"

    @property
    def option_words(self) -> list[dict[str, Any]]:
        """The options this version sets, each as the new-table form names it, its value in
        the game's words (``refuse the pass``, never ``pass_at_cap=refuse``)."""
        if not registry.is_game(self.game):
            return [{"label": k, "value": v} for k, v in self.options.items()]
        kit = registry.kit(self.game)
        known = kit.referee.options
        return [
            {
                "label": kit.option_labels.get(key, known[key].help if key in known else key),
                "value": kit.value_label(key, value),
            }
            for key, value in self.options.items()
        ]
