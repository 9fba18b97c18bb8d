"""Fixtures and hooks for the whole run, listed in tests/conftest.py's ``pytest_plugins``: the
test databases (``database``), the pictures made once a run (``pictures``), the static files
the served site's tests collect once a run (``served``), and what a request may have changed
(tests/permission_digest.py)."""
