"""The referee's error messages, translated for the page.

The referee (``games/rules``) cannot import Django, so its errors (IllegalMove, BadScript)
carry an English ``template`` marked with ``N_`` and its ``params`` (some of them English
fragments, marked with ``N_`` too); ``message`` is the English sentence. Pages show ``referee_message(exc)``, never ``exc.message``: the
template translated into the active language with the parameters filled in. The ``referee replay``
command keeps ``exc.message``: its JSON output is English by contract.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from games.rules import BadScript, IllegalMove
from games.rules.errors import Marked
from games.services.validating import NothingToUndo, StaleMove


def _parameter(value: Any) -> Any:
    """A parameter as the reader should see it: a nested error as its sentence, an English
    fragment the referee marked (``N_``, say "for a flashback") in the reader's language, and
    anything else (names, numbers) as it is."""
    if isinstance(value, IllegalMove | BadScript):
        return referee_message(value)
    if isinstance(value, Marked):
        return gettext(value)
    return value


def referee_message(exc: IllegalMove | BadScript) -> str:
    """``exc``'s message in the active language (its English message when the
    translation cannot be filled in)."""
    template = getattr(exc, "template", None)
    if not isinstance(template, str):
        return exc.message
    params: dict[str, Any] = {
        name: _parameter(value) for name, value in getattr(exc, "params", {}).items()
    }
    translated = gettext(template) if template else template
    if not params:
        return translated
    try:
        return translated.format(**params)
    except (KeyError, IndexError, ValueError, AttributeError, TypeError):
        # A translation with a placeholder the template does not have, or broken braces.
        return exc.message


def service_message(exc: StaleMove | NothingToUndo) -> str:
    """A refusal of the write path itself (the table moved on, nothing to undo: a code, a
    %-style template and its parameters) in the active language."""
    translated = gettext(exc.template)
    return translated % exc.params if exc.params else translated


def error_message(exc: BaseException) -> str:
    """What refused a move or a script, in the active language: the referee's errors and the
    write path's own through their templates, any other exception by its own text."""
    if isinstance(exc, IllegalMove | BadScript):
        return referee_message(exc)
    if isinstance(exc, StaleMove | NothingToUndo):
        return service_message(exc)
    return str(exc)
