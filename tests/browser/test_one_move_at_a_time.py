"""One move at a time on a table page: a second tap while a move's answer is on its way is
dropped (it would carry the page's old position), and a move does not wait behind the live
refresh, which it cancels (its own answer is the newer panel)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from playwright.sync_api import expect

from games.models import Move
from games.services import writing
from tests.browser.helpers import SWAPPED, log_in, wait_for
from tests.tables import contest_in_play

CHALLENGE = {"do": "challenge", "target": "Bo", "contest": "pies", "attribute": "muscle"}


def challenged(gm):
    """A contest, virtual deck, where Zed (Ana) has just challenged Yum (Bo)."""
    table = contest_in_play(gm, seed=5)
    writing.play_many(table, [{"by": "Ana", **CHALLENGE, "named": True}], table.last_seq)
    return table


def test_a_second_tap_while_a_move_is_on_its_way_is_dropped(page, django_user_model) -> None:
    table = challenged(log_in(page, django_user_model))
    page.goto(table.get_absolute_url())
    panel = page.locator("#table-panel")
    expect(panel.locator("#accept-form")).to_be_visible()
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)

    # Accept, then at once Refuse (another form): both taps in the same instant.
    page.evaluate(
        "() => { document.getElementById('table-panel').__beforeClick = true;"
        " document.querySelector('#accept-form button').click();"
        " const refuse = [...document.querySelectorAll('#table-panel .move-row')]"
        "   .find(r => r.textContent.includes('Refuse')).querySelector('button');"
        " refuse.click(); }"
    )
    wait_for(page, SWAPPED, arg="table-panel")

    assert len(posts) == 1, posts
    expect(panel.locator(".actions h2")).to_have_text(re.compile("^Contest: Zed"))
    expect(panel.locator(".alert.error")).to_have_count(0)
    assert Move.objects.filter(table=table).order_by("seq").last().payload["do"] == "accept"
    assert Move.objects.filter(table=table).count() == 4


def test_a_move_cancels_the_live_refresh_on_its_way(page, django_user_model) -> None:
    table = challenged(log_in(page, django_user_model))
    path = table.get_absolute_url()
    page.goto(path)
    panel = page.locator("#table-panel")
    expect(panel.locator("#accept-form")).to_be_visible()

    held = []

    def hold_the_refresh(route) -> None:
        held.append(route)  # never answered: the refresh hangs until something cancels it

    page.route(lambda url: urlsplit(url).path == path, hold_the_refresh)
    failed = []
    page.on("requestfailed", lambda r: failed.append(urlsplit(r.url).path))
    with page.expect_request(lambda r: urlsplit(r.url).path == path):  # the refresh went out
        page.evaluate(
            "() => htmx.trigger(document.querySelector('#table-panel [data-poll]'), 'table-changed')"
        )

    seq = panel.get_attribute("data-seq")
    with page.expect_event("requestfailed", lambda r: urlsplit(r.url).path == path):
        panel.locator("#accept-form").get_by_role("button", name=re.compile("Muscle")).click()
    expect(panel).not_to_have_attribute("data-seq", seq)
    expect(panel.locator(".actions h2")).to_have_text(re.compile("^Contest: Zed"))
    assert held, "the live refresh was held"
    assert failed == [path], "the refresh was cancelled by the move"
    page.unroute_all(behavior="ignoreErrors")
