"""Playtests: versioned rulesets, the report every finished table gets, players' impressions,
and reports from tables that did not use the app.

A ``Ruleset`` row is one version: editing a ruleset adds the next version and leaves the old
one (and the tables that played it) alone. ``PlaytestReport.figures`` is a droppable cache of
``games.playtests.reports.figures`` over the table's live moves, stamped with the log position it was
computed at, so a stale one is recomputed rather than trusted.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import Ruleset, Seat, Table

DESIGNERS_GROUP = "designers"


class PlaytestReport(models.Model):
    """The automatic report of a finished table (figures cached from the move log)."""

    table = models.OneToOneField(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="playtest_report"
    )
    place = models.CharField(_("place"), max_length=120, blank=True, default="")
    figures = models.JSONField(default=dict, blank=True, editable=False)
    # The table's log position and the computation's version the figures were made from.
    computed_seq = models.PositiveIntegerField(default=0, editable=False)
    computed_version = models.PositiveSmallIntegerField(default=0, editable=False)
    computed_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("playtest report")
        verbose_name_plural = _("playtest reports")
        db_table = "games_playtestreport"

    def __str__(self) -> str:
        return f"Report on {self.table}"


RATINGS = [
    ("fun", _("Fun")),
    ("length", _("Length (5: just right)")),
    ("clarity", _("Clarity of the rules")),
    ("downtime", _("Downtime (5: hardly any waiting)")),
    ("decisions", _("Meaningful decisions")),
    ("again", _("Would play again")),
]
# Column headings where the full question does not fit.
RATING_SHORT = {
    "fun": _("Fun"),
    "length": _("Length"),
    "clarity": _("Clarity"),
    "downtime": _("Downtime"),
    "decisions": _("Decisions"),
    "again": _("Again"),
}
FREE_TEXTS = [
    ("best_moment", _("Best moment")),
    ("confusing_rule", _("A rule that confused you")),
    ("change", _("What you would change")),
]


def _rating(label):
    # Null: a rating the player left out (the public form's ratings are optional; the
    # averages leave it out rather than count it as anything).
    return models.PositiveSmallIntegerField(
        label, null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(5)]
    )


class ExternalReportQuerySet(models.QuerySet):
    def approved(self) -> ExternalReportQuerySet:
        return self.filter(approved=True)

    def pending(self) -> ExternalReportQuerySet:
        return self.filter(approved=False, reviewed_at__isnull=True)

    def consented(self) -> ExternalReportQuerySet:
        """Approved reports whose sender agreed to their publication: the ones a designer
        may choose to publish."""
        return self.approved().exclude(publish_consent=ExternalReport.Consent.NO)

    def public(self) -> ExternalReportQuerySet:
        """What the game's public page shows: published, and (whatever ``published`` says)
        only with the sender's consent."""
        return self.consented().filter(published=True)


class ExternalReport(models.Model):
    """A playtest reported through the public form by a table that did not use the app."""

    class Consent(models.TextChoices):
        NO = "no", _("No, only the designers may read it")
        WITHOUT_NAMES = "anonymous", _("Yes, without the players’ names")
        WITH_NAMES = "names", _("Yes, with the players’ names as written here")

    game = models.CharField(_("game"), max_length=32)
    ruleset = models.ForeignKey(
        Ruleset,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="external_reports",
        verbose_name=_("draft"),
    )
    draft = models.CharField(_("draft (if not in the list)"), max_length=120, blank=True)
    played_on = models.DateField(_("date played"))
    place = models.CharField(_("place"), max_length=120, blank=True, default="")
    players = models.PositiveSmallIntegerField(
        _("number of players"), validators=[MinValueValidator(1), MaxValueValidator(20)]
    )
    duration_minutes = models.PositiveIntegerField(
        _("duration in minutes"), validators=[MinValueValidator(1), MaxValueValidator(24 * 60)]
    )
    outcome = models.TextField(_("outcome"), blank=True, default="", max_length=2000)
    submitted_at = models.DateTimeField(_("submitted"), auto_now_add=True, db_index=True)
    approved = models.BooleanField(_("approved"), default=False)
    reviewed_at = models.DateTimeField(_("reviewed"), null=True, blank=True)
    # The sender's answer to "may this report be published?" (no unless they said so), and
    # the designer's choice among the reports that may be (the constraint below keeps an
    # unconsented report off the public page whatever a view or the admin does).
    publish_consent = models.CharField(
        _("May the designers publish this report on the game’s public page?"),
        max_length=10,
        choices=Consent.choices,
        default=Consent.NO,
    )
    published = models.BooleanField(_("published"), default=False)
    # A keyed hash of the sender's address: enough to rate-limit, not enough to find them.
    ip_hash = models.CharField(max_length=64, db_index=True, editable=False)

    objects = ExternalReportQuerySet.as_manager()

    class Meta:
        verbose_name = _("external playtest report")
        verbose_name_plural = _("external playtest reports")
        db_table = "games_externalreport"
        ordering = ["-submitted_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(published=False) | ~Q(publish_consent="no"),
                name="external_published_only_with_consent",
                violation_error_message=_(
                    "Only a report whose sender agreed to its publication can be published."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"External report {self.pk} ({self.game})"


class Impression(models.Model):
    """One player's answers about one game: six ratings and three free texts."""

    report = models.ForeignKey(
        PlaytestReport,
        verbose_name=_("report"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="impressions",
    )
    external = models.ForeignKey(
        ExternalReport,
        verbose_name=_("external"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="impressions",
    )
    seat = models.ForeignKey(
        Seat, verbose_name=_("seat"), null=True, blank=True, on_delete=models.SET_NULL
    )
    player = models.CharField(_("player"), max_length=60)
    fun = _rating(_("Fun"))
    length = _rating(_("Length"))
    clarity = _rating(_("Clarity of the rules"))
    downtime = _rating(_("Downtime"))
    decisions = _rating(_("Meaningful decisions"))
    again = _rating(_("Would play again"))
    best_moment = models.TextField(_("Best moment"), blank=True, default="", max_length=2000)
    confusing_rule = models.TextField(
        _("A rule that confused you"), blank=True, default="", max_length=2000
    )
    change = models.TextField(_("What you would change"), blank=True, default="", max_length=2000)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("impression")
        verbose_name_plural = _("impressions")
        db_table = "games_impression"
        ordering = ["player"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(report__isnull=False, external__isnull=True)
                    | Q(report__isnull=True, external__isnull=False)
                ),
                name="impression_one_report",
            ),
            models.UniqueConstraint(
                fields=["report", "player"],
                condition=Q(report__isnull=False),
                name="impression_once_per_player",
            ),
            models.UniqueConstraint(
                fields=["external", "player"],
                condition=Q(external__isnull=False),
                name="external_impression_once_per_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}'s impression"

    def ratings(self) -> dict[str, int]:
        return {key: getattr(self, key) for key, _label in RATINGS}


class SimulationRun(models.Model):
    """A designer's simulated run of a ruleset (the lab, ``games.playtests.lab_start``): bots play
    ``games_asked`` games on the ``long`` queue, split into chunks (``SimulationChunk``) that
    any worker takes; the figures are merged from the chunks' games. A sweep is a run whose
    ``sweep`` names one option or parameter and its values: its children are ordinary runs,
    one per value."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        PARTIAL = "partial", _("Partial")
        CANCELLED = "cancelled", _("Cancelled")
        FAILED = "failed", _("Failed")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="simulation_runs"
    )
    shared_with = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="shared_simulation_runs"
    )
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="children"
    )
    game = models.CharField(max_length=32)
    ruleset = models.ForeignKey(Ruleset, null=True, blank=True, on_delete=models.SET_NULL)
    # "Name@version" as it was when the run started (the row may be deleted later).
    ruleset_label = models.CharField(max_length=200, blank=True, default="")
    players = models.PositiveSmallIntegerField()
    games_asked = models.PositiveIntegerField()
    bots = models.JSONField(default=list)
    params = models.JSONField(default=dict, blank=True)
    # The options played (the ruleset's, with the run's own changes applied) and the changes.
    options = models.JSONField(default=dict, blank=True)
    changed = models.JSONField(default=dict, blank=True)
    # {"kind": "option"|"param", "name": ..., "values": [...]} for a sweep, else empty.
    sweep = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField(default=1)
    chunk_games = models.PositiveIntegerField(default=50)
    budget_seconds = models.PositiveIntegerField(default=600)
    app_version = models.CharField(max_length=40, blank=True, default="")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.QUEUED)
    games_done = models.PositiveIntegerField(default=0)
    figures = models.JSONField(default=dict, blank=True)
    findings = models.JSONField(default=list, blank=True)
    error = models.TextField(blank=True, default="")
    cancel_requested = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.ruleset_label or self.game} × {self.games_asked} (#{self.pk})"

    @property
    def shown_status(self) -> str:
        """The status in words, agreeing with what the row is: a study's its own (in
        Portuguese a run is a "simulação" and a study an "estudo": "Concluída", "Concluído")."""
        if self.sweep.get("kind") == "study":
            return str(STUDY_STATUS.get(self.status, self.get_status_display()))
        return str(self.get_status_display())

    @property
    def chunk_count(self) -> int:
        return -(-self.games_asked // self.chunk_games) if not self.sweep else 0

    @property
    def active(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)


# A study's status, said of a study (the statuses above are said of a run): each language's
# words agree with its own noun for a study.
STUDY_STATUS: dict[str, object] = {
    SimulationRun.Status.QUEUED: pgettext_lazy("a study's status", "Queued"),
    SimulationRun.Status.RUNNING: pgettext_lazy("a study's status", "Running"),
    SimulationRun.Status.DONE: pgettext_lazy("a study's status", "Done"),
    SimulationRun.Status.PARTIAL: pgettext_lazy("a study's status", "Partial"),
    SimulationRun.Status.CANCELLED: pgettext_lazy("a study's status", "Cancelled"),
    SimulationRun.Status.FAILED: pgettext_lazy("a study's status", "Failed"),
}


class SimulationChunk(models.Model):
    """One chunk of a run: its games' records, stored once (the index is unique per run, so a
    chunk played twice, by two workers or after a lost one, is kept once)."""

    run = models.ForeignKey(SimulationRun, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    records = models.JSONField(default=list)
    worker = models.CharField(max_length=64, blank=True, default="")
    seconds = models.FloatField(default=0)
    # Seconds the chunk waited for the tables in play (the run yields to them).
    yielded_seconds = models.FloatField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["run", "index"]
        constraints = [
            models.UniqueConstraint(fields=["run", "index"], name="simulation_chunk_once")
        ]

    def __str__(self) -> str:
        return f"run {self.run_id}, chunk {self.index}"
