"""Children that end with their parent, and a port that is not served twice.

The supervisor (``supervise.py``) puts each child in a process group of its own, so that a
stop reaches the child's own children too. But a group is no tie to the parent: when the
supervisor itself was killed (kill -9, the terminal closed under it), Granian, its workers
and the task workers kept running, and kept the port; a ``serve`` started
again bound the same port beside them (Granian asks for SO_REUSEPORT), and the phones reached
whichever answered.

So, on Linux, each child asks the kernel for a signal when its parent dies
(``prctl(PR_SET_PDEATHSIG)``): the supervisor's children in a ``preexec_fn`` (between fork and
exec: the setting survives exec), and the processes they start in turn, which the supervisor
cannot reach (Granian's workers, runserver's reloaded child), when Django starts in them
(``WorkersConfig.ready``), told so by ``DIE_WITH_PARENT`` in the environment the supervisor
gives its children. The signal is SIGTERM: Granian stops its workers, a task worker leaves
after its task. Elsewhere (macOS, Windows) nothing is asked, and the supervisor's
ordinary stop is all there is.

And ``serve`` and ``devserver`` refuse a port already held (:func:`port_in_use`), saying which
process holds it (:func:`port_holders`: psutil reads /proc/net/tcp* and /proc/*/fd), or
"another program" when it cannot be known (another user's process).
"""

from __future__ import annotations

import ctypes
import errno
import os
import signal
import socket
import sys
from collections.abc import Callable

import psutil

DIE_WITH_PARENT = "DIE_WITH_PARENT"
_PR_SET_PDEATHSIG = 1


def _load_prctl():
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    prctl.restype = ctypes.c_int
    return prctl


# Found once, here: a preexec_fn runs between fork and exec and must load nothing.
_PRCTL = _load_prctl()


def die_with_parent(sig: int = signal.SIGTERM, parent: int | None = None) -> bool:
    """Ask the kernel to send ``sig`` to this process when its parent (``parent``, or the
    one it has now) ends; whether it could be asked (Linux only). A parent already gone by
    then (the process was handed to init or a subreaper) gets the signal sent at once."""
    if _PRCTL is None:
        return False
    expected = os.getppid() if parent is None else parent
    unsigned = ctypes.c_ulong
    if _PRCTL(_PR_SET_PDEATHSIG, unsigned(int(sig)), unsigned(0), unsigned(0), unsigned(0)):
        return False
    if expected == 1 or os.getppid() != expected:
        os.kill(os.getpid(), sig)
    return True


def preexec_die_with_parent(sig: int = signal.SIGTERM) -> Callable[[], None] | None:
    """A ``preexec_fn`` for ``Popen``: the child dies with the process that starts it (None
    where the kernel cannot be asked)."""
    if _PRCTL is None:
        return None
    parent = os.getpid()

    def child() -> None:
        die_with_parent(sig, parent)

    return child


def when_started() -> None:
    """In a process Django starts in: die with the parent when the supervisor asked so."""
    if os.environ.get(DIE_WITH_PARENT) == "1":
        die_with_parent()


def port_in_use(host: str, port: int) -> bool:
    """Whether a server listens on ``host``:``port`` already (binding it, as Granian and
    runserver will, is refused). Any other refusal (an address not of this machine, a port
    below 1024) is left for the server to report in its own words."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        # A port left in TIME_WAIT by a server just stopped is free; a listener is not.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host or "0.0.0.0", port))
        except OSError as exc:
            return exc.errno == errno.EADDRINUSE
    return False


def port_holders(port: int) -> str:
    """Who listens on ``port``: "process PID (COMMAND LINE)", each, or "another program"."""
    found: list[str] = []
    try:
        connections = psutil.net_connections(kind="inet")
    except (psutil.Error, OSError):
        connections = []
    for conn in connections:
        if conn.status != psutil.CONN_LISTEN or not conn.laddr or conn.laddr.port != port:
            continue
        if conn.pid is None:
            continue
        try:
            process = psutil.Process(conn.pid)
            command = " ".join(process.cmdline()) or process.name()
        except psutil.Error:
            continue
        text = f"process {conn.pid} ({command[:160]})"
        if text not in found:
            found.append(text)
    return ", ".join(found[:4]) if found else "another program"


def refuse_if_held(host: str, port: int) -> str | None:
    """The sentence a server command stops with when the port is held, else None."""
    if not port_in_use(host, port):
        return None
    return f"Port {port} is already in use, by {port_holders(port)}: stop it, or serve on another port."
