"""Publishing reports sent through the public form (issue 13.7): only with the sender's
consent, asked explicitly and off by default; only the ruleset's owner or the designers
choose which; without the players' names unless the sender allowed them."""

from __future__ import annotations

import re

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from games.models import Ruleset
from games.playtests.models import ExternalReport

from .test_public_form import URL, report_data

pytestmark = pytest.mark.django_db

PUBLISHED = reverse("playtests:published", args=["amnesia_stories"])
NO, WITHOUT_NAMES, WITH_NAMES = (
    ExternalReport.Consent.NO,
    ExternalReport.Consent.WITHOUT_NAMES,
    ExternalReport.Consent.WITH_NAMES,
)


def sent(client: Client, consent: str | None, approved: bool = True, **extra) -> ExternalReport:
    data = report_data(**extra)
    if consent is not None:
        data["publish_consent"] = consent
    # each report from its own address, so the hourly limit never gets in the way
    sender = Client(REMOTE_ADDR=f"198.51.100.{ExternalReport.objects.count() + 1}")
    assert sender.post(URL, data).status_code == 200
    report = ExternalReport.objects.latest("pk")
    if approved:
        report.approved = True
        report.save(update_fields=["approved"])
    return report


def publish(client: Client, report: ExternalReport, value: str = "1"):
    return client.post(reverse("playtests:publish_external", args=[report.pk]), {"publish": value})


def test_the_form_asks_and_the_answer_is_no_unless_given(client):
    page = client.get(URL).content.decode()
    assert "May the designers publish this report on the game’s public page?" in page
    radios = re.findall(r'<input type="radio" name="publish_consent"[^>]*>', page)
    assert [("checked" in r) for r in radios] == [True, False, False]
    assert 'value="no"' in radios[0]
    assert sent(client, None).publish_consent == NO  # no answer sent at all
    assert sent(client, "no").publish_consent == NO
    assert sent(client, "anonymous").publish_consent == WITHOUT_NAMES
    assert sent(client, "names").publish_consent == WITH_NAMES
    bad = Client(REMOTE_ADDR="198.51.100.200").post(URL, report_data(publish_consent="sure"))
    assert bad.status_code == 400


def test_an_unconsented_report_is_never_public(client, designer_client):
    report = sent(client, None)
    response = publish(designer_client, report)
    assert response.status_code == 302
    report.refresh_from_db()
    assert not report.published
    assert "Dora" not in client.get(PUBLISHED).content.decode()
    # not even written straight into the database
    with pytest.raises(IntegrityError), transaction.atomic():
        ExternalReport.objects.filter(pk=report.pk).update(published=True)
    # and a consent withdrawn in the admin takes it off the page
    consented = sent(client, "names")
    assert publish(designer_client, consented).status_code == 302
    assert "Dora" in client.get(PUBLISHED).content.decode()
    with pytest.raises(IntegrityError), transaction.atomic():
        ExternalReport.objects.filter(pk=consented.pk).update(publish_consent=NO)


def test_a_report_waiting_for_approval_cannot_be_published(client, designer_client):
    report = sent(client, "names", approved=False)
    publish(designer_client, report)
    report.refresh_from_db()
    assert not report.published
    assert ExternalReport.objects.public().count() == 0


def test_the_designer_chooses_and_the_page_shows_no_names_unless_allowed(client, designer_client):
    anonymous = sent(
        client, "anonymous", outcome="Dora won by 2, Eli last", place="Tsukuba, at Dora's"
    )
    named = sent(client, "names", outcome="Mara won on the last turn", **{"p-0-player": "Mara"})
    also = sent(client, "names", outcome="Not chosen", **{"p-0-player": "Zoe"})
    dashboard = designer_client.get(reverse("playtests:dashboard", args=["amnesia_stories"]))
    html = dashboard.content.decode()
    for report in (anonymous, named, also):
        assert reverse("playtests:publish_external", args=[report.pk]) in html
    assert PUBLISHED in html
    assert "No report has been published yet." in client.get(PUBLISHED).content.decode()
    publish(designer_client, anonymous)
    publish(designer_client, named)

    page = client.get(PUBLISHED)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Dora" not in html  # the name written in a player's box, everywhere
    assert "Player 1 won by 2, Eli last" in html and "The shipwreck" in html
    assert "Tsukuba, at Player 1&#x27;s" in html
    assert "Mara won on the last turn" in html and ">Mara<" in html
    assert "Not chosen" not in html and "Zoe" not in html
    # unpublished again, it leaves the page
    publish(designer_client, named, "0")
    assert "Mara" not in client.get(PUBLISHED).content.decode()


def test_only_the_rulesets_owner_or_the_designers_choose(client, gm, gm_client, other_client):
    mine = Ruleset.objects.create(game="amnesia_stories", name="gm's draft", options={}, owner=gm)
    report = sent(client, "names", ruleset=mine.pk)
    assert publish(other_client, report).status_code == 403
    anonymous = publish(Client(), report)
    assert anonymous.status_code == 302 and reverse("login") in anonymous["Location"]
    report.refresh_from_db()
    assert not report.published
    assert publish(gm_client, report).status_code == 302  # the ruleset's owner
    report.refresh_from_db()
    assert report.published
    # a report of someone else's ruleset is not the gm's to choose
    theirs = sent(client, "names")
    assert publish(gm_client, theirs).status_code == 403
    assert publish(gm_client, report, "maybe").status_code == 400


def test_an_unknown_game_has_no_published_page(client):
    assert client.get(reverse("playtests:published", args=["chess"])).status_code == 404


def test_a_form_over_the_model_says_why_it_refuses(client):
    """The admin's form (any ModelForm) checks the constraint and says so in words."""
    from django.core.exceptions import ValidationError

    report = sent(client, None)
    report.published = True
    with pytest.raises(ValidationError, match="agreed to its publication"):
        report.full_clean()
