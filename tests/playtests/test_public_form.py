"""The public report form: people's reports wait for approval; bots and floods store nothing."""

from __future__ import annotations

import re
import time

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from games.models import Ruleset
from games.playtests.forms import STARTED_SALT
from games.playtests.models import ExternalReport, Impression

from .conftest import builtin

pytestmark = pytest.mark.django_db

URL = reverse("playtests:public_report", args=["amnesia_stories"])


def started(seconds_ago: int = 30) -> str:
    return signing.dumps(int(time.time()) - seconds_ago, salt=STARTED_SALT)


def report_data(**extra) -> dict:
    ruleset = builtin("amnesia_stories", "Amnesia Stories draft 3")
    data = {
        "started": started(),
        "website": "",
        "ruleset": ruleset.pk,
        "draft": "",
        "played_on": "2026-03-01",
        "place": "Club Tsukuba",
        "players": 4,
        "duration_minutes": 45,
        "outcome": "Dora won by 2",
        "p-TOTAL_FORMS": 4,
        "p-INITIAL_FORMS": 0,
        "p-MIN_NUM_FORMS": 0,
        "p-MAX_NUM_FORMS": 8,
        "p-0-player": "Dora",
        **{
            f"p-0-{k}": v
            for k, v in dict(fun=5, length=4, clarity=3, downtime=4, decisions=5, again=5).items()
        },
        "p-0-best_moment": "The shipwreck",
    }
    data.update(extra)
    return data


def test_a_person_reports_and_it_waits_for_approval(client):
    page = client.get(URL)
    assert page.status_code == 200 and 'name="website"' in page.content.decode()
    response = client.post(URL, report_data())
    assert response.status_code == 200 and "Thank you" in response.content.decode()
    report = ExternalReport.objects.get()
    assert (report.players, report.duration_minutes, report.place) == (4, 45, "Club Tsukuba")
    assert not report.approved and report.reviewed_at is None
    assert len(report.ip_hash) == 64 and "127.0.0.1" not in report.ip_hash
    impression = Impression.objects.get()
    assert (impression.external, impression.player, impression.fun) == (report, "Dora", 5)


def test_the_form_per_ruleset_version_preselects_it(client):
    draft4 = builtin("amnesia_stories", "Amnesia Stories draft 4")
    page = client.get(reverse("playtests:public_report_for", args=["amnesia_stories", draft4.pk]))
    assert f'<option value="{draft4.pk}" selected>' in page.content.decode()


def test_invalid_report_stores_nothing(client):
    response = client.post(URL, report_data(players="", **{"p-0-fun": ""}))
    assert response.status_code == 400
    assert not ExternalReport.objects.exists() and not Impression.objects.exists()


def test_a_bot_filling_the_honeypot_stores_nothing(client):
    response = client.post(URL, report_data(website="http://spam.example"))
    assert response.status_code == 200  # the bot is told nothing
    assert not ExternalReport.objects.exists() and not Impression.objects.exists()


def test_a_bot_posting_too_fast_or_without_the_form_stores_nothing(client):
    client.post(URL, report_data(started=started(0)))
    client.post(URL, report_data(started="forged"))
    data = report_data()
    del data["started"]
    client.post(URL, data)
    assert not ExternalReport.objects.exists() and not Impression.objects.exists()


def test_a_flood_is_stopped_at_five_an_hour(client):
    for _ in range(5):
        assert client.post(URL, report_data()).status_code == 200
    assert ExternalReport.objects.count() == 5
    response = client.post(URL, report_data())
    assert response.status_code == 429
    assert "Too many reports" in response.content.decode()
    assert ExternalReport.objects.count() == 5 and Impression.objects.count() == 5
    # another address is not held back
    neighbour = Client(REMOTE_ADDR="203.0.113.9")
    assert neighbour.post(URL, report_data()).status_code == 200
    assert ExternalReport.objects.count() == 6


def test_unknown_game_or_version(client):
    assert client.get(reverse("playtests:public_report", args=["chess"])).status_code == 404
    other_game = builtin("contest", "Contest: default rulings")
    url = reverse("playtests:public_report_for", args=["amnesia_stories", other_game.pk])
    assert client.get(url).status_code == 404


# -- optional answers and the error summary (issue 10.9) -----------------------------------------
def test_a_player_may_leave_every_rating_out(client):
    ratings = {f"p-0-{k}": "" for k in ("fun", "length", "clarity", "downtime", "decisions")}
    data = report_data(**ratings, **{"p-0-again": 4})
    # a second box with words only, and no name: it is "Player 2", after its box
    data |= {"p-1-player": "", "p-1-change": "Shorter rounds"}
    response = client.post(URL, data)
    assert response.status_code == 200, response.content.decode()[:3000]
    dora, second = Impression.objects.order_by("player")
    assert (dora.player, dora.fun, dora.again, dora.best_moment) == (
        "Dora",
        None,
        4,
        "The shipwreck",
    )
    assert (second.player, second.fun, second.change) == ("Player 2", None, "Shorter rounds")
    # the dashboard's averages leave the missing answers out
    from games.playtests import stats

    entry = {"impressions": [{"fun": dora.fun, "again": dora.again}, {"again": 2}]}
    averages = stats.impression_averages([entry])["averages"]
    assert averages["fun"] is None and averages["again"] == 3


def test_errors_are_summed_up_at_the_top_with_a_link_to_each_field(client):
    response = client.post(
        URL, report_data(players="", ruleset="", **{"p-1-fun": "9", "p-1-player": "Eli"})
    )
    assert response.status_code == 400
    html = response.content.decode()
    summary = re.search(r'<div class="error-summary"[^>]*>(.*?)</div>', html, re.S)
    assert summary, "no error summary"
    opening = re.search(r'<div class="error-summary"[^>]*>', html).group(0)
    # focused without any script: autofocus on an element that can take the focus
    assert "autofocus" in opening and 'tabindex="-1"' in opening and 'role="alert"' in opening
    links = re.findall(r'<a href="#([^"]+)">([^<]+)</a>', summary.group(1))
    targets = [href for href, _text in links]
    assert targets == ["id_draft", "id_players", "id_p-1-fun"], links
    for href in targets:
        assert f'id="{href}"' in html  # each link lands on its field
    assert "Player 2 · Fun: " in links[2][1]
    # the summary comes before the form's first field, and its script is a static file
    assert html.index("error-summary") < html.index('name="ruleset"')
    assert "playtests/error_summary.js" in html
    assert "error-summary" not in client.get(URL).content.decode()


def test_a_formset_error_links_to_the_players_boxes(client):
    response = client.post(URL, report_data(**{"p-1-player": "dora", "p-1-fun": "3"}))
    assert response.status_code == 400
    html = response.content.decode()
    assert '<a href="#p-rows">Each player needs a different name.</a>' in html
    assert 'id="p-rows" tabindex="-1"' in html


def test_the_form_opens_on_the_newest_draft_so_sending_it_as_it_opens_is_no_error(client):
    """Issue 26: it opened on "Another draft (name it below)", an error when sent unchanged."""
    newest = Ruleset.objects.filter(game="amnesia_stories").order_by("-pk").first()
    assert newest is not None
    html = client.get(URL).content.decode()
    select = re.search(r'<select name="ruleset".*?</select>', html, re.S)
    assert select is not None
    chosen = re.findall(r'<option value="(\d*)" selected>', select.group(0))
    assert chosen == [str(newest.pk)]
    response = client.post(URL, report_data(ruleset=chosen[0]))
    assert "Thank you" in response.content.decode()
    assert ExternalReport.objects.get().ruleset == newest
