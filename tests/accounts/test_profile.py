"""The name a person is printed under: set on their own settings page, linked from the site's
header, defaulting to the username, used wherever the site prints a person rather than a seat."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from amnesia_site.accounts.models import Profile, display_name

pytestmark = pytest.mark.django_db


def test_the_display_name_defaults_to_the_username(gm) -> None:
    assert display_name(gm) == "gm"
    Profile.objects.filter(user=gm).update(display_name="   ")
    gm = type(gm).objects.get(pk=gm.pk)
    assert display_name(gm) == "gm"


def test_the_header_links_the_settings_page_by_the_display_name(gm, gm_client: Client) -> None:
    html = gm_client.get("/").content.decode()
    assert f'href="{reverse("profile")}"' in html
    Profile.objects.filter(user=gm).update(display_name="Gabriela M.")
    html = gm_client.get("/").content.decode()
    assert 'data-testid="current-user">Gabriela M.</a>' in html


def test_a_person_sets_their_display_name(gm, gm_client: Client) -> None:
    page = gm_client.get(reverse("profile"))
    assert page.status_code == 200
    assert 'name="display_name"' in page.content.decode()
    assert reverse("password_change") in page.content.decode()
    response = gm_client.post(reverse("profile"), {"display_name": "  Gabriela   Moreau "})
    assert response.status_code == 302
    gm.refresh_from_db()
    assert gm.profile.display_name == "Gabriela Moreau"
    assert display_name(gm) == "Gabriela Moreau"
    shown = gm_client.get(reverse("profile")).content.decode()
    assert "shown as <strong>Gabriela Moreau</strong>" in shown


def test_a_display_name_too_long_is_refused_in_words(gm, gm_client: Client) -> None:
    response = gm_client.post(reverse("profile"), {"display_name": "x" * 61})
    assert response.status_code == 400
    assert "at most 60 characters" in response.content.decode()
    assert not Profile.objects.filter(user=gm, display_name__startswith="x").exists()


def test_the_settings_page_is_for_the_logged_in(client: Client) -> None:
    response = client.get(reverse("profile"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_each_person_edits_only_their_own(gm, other, other_client: Client) -> None:
    other_client.post(reverse("profile"), {"display_name": "Otto"})
    assert display_name(other) == "Otto"
    assert Profile.objects.get(user=gm).display_name == ""


def test_signup_still_works_from_its_new_home(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {
            "username": "newcomer",
            "password1": "a-long-pass-phrase-9",
            "password2": "a-long-pass-phrase-9",
        },
    )
    assert response.status_code == 302
    assert display_name(response.wsgi_request.user) == "newcomer"


def test_a_profile_is_made_with_the_user_and_by_a_migration_for_those_before(db) -> None:
    """No page makes a profile (a GET never writes): every user has one from the start, and
    the migration gave one to each user from before that had none."""
    user = get_user_model().objects.create_user("newcomer2", password="a-long-pass-phrase-9")
    assert Profile.objects.filter(user=user, display_name="", language="").count() == 1
    Profile.objects.filter(user=user).delete()
    migration = importlib.import_module(
        "amnesia_site.accounts.migrations.0003_a_profile_for_every_user"
    )
    migration.make_profiles(apps, None)
    assert Profile.objects.filter(user=user).count() == 1
    assert Profile.objects.count() == get_user_model().objects.count()
