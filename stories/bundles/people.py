"""The people a bundle names, as an import treats them: names, never accounts, unless the
command's ``--link-accounts`` links a name to the account of the same username here.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model


class People:
    """The people a bundle names, as this import treats them: each is a name (never linked to
    an account, and no account is made), and whatever they owned there belongs here to the
    importer; with ``link_accounts`` (the command's ``--link-accounts``) a name that is the
    username of an account here already is that account."""

    def __init__(self, manifest: dict[str, Any], importer, link_accounts: bool) -> None:
        self.importer = importer
        self.names: dict[str, str] = {}
        for person in manifest["people"]:
            shown = " ".join(person.get("display_name", "").split())
            self.names[person["username"]] = shown or person["username"]
        self.accounts: dict[str, Any] = {}
        if link_accounts:
            users = get_user_model().objects.filter(username__in=list(self.names))
            self.accounts = {user.get_username(): user for user in users}

    def account(self, username: str | None):
        """The account a name is linked to (``link_accounts`` only), or None."""
        return self.accounts.get(username) if username is not None else None

    def name(self, username: str | None) -> str:
        return self.names.get(username, "") if username is not None else ""

    def owner(self, username: str | None):
        """Who owns here what ``username`` owned there: the importer, or their linked account."""
        return self.account(username) or self.importer

    @property
    def owners(self) -> dict[str, Any]:
        """``{username: owner here}`` for every name (what a kit's ``carry`` is given)."""
        return {username: self.owner(username) for username in self.names}

    def listed(self) -> tuple[list[str], list[str]]:
        """The names kept (as "Name (username)" when the two differ) and the names linked."""
        kept = [
            name if name == username else f"{name} ({username})"
            for username, name in sorted(self.names.items())
            if username not in self.accounts
        ]
        return kept, sorted(self.accounts)
