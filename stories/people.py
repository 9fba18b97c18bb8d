"""How a person is named in the story downloads' metadata.

One small function so that when authors get a display-name profile, this is the one place to
point at it.
"""

from __future__ import annotations


def display_name(user) -> str:
    """The name a user is credited by: their full name, else their username."""
    return user.get_full_name() or user.get_username()
