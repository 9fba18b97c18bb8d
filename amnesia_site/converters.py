"""What a URL may carry where it names a secret or a key, checked before any view (or query)
sees it: each kind with its own alphabet and length, so anything else (a NUL, a space, a
thousand characters) simply matches no URL and is answered 404 on every engine. PostgreSQL
refuses a NUL in a query parameter with an error; SQLite looks it up and finds nothing.

- ``<token:…>``: a seat's secret link (``games.models.new_token``: URL-safe base64, at most
  the 64 characters its column holds);
- ``<secret:…>``: a story's unlisted link (``stories.models.new_secret``, at most 40);
- ``<key:…>``: a word from a fixed list (a picture's size, a built-in card's id).

Registered here, once, by the URLconfs that use them (``from amnesia_site import
converters``); ``<str:…>`` and ``<path:…>`` are used by none (tests/test_urls.py).
"""

from __future__ import annotations

from django.urls import register_converter


class _Word:
    regex = ""

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class Token(_Word):
    regex = "[A-Za-z0-9_-]{1,64}"


class Secret(_Word):
    regex = "[A-Za-z0-9_-]{1,40}"


class Key(_Word):
    regex = "[A-Za-z0-9_-]{1,40}"


register_converter(Token, "token")
register_converter(Secret, "secret")
register_converter(Key, "key")
