"""Steps the browser tests share."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from playwright.sync_api import expect

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
    """Create the user, log in through the real login form, return the user."""
    user = django_user_model.objects.create_user(username=username, password=PASSWORD)
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("current-user")).to_have_text(username)
    return user


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
