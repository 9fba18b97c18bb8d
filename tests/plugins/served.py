"""What a served site's tests start from (a plugin of tests/conftest.py, so a run collects the
static files once however many modules start servers): ``static_root``, the static files
collected once a run, and ``server_env``, the environment of a server on the test database."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.serving import (
    collected_static,
    database_url,
    serve_env,
)


@pytest.fixture(scope="session")
def static_root(tmp_path_factory):
    unused = tmp_path_factory.mktemp("serve-unused")
    return collected_static(serve_env("sqlite:///:memory:", unused / "static", unused / "media"))


@pytest.fixture
def server_env(static_root, test_media_dir):
    return serve_env(database_url(connection.settings_dict), static_root, test_media_dir)
