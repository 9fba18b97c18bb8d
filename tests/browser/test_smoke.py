"""The account pages in a real browser: a visitor is turned away, signs up, comes back in."""

from __future__ import annotations

import re

from playwright.sync_api import expect

PASSWORD = "a-long-and-unusual-passphrase"


def test_sign_up_land_logged_in_and_log_out(page, django_user_model) -> None:
    # A page that needs an account sends the visitor to log in, remembering where they were going.
    page.goto("/accounts/password_change/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/accounts/password_change/$"))

    page.get_by_role("link", name="Create an account").click()
    expect(page.get_by_role("heading", name="Create an account")).to_be_visible()
    page.get_by_label("Username").fill("ada")
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_label(re.compile(r"^Password confirmation:?$")).fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()

    # Back where they were heading, logged in, welcomed.
    expect(page).to_have_url(re.compile(r"/accounts/password_change/$"))
    expect(page.get_by_test_id("current-user")).to_have_text("ada")
    expect(page.get_by_text("Welcome, ada.")).to_be_visible()
    assert django_user_model.objects.filter(username="ada").exists()

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_test_id("current-user")).to_have_count(0)

    # Logged out for real: the page that needs an account turns them away again.
    page.goto("/accounts/password_change/")
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    expect(page.get_by_role("link", name="Sign up")).to_be_visible()
