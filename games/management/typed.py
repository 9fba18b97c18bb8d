"""How a command is typed at this checkout: ``manage.py`` under the interpreter running now.

A message that tells a person to run another command names it as they can run it: the set-up's
``.venv/bin/python manage.py ...`` (README.md's words), not a bare ``python``, which on a
fresh machine is a Python without Django, or none at all."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from django.conf import settings


def manage_py(*words: str) -> str:
    """``.venv/bin/python manage.py WORDS`` when the interpreter is under the checkout (its path
    as typed from there, symlinks kept), else the interpreter's whole path."""
    python = Path(os.path.abspath(sys.executable))
    try:
        shown = str(python.relative_to(Path(settings.BASE_DIR)))  # the system's separators
    except ValueError:
        shown = str(python)
    return " ".join([shown, "manage.py", *words])
