"""One way to answer a request that plays a move (or undoes one).

Every view that writes to a table parses the request, then hands ``answer_move`` the call that
plays; the outcome becomes the response the same way everywhere:

- the table moved on since the page was drawn (StaleMove): 409, the page again with the reason;
- the referee (or the write path) refused: 400, the page again with the referee's sentence;
  either way the form that sent the move holds again what was typed or chosen in it
  (``games.refill``);
- it worked: the page's ``panel`` partial for htmx, a redirect for a plain form post;
- a JSON request gets JSON: ``{"error": {"code", "message"}}`` or ``{"seq", "state"}``.

"The page" is the table page (drawn in ``games/table_frame.html``) unless the view passes its own ``render`` (a seat's page, the
pass-the-laptop screen).

The address bar always shows the page, never the write URL: an htmx answer says which address
to keep (``HX-Replace-Url``: replaced, so moves pile up no history entries), and a write URL
opened with GET (a reload, a bookmark, an address an older page left in the bar) is sent on to
its page (``write_url``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django_htmx.http import replace_url

from games import presenters, registry
from games.facing import Facing
from games.messages import referee_message, service_message
from games.models import Table
from games.refill import keep_sent
from games.rules import IllegalMove
from games.services import validating
from games.snapshot import Snapshot

# render(error="", status=200) -> the page (its partial for htmx) with that error
Renderer = Callable[..., HttpResponse]


# What a table or seat page's frame (games/table_frame.html, games/seat_frame.html) extends
# for an htmx answer: the panel alone, without the site's header and scripts.
PANEL_ONLY = "games/_panel_only.html"


def render_page(request, template: str, context: dict[str, Any], status: int = 200):
    """A page drawn in a frame: the whole page, or only its panel for htmx. A refusal
    (``status`` 400 or more) of a post keeps in its form what was sent (``games.refill``)."""
    if status >= 400:
        keep_sent(request)
    if request.htmx:
        context["frame_page"] = PANEL_ONLY
    return render(request, template, context, status=status)


def render_table(
    request,
    table: Table,
    *,
    error: str = "",
    status: int = 200,
    extra: Callable[[Facing, dict[str, Any]], dict[str, Any]] | None = None,
    page_url: str | None = None,
) -> HttpResponse:
    """The table page of the table's game (its panel alone for htmx). ``extra(facing,
    context)``: more for the page to show (a game's move being built), from the owner's side
    of the table as the game's page context gets it; ``page_url``: the address the page
    keeps (default: the table's)."""
    snap = Snapshot(table)
    context = presenters.table_context(snap, error=error)
    if status == 409:  # moved on meanwhile: the alert links to the page as it is now
        context["reload_url"] = table.get_absolute_url()
    if extra is not None:
        context.update(extra(Facing.owner(snap), context))
    template = registry.kit(table.game).table_template
    response = render_page(request, template, context, status=status)
    return keep_address(request, response, page_url or table)


def keep_address(request, response: HttpResponse, page: Table | str) -> HttpResponse:
    """Tell htmx which address the page it swapped in lives at (``page``: a URL, or a table
    for its page). A boosted form would otherwise push the URL it posted to, which answers
    no GET, and add a history entry per move (htmx 2 ignores ``hx-push-url="false"`` on
    boosted elements); the header wins over both."""
    if request.htmx and "HX-Redirect" not in response:
        replace_url(response, page if isinstance(page, str) else page.get_absolute_url())
    return response


def seat_answer(request, seat, template: str, context: dict[str, Any], status: int = 200):
    """A seat's page (only its panel for htmx) at the seat's own address, the kit's
    ``seat_page`` (``seat_url`` in the context: the frame's poll refreshes it); a stale
    move's answer (409) links back to it."""
    url = reverse(registry.kit(seat.table.game).seat_page, args=[seat.token])
    context["seat_url"] = url
    if status == 409:
        context["reload_url"] = url
    return keep_address(request, render_page(request, template, context, status), url)


def write_url(page: Callable[..., str]) -> Callable:
    """Decorate a view that only writes (POST). A GET or HEAD is redirected to
    ``page(**kwargs)``, the page the write belongs to (which checks who may see it), rather
    than answered 405: whatever address a browser ends up holding shows the page."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method in ("GET", "HEAD"):
                return redirect(page(*args, **kwargs))
            if request.method != "POST":
                return HttpResponseNotAllowed(["GET", "HEAD", "POST"])
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


def table_page(pk: int, **_kwargs: Any) -> str:
    """The address of table ``pk``'s page (for ``write_url``; no query: the page checks)."""
    return reverse("games:table", args=[pk])


def wants_json(request) -> bool:
    return request.content_type == "application/json"


def answer_move(
    request,
    table: Table,
    play: Callable[[], Any],
    *,
    render: Renderer | None = None,
    then: Callable[[], HttpResponse] | None = None,
    explain: Callable[[IllegalMove], str] = referee_message,
    page_url: str | None = None,
) -> HttpResponse:
    """Run ``play`` (a call into ``games.services``) and answer with its outcome.

    ``render(error=..., status=...)`` draws the page (default: the table page); ``then()`` is
    the answer to a plain form post that worked (default: a redirect to the table);
    ``explain(exc)`` is the sentence for a refusal (default: the referee's, translated);
    ``page_url`` the address htmx keeps in the bar (default: the table's page).
    """
    response = _answer(request, table, play, render, then, explain)
    return keep_address(request, response, page_url or table)


def _answer(request, table, play, render, then, explain) -> HttpResponse:
    if render is None:

        def render(error: str = "", status: int = 200) -> HttpResponse:
            return render_table(request, table, error=error, status=status)

    try:
        played = play()
    except validating.StaleMove as exc:
        return _refused(request, table, render, exc.code, service_message(exc), 409)
    except IllegalMove as exc:
        return _refused(request, table, render, exc.code, explain(exc), 400)
    except validating.NothingToUndo as exc:
        return _refused(request, table, render, exc.code, service_message(exc), 400)
    if wants_json(request):
        return JsonResponse(
            {
                "seq": played.move.seq,
                "state": registry.kit(table.game).referee.view(played.state, None),
            }
        )
    if request.htmx:
        return render()
    return then() if then is not None else redirect(table)


def _refused(
    request, table: Table, render: Renderer, code: str, message: str, status: int
) -> HttpResponse:
    if wants_json(request):
        return JsonResponse({"error": {"code": code, "message": message}}, status=status)
    # Nothing was stored, but a write that got part way (a move before a later refusal in
    # the same transaction) may have moved this copy of the table on: read it again.
    # Every field, those the view left unread too (one query).
    table.refresh_from_db(fields=[f.attname for f in table._meta.concrete_fields])
    keep_sent(request)  # the page drawn again keeps what was typed or chosen (games.refill)
    return render(error=message, status=status)
