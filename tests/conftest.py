"""Fixtures every test may use: two players, a logged-in client for each, fast hashing."""

from __future__ import annotations

import pytest
from django.test import Client

PASSWORD = "correct-horse-battery-staple"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings) -> None:
    """The real hasher takes a good part of a second per password, by design; tests need none."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def gm(db, django_user_model):
    """The player who runs the table."""
    return django_user_model.objects.create_user(username="gm", password=PASSWORD)


@pytest.fixture
def other(db, django_user_model):
    """A second player, for what one user may not see or do to another's table."""
    return django_user_model.objects.create_user(username="other", password=PASSWORD)


@pytest.fixture
def gm_client(gm) -> Client:
    client = Client()
    client.force_login(gm)
    return client


@pytest.fixture
def other_client(other) -> Client:
    client = Client()
    client.force_login(other)
    return client
