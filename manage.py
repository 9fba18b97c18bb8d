#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import atexit
import gc
import os
import sys


def main():
    """Run administrative tasks."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amnesia_site.settings")
    # At exit, the objects alive then are frozen out of the interpreter's last garbage
    # collection, which would walk everything Django and the site made (modules, classes and
    # functions, all in reference cycles) to free memory the system takes back anyway: a third
    # of a second of CPU per command (a worker, the server, a replay). Only finalizers of objects
    # in cycles are skipped; atexit handlers (logging's flush among them) still run before.
    atexit.register(gc.freeze)
    try:
        from django.core.management import execute_from_command_line
    except ImportError as exc:
        raise ImportError(
            "Couldn't import Django. Are you sure it's installed and "
            "available on your PYTHONPATH environment variable? Did you "
            "forget to activate a virtual environment?"
        ) from exc
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
