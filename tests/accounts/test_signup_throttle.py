"""Sign-ups are throttled per address, as logins are: as many accounts as a table of players on
one Wi-Fi needs, not a crowd of them."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

ADDRESS = "203.0.113.7"


def sign_up(name: str, address: str = ADDRESS, **headers: str):
    client = Client(REMOTE_ADDR=address, **headers)
    return client.post(
        reverse("signup"),
        {
            "username": name,
            "password1": "a-long-pass-phrase-9",
            "password2": "a-long-pass-phrase-9",
        },
    )


@pytest.mark.django_db
def test_one_address_makes_so_many_accounts_then_waits(settings) -> None:
    settings.SIGNUPS_PER_ADDRESS = 3
    assert [sign_up(f"player{i}").status_code for i in range(3)] == [302, 302, 302]
    refused = sign_up("player3")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= settings.SIGNUP_COOL_OFF.total_seconds()
    assert "Too many accounts were made from your address" in refused.content.decode()
    assert not get_user_model().objects.filter(username="player3").exists()
    # The sign-up page says so before anything is typed; in the reader's language.
    assert Client(REMOTE_ADDR=ADDRESS).get(reverse("signup")).status_code == 429
    ja = sign_up("player3", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "お使いのアドレスから作られたアカウントが多すぎます。" in ja
    # Another address is not held up.
    assert sign_up("player3", address="198.51.100.20").status_code == 302


@pytest.mark.django_db
def test_a_refused_form_does_not_count(settings) -> None:
    settings.SIGNUPS_PER_ADDRESS = 2
    client = Client(REMOTE_ADDR=ADDRESS)
    for _ in range(3):  # passwords that differ: no account made
        response = client.post(
            reverse("signup"),
            {"username": "someone", "password1": "a-long-pass-9", "password2": "another-9"},
        )
        assert response.status_code == 200
    assert [sign_up(f"p{i}").status_code for i in range(3)] == [302, 302, 429]
