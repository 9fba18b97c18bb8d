"""Steps the browser tests share."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings

from .conftest import TIMEOUT_MS

PASSWORD = "a-long-and-unusual-passphrase"

# The pages that follow a job by an htmx poll (``hx-trigger="every 2s"``: a book being printed,
# a deck's pictures, a lab run, a study) ask every 0.4 s (the journeys' pace) under a test that
# adds this script (``page.add_init_script``): the same poll and swap, only more often, so that
# each "the page follows by itself" step costs under half a second, not up to two. htmx reads
# the trigger right after this event, on the first page and on every swapped-in panel alike.
QUICK_HTMX_POLLS = """
document.addEventListener("htmx:beforeProcessNode", (event) => {
  const el = event.target;
  const trigger = el.getAttribute && el.getAttribute("hx-trigger");
  if (trigger && /^every \\d+m?s$/.test(trigger)) el.setAttribute("hx-trigger", "every 400ms");
});
"""


def log_in(page, django_user_model, username: str = "gm"):
    """Create the user and log the page's browser in (``log_in_as``), return the user."""
    user = django_user_model.objects.create_user(username=username, password=PASSWORD)
    log_in_as(page, username)
    return user


def log_in_as(page, username: str, password: str = PASSWORD) -> None:
    """Log the page's browser in through the login view, as an existing user.

    The login form is posted by the browser context's own request client (``page.request``,
    whose cookies are the context's): the same view, CSRF check and session as a click on the
    form, without Chromium drawing the login page and the page it sends to. Drawing them cost
    some 0.35 s of CPU a login, and some sixty tests log in; the form itself is filled in and
    clicked by test_smoke (sign up, log out), the journeys' laptops (in the table's language)
    and test_security. The page is left where it was (a new page: about:blank); the test goes
    to the page it wants."""
    form = page.request.get("/accounts/login/")
    assert form.ok, form.status
    token = next(c["value"] for c in page.context.cookies(form.url) if c["name"] == "csrftoken")
    answer = page.request.post(
        "/accounts/login/",
        form={"username": username, "password": password, "csrfmiddlewaretoken": token},
        headers={"Referer": form.url},
        max_redirects=0,
    )
    # Logged in: sent on (a refused login draws the form again, 200).
    assert answer.status == 302, (answer.status, answer.text()[:500])
    session = settings.SESSION_COOKIE_NAME
    assert any(c["name"] == session for c in page.context.cookies(form.url)), "no session"


def wait_for(page, predicate: str, arg=None, timeout_ms: int = TIMEOUT_MS) -> None:
    """Wait until the JavaScript function ``predicate(arg)`` is truthy in the page.

    Playwright's own ``wait_for_function`` runs the predicate through ``eval()`` inside the
    page, which the site's Content Security Policy refuses; ``page.evaluate`` goes through the
    DevTools protocol, which the policy does not govern. So the page itself waits: it checks
    the predicate at every frame and answers once it holds (or the time is up).
    """
    held = page.evaluate(
        f"""async (arg) => {{
            const holds = {predicate};
            const end = Date.now() + {int(timeout_ms)};
            while (!holds(arg)) {{
                if (Date.now() > end) return false;
                await new Promise((next) => requestAnimationFrame(next));
            }}
            return true;
        }}""",
        arg,
    )
    if not held:
        raise AssertionError(f"Still false after {timeout_ms} ms: {predicate}")


SWAPPED = (
    "(id) => { const p = document.getElementById(id);"
    " return !!p && !p.__beforeClick && !document.querySelector("
    "'.htmx-request, .htmx-swapping, .htmx-settling'); }"
)


SETTLED = (
    "() => document.readyState === 'complete' && document.fonts.status === 'loaded'"
    " && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
)


def settled(page) -> None:
    """Wait until the page is drawn and settled: its resources and fonts loaded, no htmx
    request or swap under way. Not Playwright's "networkidle" (half a second with no request
    at all), which a page that polls every few seconds meets late or never."""
    wait_for(page, SETTLED)


def click_and_wait_for_swap(locator, panel_id: str = "table-panel") -> None:
    """Click ``locator`` and wait until the answer to that click has replaced the panel
    ``panel_id`` and nothing else is on its way. The panel before the click is marked, so
    what is waited for is always a new one: a wait on what the page shows (a count, a
    heading) can be met by the page before the click, and the next click then lands on a
    panel whose answer is still coming."""
    page = locator.page
    page.evaluate("(id) => { document.getElementById(id).__beforeClick = true; }", panel_id)
    locator.click()
    wait_for(page, SWAPPED, arg=panel_id)


def reload_shows(page, path: str, check) -> None:
    """The address bar holds the page ``path`` (never the URL a move was posted to); a
    reload answers 200 and the page still passes ``check()`` (a few ``expect`` calls).
    The page is first let arrive (``check()``): a reload asked while a click's navigation or
    swap is still under way is refused by the browser."""
    check()
    assert urlsplit(page.url).path == path, f"the address bar holds {page.url}"
    response = page.reload()
    assert response is not None and response.status == 200, response
    check()


def back_and_forward(page, before: str, path: str, check) -> None:
    """Back leaves the table for the page ``before`` it (moves added no history entries),
    Forward comes back to it as it is now, each answered 200 (or from memory, reloaded)."""
    response = page.go_back()
    assert urlsplit(page.url).path == before, f"Back went to {page.url}"
    assert response is None or response.status == 200, response
    response = page.go_forward()
    assert urlsplit(page.url).path == path, f"Forward went to {page.url}"
    assert response is None or response.status == 200, response
    check()


def end_revealed(table) -> None:
    """A finished table as its room has seen it end: Amnesia Stories shows its last story's
    reveal step by step and leads the phones on (to the impressions) only once the laptop has
    opened its last step; the other games end at their last move."""
    if table.game != "amnesia_stories":
        return
    from games.amnesia_stories import reveal
    from games.models import Table
    from games.snapshot import Snapshot

    fresh = Table.objects.get(pk=table.pk)
    judged = reveal.on_screen(Snapshot(fresh).view)
    assert judged is not None
    reveal.open_step(fresh, judged, reveal.step_count(judged))
