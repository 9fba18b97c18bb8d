"""``manage.py devserver``: ``runserver`` with the site's workers beside it (``make run``).

The supervisor (``amnesia_site.workers.supervise``) runs runserver and the workers as child
processes, stops them all with Ctrl-C, and starts again a worker that died. The workers do not
reload on a code change (runserver does): stop and start again after changing a task.
"""

from __future__ import annotations

import sys
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from amnesia_site.numbers import whole_number
from amnesia_site.workers import lifeline
from amnesia_site.workers.supervise import Supervisor
from amnesia_site.workers.work import worker_commands


def addrport(text: str) -> tuple[str, int | None]:
    """runserver's ``[host:]port`` as (host, port); None for a port runserver will refuse."""
    host, sep, port = text.rpartition(":")
    host = host.strip("[]") if sep else "127.0.0.1"
    return host or "127.0.0.1", whole_number(port, low=1, high=65535)


class Command(BaseCommand):
    help = "runserver and the workers (books, long runs, pictures), started and stopped together."

    def add_arguments(self, parser) -> None:
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument(
            "--no-workers", action="store_true", help="runserver alone (no tasks are run)"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        host, port = addrport(opts["addrport"])
        if port is not None and (held := lifeline.refuse_if_held(host, port)):
            raise CommandError(held)
        server = [sys.executable, "manage.py", "runserver", opts["addrport"]]
        workers = {} if opts["no_workers"] else worker_commands()
        supervisor = Supervisor(("site", server), workers, cwd=str(settings.BASE_DIR))
        raise SystemExit(supervisor.run())
