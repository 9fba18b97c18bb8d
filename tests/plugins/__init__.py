"""Fixtures and hooks for the whole run, listed in tests/conftest.py's ``pytest_plugins``: the
test databases (``database``), the pictures made once a run (``pictures``), what a request
may have changed (tests/permission_digest.py)."""
