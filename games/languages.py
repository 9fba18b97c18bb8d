"""The site's languages, and the table's: one place that says which language a page speaks.

A person reads the site in the language they chose (the switcher; remembered on their profile
when they are logged in, ``amnesia_site.accounts``). A *table* has a language of its own, set
when it is made: the screens the whole table looks at (the projector, the pass-the-laptop
screens) speak it, whoever's browser shows them, through :func:`use_table_language`. A seat's
pages (one player's phone) speak it too, unless that browser's person chose another language
with the switcher (:func:`use_seat_language`): the phone is theirs alone.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation


def codes() -> list[str]:
    """The language codes the site speaks, as Django writes them (``en``, ``pt-br``, ``ja``)."""
    return [code for code, _name in settings.LANGUAGES]


def normalise(code: str | None) -> str | None:
    """A language code as the site stores it, or None when the site does not speak it.

    Any case, and a gettext locale name too: ``pt_BR``, ``PT-BR`` and ``pt-br`` are ``pt-br``.
    """
    if not code:
        return None
    found = translation.to_language(code.strip()).lower()
    return found if found in codes() else None


def table_language(table) -> str:
    """The language the table plays in (the site's default for a table that names none)."""
    return normalise(getattr(table, "language", "")) or settings.LANGUAGE_CODE


def use_table_language(request, table) -> str:
    """Speak the table's language for the rest of this request (the page, its messages, its
    Content-Language header); returns it. LocaleMiddleware chooses afresh on the next one."""
    language = table_language(table)
    translation.activate(language)
    request.LANGUAGE_CODE = language
    # The page's language is not the reader's to choose: base.html offers no switcher.
    request.speaks_table_language = True
    return language


def use_seat_language(request, table) -> str:
    """A seat's own pages (its page, rules and impressions: one player's phone): the table's
    language, unless this browser chose another with the footer's switcher (Django's language
    cookie, which only the switcher sets). The browser's own Accept-Language does not count: a
    phone set to English at a Japanese table still reads the table in Japanese."""
    chosen = normalise(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)) or table_language(table)
    translation.activate(chosen)
    request.LANGUAGE_CODE = chosen
    return chosen
