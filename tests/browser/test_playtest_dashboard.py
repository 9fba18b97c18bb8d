"""A designer compares two versions of a ruleset on the dashboard, in Chromium."""

from __future__ import annotations

import re
from io import StringIO

from django.contrib.auth.models import Group
from playwright.sync_api import expect

from games.playtests import lab_chunks, lab_start
from games.playtests.models import DESIGNERS_GROUP
from tests.playtests.conftest import builtin, many_reports, newest

from .helpers import log_in, wait_for


def settled(page) -> None:
    """Wait until htmx has swapped and settled (a new form is live only after that)."""
    wait_for(
        page,
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')",
    )


def test_designer_compares_draft_3_and_draft_4(page, django_user_model) -> None:
    designer = log_in(page, django_user_model, username="designer")
    designer.groups.add(Group.objects.get_or_create(name=DESIGNERS_GROUP)[0])
    owner = django_user_model.objects.create_user(username="host")
    draft3 = builtin("amnesia_stories", "Amnesia Stories draft 3")
    draft4 = builtin("amnesia_stories", "Amnesia Stories draft 4")
    many_reports(owner, 4, [draft3])
    many_reports(owner, 6, [draft4], impressions=1)

    page.goto("/playtests/")
    page.get_by_role("link", name="Amnesia Stories").first.click()
    expect(page.get_by_role("heading", name="Designer’s dashboard")).to_be_visible()
    expect(page.get_by_test_id("playtest-count")).to_have_text("10")

    # Draft 4 first, then draft 3 against it: each choice swaps in the comparison alone.
    table = page.get_by_test_id("comparison")
    page.get_by_test_id("version-a").select_option(label=f"{draft4.label} (6)")
    legend = page.get_by_test_id("compare-legend")
    expect(legend.locator("span").first).to_have_text(f"A {draft4.label}")
    settled(page)
    page.get_by_test_id("version-b").select_option(label=f"{draft3.label} (4)")
    expect(legend.locator("span").nth(1)).to_have_text(f"B {draft3.label}")
    playtests = table.locator("tbody tr").filter(has_text="Playtests")
    expect(playtests.locator("td")).to_have_text(["6", "4", "−2"])
    expect(table.locator("tbody tr").filter(has_text="Bard matched at step 1")).to_be_visible()
    expect(page.locator("#comparison svg.chart").first).to_be_visible()
    # the address keeps the choice, so the comparison can be shared or reloaded
    expect(page).to_have_url(re.compile(rf"a={draft4.pk}&b={draft3.pk}"))
    page.reload()
    expect(page.get_by_test_id("compare-legend")).to_contain_text(f"A {draft4.label}")


def test_the_ruleset_select_and_the_option_fields_follow_each_other(page, django_user_model):
    from games.models import Table

    log_in(page, django_user_model)
    draft3 = newest("amnesia_stories", "Amnesia Stories draft 3")
    draft4 = newest("amnesia_stories", "Amnesia Stories draft 4")
    page.goto("/tables/new/?game=amnesia_stories")
    ruleset = page.get_by_label("Ruleset")
    expect(ruleset).to_have_value(str(draft4.pk))
    ruleset.select_option(label=draft3.label)
    expect(page.locator("[name=opt_choices]")).to_have_value("6")
    expect(page.locator("[name=opt_red_card_on_all_wrong]")).not_to_be_checked()
    # a changed option is the table's own: no ruleset; changed back, draft 3 again
    page.locator("[name=opt_rounds]").fill("1")
    expect(ruleset).to_have_value("")
    page.locator("[name=opt_rounds]").fill("2")
    expect(ruleset).to_have_value(str(draft3.pk))
    page.get_by_role("link", name="Current defaults").click()
    expect(ruleset).to_have_value(str(draft4.pk))
    ruleset.select_option(label=draft3.label)
    page.get_by_label("Table name").fill("Draft three")
    page.get_by_label(re.compile("Players, in seat order")).fill("Ana\nBruno\nCaio")
    page.get_by_role("button", name="Start the table").click()
    expect(page.locator("#table-panel")).to_be_visible()
    assert Table.objects.get(name="Draft three").ruleset == draft3


def test_a_new_designer_counts_the_demo_tables_only_by_choice(page, django_user_model) -> None:
    from django.core.management import call_command

    from games.management.commands.demo import DEMO_USER

    log_in(page, django_user_model, username="newcomer")
    call_command("designer", "newcomer", stdout=StringIO())
    draft4 = builtin("amnesia_stories", "Amnesia Stories draft 4")
    many_reports(django_user_model.objects.create_user(username=DEMO_USER), 3, [draft4])
    many_reports(django_user_model.objects.create_user(username="host"), 2, [draft4])

    page.goto("/playtests/dashboard/amnesia_stories/")
    count = page.get_by_test_id("playtest-count")
    expect(count).to_have_text("2")
    said = page.get_by_test_id("demo-tables")
    expect(said).to_contain_text("3 tables of the demo account are left out.")
    said.get_by_role("link", name="Count the demo tables").click()
    expect(count).to_have_text("5")
    said.get_by_role("link", name="Leave the demo tables out").click()
    expect(count).to_have_text("2")


def test_a_phone_reads_the_versions_and_the_reports_in_japanese(
    page, django_user_model, live_server
) -> None:
    """At 390 px in Japanese the versions' changelog was squeezed into a column two
    characters wide (the share links held on one line beside it, Latin names around it) and
    a report's name broke after each character ('試' / '遊' / '卓' / '4'): Japanese breaks
    anywhere, so its columns gave way to every other."""
    from games.models import Table

    designer = log_in(page, django_user_model, username="designer")
    designer.groups.add(Group.objects.get_or_create(name=DESIGNERS_GROUP)[0])
    draft3 = builtin("amnesia_stories", "Amnesia Stories draft 3")
    many_reports(designer, 2, [draft3])
    Table.objects.filter(owner=designer).update(name="第3稿の試遊")
    # A simulation of the version puts its figures beside the real ones, a table of its own.
    run = lab_start.start(
        designer, "amnesia_stories", draft3, players=3, games=5, bots=["sensible"], seed=1
    )
    lab_chunks.run_everything(run)
    page.set_viewport_size({"width": 390, "height": 844})
    page.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    page.goto("/playtests/dashboard/amnesia_stories/")
    changelog = page.locator("td.pt-changelog").first
    expect(changelog).to_contain_text("草案3")
    width, font = changelog.evaluate(
        "e => [e.clientWidth, parseFloat(getComputedStyle(e).fontSize)]"
    )
    assert width >= 10 * font, (width, font)
    name = page.locator("section[aria-labelledby=recent-h] tbody a").first
    expect(name).to_have_text("第3稿の試遊")
    assert name.evaluate("e => e.getClientRects().length") == 1
    figure = page.get_by_test_id("beside-real").locator("tbody th").first
    expect(figure).to_contain_text("分で見た長さ")
    assert figure.evaluate("e => e.clientWidth") >= 6 * font
    rating = page.locator("tr[data-rating=length] th")
    expect(rating).to_contain_text("長さ")
    assert rating.evaluate("e => e.clientWidth") >= 6 * font
