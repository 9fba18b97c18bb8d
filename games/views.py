"""Thin views: parse the request, call the service, render.

htmx requests get the ``panel`` partial of the table page, other requests the full page
(after a POST, a redirect), so every action also works as a plain form post.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe
from django_htmx.http import HttpResponseClientRedirect

from amnesia_site.accounts.views import demo_user
from amnesia_site.htmx import AuthenticatedHttpRequest, HtmxHttpRequest
from amnesia_site.numbers import whole_number
from amnesia_site.throttle import SEAT_LINKS, guards_secret
from games import aliases, exports, presenters, registry, uploads
from games.answers import answer_move, render_table, table_page, write_url
from games.components import (
    DEFAULT_SIZE,
    PAGE_SIZES,
    ComponentsError,
    cached_pdf,
    language_code,
    print_request,
)
from games.facing import Facing
from games.forms import NewTableForm, game_choices, parse_expected_seq, posted_move
from games.languages import use_seat_language
from games.messages import referee_message
from games.models import Seat, Table, new_seed
from games.prepared import Prepared
from games.rules import BadScript, IllegalMove
from games.rules.script import load_json
from games.services import new_tables, table_writes, writing
from games.snapshot import Snapshot
from games.start import KEY as START_DRAW_KEY


def _my_tables(request) -> QuerySet[Table]:
    """The tables the user may run, each loaded with every game's ``table_related``."""
    return Table.objects.owned_by(request.user).select_related(*registry.table_related())


# The table page's every fetch (a laptop, a projector) reads its table: compiled once
# (games.prepared), the same read as ``_my_tables(request).get(pk=pk)``.
_MY_TABLE = Prepared(
    lambda owner, pk: (
        Table.objects.filter(owner=owner, pk=pk)
        .select_related(*registry.table_related())
        .order_by()
    ),
    9_100_000_000_000_000_001,
    9_100_000_000_000_000_002,
)


def _my_table(request, pk: int) -> Table:
    """The table, if the user may run it; 404 for anyone else (no hint that it exists)."""
    if not request.user.is_authenticated:  # ``owned_by``: no table
        raise Http404("No such table.")
    tables = _MY_TABLE.all(request.user.pk, pk)
    if not tables:
        raise Http404("No such table.")
    return tables[0]


def home(request: HtmxHttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(
            request,
            "games/welcome.html",
            {"kits": registry.kits(), "demo": demo_user() is not None},
        )
    # The kept story so far is no part of a list (games.story).
    tables = Table.objects.owned_by(request.user).prefetch_related("seats").defer("story_cursor")
    return render(
        request,
        "games/table_list.html",
        {
            "active": tables.active(),
            "finished": tables.finished(),
            "games": game_choices(),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def table_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    # No game asked for: the first one registered (settings' INSTALLED_APPS order).
    game = request.POST.get("game") or request.GET.get("game") or registry.choices()[0][0]
    if not registry.is_game(game):
        raise Http404("No such game.")
    form = NewTableForm(
        request.POST or None,
        game=game,
        user=request.user,
        preset=request.GET.get("preset"),
        ruleset=request.GET.get("ruleset"),
    )
    if request.method == "POST" and form.is_valid():
        # The seed is chosen here so a start-player draw can come from it (games.start).
        seed = new_seed()
        start, start_draw = form.start_setup(seed)
        extra = form.extra_setup()
        if start_draw is not None:
            extra[START_DRAW_KEY] = start_draw
        try:
            # A table left unnamed is named in its own language (its pages and book speak it).
            with transaction.atomic(), translation.override(form.table_language()):
                table = new_tables.create_table(
                    request.user,
                    game,
                    form.cleaned_data["players"],
                    name=form.cleaned_data["name"],
                    start=start,
                    options=form.options(),
                    deck_mode=form.cleaned_data["deck_mode"],
                    seed=seed,
                    extra=extra,
                )
                form.after_create(table, request.user)
        except (BadScript, IllegalMove) as exc:
            form.add_error(None, referee_message(exc))
        else:
            return redirect(table)
    return render(
        request,
        "games/table_new.html",
        {"form": form, "game": game, "games": game_choices()},
        status=400 if request.method == "POST" else 200,
    )


@login_required
@never_cache  # Back and Forward show the table as it is now, never a copy of an older move
def table_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return render_table(request, _my_table(request, pk))


@login_required
@write_url(table_page)
def table_move(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    # The write path's locking read is the request's one read of the row: it takes it from
    # the tables this user may run (none: 404), and the move is read once the row says which
    # game it is (a form's fields are parsed as the game declares them). ``table`` gets the
    # row as written (services.writing.refresh), and the answer is drawn from it.
    table = Table(pk=pk)

    def play():
        try:
            return writing.play_sent(
                table,
                lambda referee: posted_move(request, referee),
                request.user,
                rows=_my_tables(request),
            )
        except Table.DoesNotExist:
            raise Http404("No such table.") from None

    return answer_move(request, table, play)


@login_required
@write_url(table_page)
def table_undo(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    table = _my_table(request, pk)

    def undone():
        messages.info(request, _("The last move was undone."))
        return redirect(table)

    expected = parse_expected_seq(request.POST)
    client_id = request.POST.get("client_id")
    return answer_move(
        request,
        table,
        lambda: writing.undo(table, expected, request.user, client_id=client_id),
        then=undone,
    )


@login_required
@write_url(table_page)
def table_draft(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Autosave of the narration being typed (so a reload or a lost connection keeps it)."""
    table = _my_table(request, pk)
    raw_seq = request.POST.get("seq", "")
    seen = whole_number(raw_seq, low=0)
    try:
        kept = table_writes.save_draft(table, request.POST.get("text", ""), seen)
    except IllegalMove as exc:
        return HttpResponseBadRequest(referee_message(exc))
    # 409: a narrated move overtook this save; the page that sent it is out of date.
    return HttpResponse(status=204 if kept else 409)


@login_required
def table_export(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    table = _my_table(request, pk)
    response = HttpResponse(
        json.dumps(exports.export_script(table), ensure_ascii=False, indent=2),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="table-{table.pk}.json"'
    return response


@login_required
def table_narrative(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The story so far as data: scenes, memories, suggestions, challenges, in order."""
    table = _my_table(request, pk)
    entries = aliases.aliases_of(table).data(Snapshot(table).narrative())
    return JsonResponse(
        {"table": table.pk, "game": table.game, "entries": entries},
        json_dumps_params={"ensure_ascii": False},
    )


@login_required
@require_safe
def table_story(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The story so far before an entry (``?before=N``): the table page shows the last scenes
    and links here for the earlier ones. htmx puts them in place above the ones shown; a
    plain link gets a page of its own."""
    table = _my_table(request, pk)
    kit = registry.kit(table.game)
    if kit.story_part is None:
        raise Http404("This game has no story so far to page through.")
    raw = request.GET.get("before", "")
    before = whole_number(raw)
    if raw and before is None:
        return HttpResponseBadRequest(_("Which scenes? The address does not say."))
    before = None if before is None else max(0, before)
    snap = Snapshot(table)
    # No place asked for: the last scenes, as the table page shows them.
    part = snap.story_tail if before is None else snap.story_before(before)
    context = {
        "table": table,
        "story_template": kit.story_template,
        "story_earlier": presenters.story_earlier_url(table, part),
        **kit.story_part(Facing.owner(snap), part.entries),
    }
    template = "games/table_story.html"
    if request.htmx:
        template += "#earlier"
    return render(request, template, context)


@login_required
@require_http_methods(["GET", "POST"])
def table_import(request: AuthenticatedHttpRequest) -> HttpResponse:
    error = ""
    if request.method == "POST":
        upload = request.FILES.get("script")
        raw = upload.read(2_000_000) if upload else request.POST.get("script_text", "").encode()
        try:
            script = load_json(raw)
        except BadScript as exc:
            script = None
            error = _("That file is not a JSON game script: %(msg)s") % {
                "msg": referee_message(exc)
            }
    if request.method == "POST" and not error:
        try:
            imported = exports.import_script(script, request.user)
        except BadScript as exc:
            error = _("The script is malformed: %(msg)s") % {"msg": referee_message(exc)}
        except IllegalMove as exc:
            error = _("The script has an illegal move: %(msg)s") % {"msg": referee_message(exc)}
        else:
            table = imported.table
            if imported.left_out:
                messages.warning(
                    request,
                    ngettext(
                        "The script left out %(n)s secret answer of a turn not judged yet; "
                        "it was not restored: that player answers again.",
                        "The script left out %(n)s secret answers of a turn not judged yet; "
                        "they were not restored: those players answer again.",
                        imported.left_out,
                    )
                    % {"n": imported.left_out},
                )
            if request.htmx:
                return HttpResponseClientRedirect(table.get_absolute_url())
            return redirect(table)
    return render(
        request, "games/table_import.html", {"error": error}, status=400 if error else 200
    )


@login_required
@require_safe
def table_picture(
    request: AuthenticatedHttpRequest, pk: int, picture: int, size: str
) -> HttpResponse:
    """One of the table's own uploaded pictures (a custom deck's card), for its owner's pages."""
    table = _my_table(request, pk)
    return uploads.serve(request, registry.picture(table, picture, size))


@require_safe
@guards_secret(SEAT_LINKS, "token")
def seat_picture(request: HtmxHttpRequest, token: str, picture: int, size: str) -> HttpResponse:
    """The same pictures for whoever holds one of the table's seat links (the token is the
    credential, as on the seat's own page)."""
    seat = get_object_or_404(Seat.objects.select_related("table"), token=token)
    return uploads.serve(request, registry.picture(seat.table, picture, size))


@login_required
@require_http_methods(["GET", "POST"])
def table_names(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The owner replaces the name of a player who asked to be left out by a label."""
    table = _my_table(request, pk)
    error = ""
    if request.method == "POST":
        position = whole_number(request.POST.get("position"), low=0)
        if position is None:
            return HttpResponse(status=400)
        try:
            if request.POST.get("action") == "restore":
                seat = aliases.clear_alias(table, position)
                messages.success(
                    request, _("%(name)s is shown by name again.") % {"name": seat.name}
                )
            else:
                seat = aliases.set_alias(table, position, request.POST.get("label", ""))
                messages.success(
                    request,
                    _("%(name)s is now shown as “%(label)s”.")
                    % {"name": seat.name, "label": seat.alias},
                )
        except Seat.DoesNotExist as exc:
            raise Http404("No such seat.") from exc
        except ValidationError as exc:
            error = exc.messages[0]
        else:
            return redirect("games:names", pk=table.pk)
    seats = list(table.seats.all())
    return render(
        request,
        "games/table_names.html",
        {
            "table": table,
            "seats": [{"seat": s, "label": aliases.free_label(s, seats)} for s in seats],
            "error": error,
        },
        status=400 if error else 200,
    )


def _rules(request, game: str, table: Table | None = None, seat: Seat | None = None):
    """A game's rules: its defaults, or, opened from a table or a seat, that table's own
    options and players (the numbers in the text are the table's)."""
    kit = registry.kit(game)
    known = kit.referee.options
    defaults = {name: option.default for name, option in known.items()}
    options = {**defaults, **((table.options or {}) if table is not None else {})}
    rows = [
        {
            "name": name,
            "label": kit.option_labels.get(name, known[name].help or name),
            # a switch is yes/no in the template; a choice in the game's words
            "value": options[name]
            if isinstance(defaults[name], bool)
            else kit.value_label(name, options[name]),
            "default": defaults[name]
            if isinstance(defaults[name], bool)
            else kit.value_label(name, defaults[name]),
            "is_bool": isinstance(defaults[name], bool),
            "changed": options[name] != defaults[name],
        }
        for name in defaults
    ]
    return render(
        request,
        kit.rules_template,
        {
            "game": game,
            "kit": kit,
            "credit": kit.credit.line(),
            "table": table,
            "seat": seat,
            "opt": options,
            "option_rows": rows,
            "players": table.players if table is not None else [],
            "components": kit.components is not None,
            "page_sizes": PAGE_SIZES,
        },
    )


@require_safe
def rules_page(request: HtmxHttpRequest, game: str) -> HttpResponse:
    """The rules with the game's defaults: public, so anyone can read them before signing up."""
    if not registry.is_game(game):
        raise Http404("No such game.")
    return _rules(request, game)


@login_required
@require_safe
def table_rules(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The rules as this table plays them, for whoever may see the table."""
    table = _my_table(request, pk)
    if not registry.is_game(table.game):
        raise Http404("No such game.")
    return _rules(request, table.game, table)


@require_safe
@guards_secret(SEAT_LINKS, "token")
def seat_rules(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The same, for whoever holds one of the table's seat links (any game's seat)."""
    seat = get_object_or_404(Seat.objects.select_related("table"), token=token)
    if not registry.is_game(seat.table.game):
        raise Http404("No such game.")
    use_seat_language(request, seat.table)
    return _rules(request, seat.table.game, seat.table, seat)


def components_pdf(request: HtmxHttpRequest, game: str) -> HttpResponse:
    """The game's print-and-play PDF (its defaults, or one of its presets): public, like
    the rules it goes with; rendered once per version and then served from the cache."""
    if not registry.is_game(game) or registry.kit(game).components is None:
        raise Http404("No such game.")
    kit = registry.kit(game)
    size = request.GET.get("size") or DEFAULT_SIZE
    language = language_code(request.GET.get("language") or request.LANGUAGE_CODE)
    try:
        # a table's rules page links its seats' count: its sheets print for them
        players = whole_number(request.GET.get("players"), low=1, high=99)
        print_job = print_request(
            kit, language=language, preset=request.GET.get("preset"), players=players
        )
        data = cached_pdf(kit, print_job, size)
    except ComponentsError as exc:
        raise Http404(str(exc)) from exc
    response = HttpResponse(data, content_type="application/pdf")
    filename = f"{game}-components-{size}-{language}.pdf"
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def table_url(table: Table) -> str:
    return reverse("games:table", args=[table.pk])
