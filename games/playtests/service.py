"""Playtests on the database side: built-in rulesets, who is a designer, the cached reports,
and the rows the dashboard and the exports are made of.

The figures themselves come from ``games.playtests.reports`` (pure, from the move log); here they are
cached in ``PlaytestReport`` and read back in a fixed number of queries, however many reports
there are.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Prefetch, Q, QuerySet
from django.http import Http404
from django.utils import timezone

from amnesia_site.clients import client_key
from games.aliases import Aliases, aliases_of, everyone_labelled
from games.forms import game_choices
from games.management.commands.demo import DEMO_USER
from games.models import Ruleset, Seat, Table
from games.playtests import reports
from games.playtests.models import (
    DESIGNERS_GROUP,
    FREE_TEXTS,
    RATINGS,
    ExternalReport,
    Impression,
    PlaytestReport,
)
from games.services.kept import Step
from games.snapshot import Snapshot

MAX_PUBLIC_PER_HOUR = 5


# -- who may do what --------------------------------------------------------------------------
def in_designers_group(user) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    cached = getattr(user, "_in_designers_group", None)
    if cached is None:
        cached = user.groups.filter(name=DESIGNERS_GROUP).exists()
        user._in_designers_group = cached
    return cached


def is_designer(user, game: str | None = None) -> bool:
    """A designer: in the "designers" group (or a superuser), or the owner of a ruleset."""
    if in_designers_group(user):
        return True
    if not user.is_authenticated:
        return False
    owned = Ruleset.objects.filter(owner=user)
    if game:
        owned = owned.filter(game=game)
    return owned.exists()


def known_game(game: str) -> str:
    """``game`` when the site has such a game; a 404 otherwise (the dashboard's and the lab's
    addresses alike)."""
    if game not in dict(game_choices()):
        raise Http404("No such game.")
    return game


def can_edit_ruleset(user, ruleset: Ruleset) -> bool:
    if in_designers_group(user):
        return True
    return user.is_authenticated and ruleset.owner_id == user.pk


def _seated(user, table: Table) -> bool:
    # Through the seats as loaded (prefetched on the dashboard): no query per table there.
    return any(seat.user_id == user.pk for seat in table.seats.all())


def shared_with(user, table: Table) -> bool:
    """Whether the table's owner chose to share its report, and this user is one it goes
    to: the owner of the table's ruleset, or the designers group."""
    if not user.is_authenticated or not table.report_shared:
        return False
    if in_designers_group(user):
        return True
    return bool(table.ruleset_id) and table.ruleset.owner_id == user.pk


def can_see_report(user, table: Table) -> bool:
    """The table's owner and its seated users; the ruleset's owner and the designers only
    when the owner shares the report."""
    if not user.is_authenticated:
        return False
    if table.owner_id == user.pk:
        return True
    return shared_with(user, table) or _seated(user, table)


def sees_names(user, table: Table) -> bool:
    """Whether this user sees the players' names in the report (each seat's own label for a
    player who asked to be left out, as everywhere): the table's own people always; those
    it is shared with unless the owner shared it without the names."""
    if table.report_sharing != Table.ReportSharing.LABELS:
        return True
    return user.is_authenticated and (table.owner_id == user.pk or _seated(user, table))


def report_aliases(user, table: Table) -> Aliases:
    """The labels the table's report is read through by this user: the seats' own labels,
    or, in a report shared without the names, a label for every player."""
    if sees_names(user, table):
        return aliases_of(table)
    return everyone_labelled(table)


def scope_tables(user, game: str, with_demo: bool = False) -> QuerySet[Table]:
    """The finished tables whose reports the designer's dashboard shows to this user: their
    own, and those whose owner shares the report with them (``shared_with``). The demo
    account's tables (``manage.py demo`` shares them) are made-up plays, not playtests: left
    out unless the designer asks for them (``with_demo``) or is that account."""
    tables = Table.objects.finished().filter(game=game)
    shared = ~Q(report_sharing=Table.ReportSharing.PRIVATE)
    if in_designers_group(user):
        tables = tables.filter(shared | Q(owner=user))
    else:
        tables = tables.filter((shared & Q(ruleset__owner=user)) | Q(owner=user))
    if with_demo or user.get_username() == DEMO_USER:
        return tables
    return tables.exclude(owner__username=DEMO_USER)


def demo_tables(user, game: str) -> QuerySet[Table]:
    """The demo account's tables the dashboard would count if this user asked for them."""
    if user.get_username() == DEMO_USER:
        return Table.objects.none()
    return scope_tables(user, game, with_demo=True).filter(owner__username=DEMO_USER)


def scope_external(user, game: str) -> QuerySet[ExternalReport]:
    reports = ExternalReport.objects.filter(game=game)
    if in_designers_group(user):
        return reports
    return reports.filter(ruleset__owner=user)


def ruleset_scope(user, game: str) -> QuerySet[Ruleset]:
    rulesets = Ruleset.objects.filter(game=game)
    if in_designers_group(user):
        return rulesets
    return rulesets.filter(Q(owner=user) | Q(builtin=True))


# -- the cached reports -------------------------------------------------------------------------
def _stale(report: PlaytestReport | None, table: Table) -> bool:
    return (
        report is None
        or report.computed_seq != table.last_seq
        or report.computed_version != reports.FIGURES_VERSION
    )


def compute_figures(table: Table) -> dict[str, Any]:
    """The figures of the table's log, a player who asked to be left out under their label
    (the referee replays the renamed script: the same game, with the label for the name)."""
    snap = Snapshot(table)
    aliases = aliases_of(table)
    return reports.figures(aliases.setup(snap.setup), [aliases.move(m) for m in snap.script_moves])


def names_changed(sender, table: Table, **kwargs) -> None:
    """A player is shown as a label now, or by name again: a finished table's figures are
    computed again and kept (in the transaction that renames); others' are marked stale."""
    PlaytestReport.objects.filter(table=table).update(computed_version=0)
    fresh = Table.objects.get(pk=table.pk)
    if fresh.status == Table.Status.FINISHED:
        ensure_report(fresh)


class Figures:
    """A table's playtest figures, kept from the log (``games.services.kept``) for a finished
    table: computed and stored by the write path in the transaction of the move that ends
    the game (or takes its end back). A table in play keeps none: its report's page computes
    them when read and stores nothing (a GET never writes; ``current_report``)."""

    name = "report"
    fields: tuple[str, ...] = ()

    def current(self, table: Table) -> bool:
        return not _stale(_kept_report(table), table)

    def advance(self, locked: Table, step: Step) -> None:
        if step.after.get("finished") or step.before.get("finished"):
            ensure_report(locked)

    def rebuild(self, table: Table) -> dict[str, Any]:
        return compute_figures(table)

    def kept(self, table: Table) -> dict[str, Any] | None:
        report = _kept_report(table)
        return None if report is None else report.figures


FIGURES = Figures()


def shown_impressions(impressions: list[Impression], aliases: Aliases) -> list[Impression]:
    """The impressions as a page shows them: a player left out under their label, in their
    own answers too. Copies, for reading only: the rows keep the seat's name."""
    if not aliases:
        return impressions
    shown = []
    for impression in impressions:
        copy = Impression(
            **{f.attname: getattr(impression, f.attname) for f in Impression._meta.concrete_fields}
        )
        copy.player = aliases.name(impression.player)
        for key, _label in FREE_TEXTS:
            setattr(copy, key, aliases.text(getattr(impression, key)))
        shown.append(copy)
    return shown


def _kept_report(table: Table) -> PlaytestReport | None:
    try:
        report = table.playtest_report
    except PlaytestReport.DoesNotExist:
        return None
    return report if report.pk else None  # not one shown unsaved (``current_report``)


def _with_figures(report: PlaytestReport, table: Table) -> PlaytestReport:
    report.figures = compute_figures(table)
    report.computed_seq = table.last_seq
    report.computed_version = reports.FIGURES_VERSION
    report.computed_at = timezone.now()
    return report


def current_report(table: Table) -> PlaytestReport:
    """The table's report for reading (a GET never writes): as kept when its figures are
    current; else its figures computed now and shown, not stored (``ensure_report`` stores
    them, for a request that writes). A report never kept is an unsaved one, with no
    impressions yet."""
    report = _kept_report(table)
    if not _stale(report, table):
        return report
    if report is None:
        report = PlaytestReport(table=table)
    return _with_figures(report, table)


def impressions_of(report: PlaytestReport) -> list[Impression]:
    """The report's impressions (none for a report not kept yet)."""
    return list(report.impressions.all()) if report.pk else []


def ensure_report(table: Table) -> PlaytestReport:
    """The table's report, kept: its figures recomputed and stored if the log moved on
    since. For requests that write (an impression, a bundle, the command)."""
    report = _kept_report(table)
    if not _stale(report, table):
        return report
    if report is None:
        report, _created = PlaytestReport.objects.get_or_create(table=table)
    _with_figures(report, table)
    report.save(update_fields=["figures", "computed_seq", "computed_version", "computed_at"])
    table.playtest_report = report
    return report


def tables_with_reports(tables: QuerySet[Table]) -> list[Table]:
    """Tables with their seats, ruleset, report and impressions, in a fixed number of queries
    (plus one-off work for any report not current: computed and shown, not stored)."""
    rows = list(
        tables.select_related("ruleset", "playtest_report", "owner").prefetch_related(
            Prefetch("seats", queryset=Seat.objects.order_by("position")),
            Prefetch(
                "playtest_report__impressions", queryset=Impression.objects.order_by("player")
            ),
        )
    )
    for table in rows:
        report = getattr(table, "playtest_report", None)
        if _stale(report, table):
            table.playtest_report = current_report(table)
    return rows


# -- one row per report, for the dashboard and the exports --------------------------------------
def shown_figures(figures: dict[str, Any], table: Table, aliases: Aliases) -> dict[str, Any]:
    """The cached figures as ``aliases`` reads them. The cache already holds the seats' own
    labels, so only a report shared without the names needs a rewrite (the names replaced in
    every string and key, as ``Aliases.data`` does for a script's informational keys)."""
    if not aliases or aliases.labels == aliases_of(table).labels:
        return figures
    return aliases.data(figures)


def table_entry(table: Table, aliases: Aliases | None = None) -> dict[str, Any]:
    """One report as the dashboard and the exports have it, read through ``aliases`` (the
    table's own labels unless given: see ``report_aliases``)."""
    aliases = aliases_of(table) if aliases is None else aliases
    report = table.playtest_report
    fig = shown_figures(report.figures, table, aliases)
    shown = shown_impressions(impressions_of(report), aliases)
    impressions = [_impression_dict(i) for i in shown]
    date = table.finished_at or table.created_at
    return {
        "kind": "table",
        "id": table.pk,
        "game": table.game,
        "name": aliases.text(table.name),
        "ruleset_id": table.ruleset_id,
        "ruleset": table.ruleset.label if table.ruleset_id else "",
        "draft": "",
        "date": timezone.localdate(date).isoformat() if date else "",
        "place": aliases.text(report.place),
        "players": fig.get("players"),
        "participants": fig.get("participants", []),
        "seat_order": fig.get("seat_order", []),
        "duration_seconds": fig.get("duration_seconds"),
        "moves": fig.get("moves"),
        "finished": fig.get("finished"),
        "winners": fig.get("winners", []),
        "scores": fig.get("scores"),
        "margin": fig.get("margin"),
        "outcome": "",
        "figures": fig.get("figures", {}),
        "engine": fig.get("engine", {}),
        "impressions": impressions,
    }


def external_entry(report: ExternalReport) -> dict[str, Any]:
    return {
        "kind": "external",
        "id": report.pk,
        "game": report.game,
        "name": "",
        "ruleset_id": report.ruleset_id,
        "ruleset": report.ruleset.label if report.ruleset_id else "",
        "draft": report.draft,
        "date": report.played_on.isoformat(),
        "place": report.place,
        "players": report.players,
        "participants": [],
        "seat_order": [],
        "duration_seconds": report.duration_minutes * 60,
        "moves": None,
        "finished": True,
        "winners": [],
        "scores": None,
        "margin": None,
        "outcome": report.outcome,
        "figures": {},
        "impressions": [_impression_dict(i) for i in report.impressions.all()],
    }


def _impression_dict(impression: Impression) -> dict[str, Any]:
    return {
        "player": impression.player,
        **{key: getattr(impression, key) for key, _label in RATINGS},
        "best_moment": impression.best_moment,
        "confusing_rule": impression.confusing_rule,
        "change": impression.change,
    }


def entries_for(user, game: str, with_demo: bool = False) -> list[dict[str, Any]]:
    """Every report the user may see for the game: the finished tables (the demo account's
    only ``with_demo``: ``scope_tables``), then the approved external reports. A fixed
    number of queries, however many."""
    scope = scope_tables(user, game, with_demo).order_by("finished_at", "pk")
    tables = tables_with_reports(scope)
    external = (
        scope_external(user, game)
        .approved()
        .select_related("ruleset")
        .prefetch_related("impressions")
        .order_by("played_on", "pk")
    )
    return [table_entry(t, report_aliases(user, t)) for t in tables] + [
        external_entry(r) for r in external
    ]


# -- the public form ------------------------------------------------------------------------------
def expired_public_impressions(days: int, now=None) -> QuerySet[Impression]:
    """The impressions sent through the public form more than ``days`` days ago (those typed
    at a table in the app belong to its report and stay with it)."""
    cutoff = (now or timezone.now()) - timedelta(days=days)
    return Impression.objects.filter(external__isnull=False, external__submitted_at__lt=cutoff)


def client_ip(request) -> str:
    # The address every limit counts by: REMOTE_ADDR, or behind TRUSTED_PROXY_COUNT proxies the
    # entry they wrote in X-Forwarded-For (never one the client wrote).
    return client_key(request)


def ip_hash(ip: str) -> str:
    key = hashlib.sha256(f"playtests-ip:{settings.SECRET_KEY}".encode()).digest()
    return hmac.new(key, ip.encode(), hashlib.sha256).hexdigest()


def too_many_from(ip_digest: str, now=None) -> bool:
    """The rate limit, counted in the database so every app server sees the same number.

    Call it inside the transaction that stores the report: the sender's recent rows are
    locked first, so two of their requests at once are counted one after the other.
    """
    since = (now or timezone.now()) - timedelta(hours=1)
    recent = ExternalReport.objects.filter(ip_hash=ip_digest, submitted_at__gte=since)
    list(recent.select_for_update().values_list("pk", flat=True))
    return recent.count() >= MAX_PUBLIC_PER_HOUR
