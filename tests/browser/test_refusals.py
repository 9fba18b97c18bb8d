"""A refused move on a phone, in Chromium: the page stays itself (styled, titled, its moves
there), what was typed is still in its box, and the reason is one sentence in the table's
language (Portuguese here) above the form."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.contest.models import Character
from games.models import Table
from games.services import new_tables, writing

from .helpers import click_and_wait_for_swap, log_in

PHONE = {"width": 390, "height": 844}
TOO_LONG = "a lembrança do mar " * 6  # longer than an ability may be (80 characters)


def test_a_refusal_on_a_phone_keeps_the_page_and_what_was_typed(
    browser, transactional_db, live_server
):
    owner = get_user_model().objects.create_user(username="gm", password="x-long-passphrase")
    table = new_tables.create_table(owner, "amnesia", ["Ana", "Bruno"], seed=7)
    writing.play_many(table, [{"by": "Ana", "do": "continue"}], None)
    writing.play_many(table, [{"by": "Ana", "do": "end_scene"}], None)
    Table.objects.filter(pk=table.pk).update(language="pt-br")
    # A Brazilian phone (its browser asks for Portuguese) at a table that plays in Portuguese.
    context = browser.new_context(
        base_url=live_server.url, viewport=PHONE, is_mobile=True, has_touch=True, locale="pt-BR"
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(f"/seat/{table.seats.get(name='Bruno').token}/amnesia/")
        title = page.title()
        abilities = page.get_by_label("Habilidades que ela desperta", exact=False)
        typed = f"cirurgia, {TOO_LONG}"
        abilities.fill(typed)
        click_and_wait_for_swap(page.get_by_role("button", name="Flashback"), "seat-panel")
        alert = page.get_by_role("alert")
        expect(alert).to_have_text("Cada habilidade deve ter entre 1 e 80 caracteres.")
        expect(abilities).to_have_value(typed)
        # Still the styled page, in its own title.
        assert page.title() == title
        styled = page.evaluate(
            "() => [...document.styleSheets].some((s) => (s.href || '').endsWith('/app.css'))"
        )
        assert styled
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") not in (
            "rgba(0, 0, 0, 0)",
            "",
        )
        # A refusal the site answers without the page (what it cannot read at all: a NUL in
        # a text) leaves the page as it was, what was typed in it, and the reason above it.
        abilities.fill("cirurgia\u0000")
        page.get_by_role("button", name="Flashback").click()
        notice = page.locator("[data-request-notice]")
        expect(notice).to_have_text(
            "O que você enviou contém um caractere NUL, que nenhum texto pode conter; por "
            "isso, nada foi feito com ele."
        )
        expect(abilities).to_have_value("cirurgia\u0000")
        expect(page.get_by_role("button", name="Flashback")).to_be_visible()
    finally:
        context.close()


@pytest.mark.parametrize("debug", [False, True], ids=["site", "make-run-debug"])
def test_a_character_with_a_wrong_total_keeps_the_form_open_and_filled(
    page, django_user_model, settings, debug
):
    """The contest's character form, folded away when saved characters may be brought: a
    wrong total is refused in the table page with the form open and every box as typed.
    Under DEBUG too, as `make run` serves: django-htmx's debug script, which shows a 400 as
    a whole page, must leave a refusal to the panel it belongs to."""
    settings.DEBUG = debug
    user = log_in(page, django_user_model)
    Character.objects.create(owner=user, name="Grim")
    table = new_tables.create_table(user, "contest", ["Ana", "Bo"], seed=7)
    page.goto(f"/tables/{table.pk}/")
    ana = page.locator("article.character-seat").filter(has_text="Ana")
    ana.get_by_text("Make a new character").click()
    form = ana.locator("form.character-form")
    form.get_by_label("Character name").fill("Zed the Bold")
    form.locator('input[name="brains"]').fill("5")
    form.get_by_label("Big appetite", exact=False).check()
    form.get_by_label("Keep for later games").uncheck()
    click_and_wait_for_swap(form.get_by_role("button", name="Play this character"))
    expect(page.get_by_role("alert")).to_have_text("The four attributes must add up to 12, not 14.")
    form = page.locator("article.character-seat").filter(has_text="Ana").locator("form")
    expect(form.get_by_label("Character name")).to_be_visible()  # unfolded
    expect(form.get_by_label("Character name")).to_have_value("Zed the Bold")
    expect(form.locator('input[name="brains"]')).to_have_value("5")
    expect(form.get_by_label("Big appetite", exact=False)).to_be_checked()
    expect(form.get_by_label("Keep for later games")).not_to_be_checked()
    # Still the table page, styled and titled.
    assert page.title() == table.name
    assert page.evaluate(
        "() => [...document.styleSheets].some((s) => (s.href || '').endsWith('/app.css'))"
    )
