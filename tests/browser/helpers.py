"""Steps the browser tests share."""

from __future__ import annotations

import re

from playwright.sync_api import expect

PASSWORD = "a-long-and-unusual-passphrase"


def log_in(page, django_user_model, username: str = "gm"):
    """Create the user, log in through the real login form, return the user."""
    user = django_user_model.objects.create_user(username=username, password=PASSWORD)
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("current-user")).to_have_text(username)
    return user
