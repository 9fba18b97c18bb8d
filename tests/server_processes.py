"""The processes a served site runs, read from outside (tests/test_serve*.py): Granian's
environment, whether a process still runs."""

from __future__ import annotations

import psutil


def granian_environment(serve_pid: int) -> dict[str, str]:
    """The environment of the Granian process ``serve`` started (a child of it)."""
    for child in psutil.Process(serve_pid).children():
        if any("granian" in part for part in child.cmdline()):
            return child.environ()
    raise AssertionError(f"no Granian process under serve ({serve_pid})")


def running_still(process: psutil.Process) -> bool:
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
