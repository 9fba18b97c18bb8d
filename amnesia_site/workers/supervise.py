"""The site and its workers as one thing to start and stop (``make run``, ``make serve``).

A small supervisor, in the process that ``make`` started: it starts the site's server
(runserver or Granian) and the workers (``work.worker_commands``) as child processes, each in
a process group of its own and each ending when the supervisor does, killed or not
(``lifeline.py``); it forwards Ctrl-C and SIGTERM to every one of them, and stops the workers
when the server stops; a worker that dies is started again (after a pause that grows while it
keeps dying at once, so a broken set-up does not spin).

POSIX (Linux, macOS): signals to each child's process group (runserver's reloader and its
child, Granian and its workers). Windows: ``terminate()`` on each child (a console's Ctrl-C
reaches every process of the console anyway). Only Linux is exercised by the tests here.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from amnesia_site.workers import lifeline

POSIX = os.name == "posix"
# How long children get to stop after the signal before they are killed.
STOP_GRACE = 10.0
# A worker that lived less than this was "dying at once": the next start waits longer.
QUICK_DEATH = 5.0
MAX_PAUSE = 30.0


@dataclass
class Child:
    name: str
    command: list[str]
    restart: bool
    process: subprocess.Popen | None = None
    started: float = 0.0
    pause: float = 0.5
    next_start: float = 0.0
    starts: int = field(default=0)


class Supervisor:
    def __init__(
        self,
        server: tuple[str, list[str]],
        workers: dict[str, list[str]],
        *,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        log: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.children = [Child(server[0], server[1], restart=False)]
        self.children += [Child(name, cmd, restart=True) for name, cmd in workers.items()]
        self.env = env
        self.cwd = cwd
        self.log = log or sys.stderr
        self.clock = clock
        self.stopping: int | None = None

    def say(self, text: str) -> None:
        self.log.write(text + "\n")
        self.log.flush()

    def start(self, child: Child) -> None:
        extra: dict = {"process_group": 0} if POSIX else {}
        if not POSIX:
            extra["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
        # Killed itself (kill -9), the supervisor stops nobody: each child dies with it, and
        # the processes the children start die with theirs (lifeline.py).
        preexec = lifeline.preexec_die_with_parent()
        if preexec is not None:
            extra["preexec_fn"] = preexec
        env = {**(os.environ if self.env is None else self.env), lifeline.DIE_WITH_PARENT: "1"}
        child.process = subprocess.Popen(child.command, env=env, cwd=self.cwd, **extra)
        child.started = self.clock()
        child.starts += 1

    def _on_signal(self, signum, _frame) -> None:
        self.stopping = signum

    def run(self) -> int:
        """Start everything, watch, and stop everything; the server's exit status (0 when
        stopped by a signal)."""
        previous = {
            sig: signal.signal(sig, self._on_signal)
            for sig in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None))
            if sig is not None
        }
        try:
            for child in self.children:
                self.start(child)
            return self._watch()
        finally:
            self.stop_all()
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _watch(self) -> int:
        server = self.children[0]
        while self.stopping is None:
            code = server.process.poll()
            if code is not None:
                self.say(f"The {server.name} stopped (exit status {code}): stopping the workers.")
                return code
            now = self.clock()
            for child in self.children[1:]:
                self._mind(child, now)
            time.sleep(0.2)
        return 0

    def _mind(self, child: Child, now: float) -> None:
        if child.process is None:
            if now >= child.next_start:
                self.start(child)
            return
        code = child.process.poll()
        if code is None:
            return
        lived = now - child.started
        child.pause = min(child.pause * 2, MAX_PAUSE) if lived < QUICK_DEATH else 0.5
        self.say(
            f"The {child.name} stopped (exit status {code}): started again in {child.pause:.1f} s."
        )
        child.process = None
        child.next_start = now + child.pause

    def stop_all(self) -> None:
        running = [c.process for c in self.children if c.process and c.process.poll() is None]
        for process in running:
            _signal(process, signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE
        for process in running:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                _signal(process, signal.SIGKILL if POSIX else signal.SIGTERM, force=True)
                process.wait(timeout=5)
        if POSIX:  # what a child left in its group (runserver's reloaded child, say)
            for child in self.children:
                if child.process is not None:
                    try:
                        os.killpg(child.process.pid, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass


def _signal(process: subprocess.Popen, sig: int, force: bool = False) -> None:
    try:
        if POSIX:
            os.killpg(process.pid, sig)
        elif force:
            process.kill()
        else:
            process.terminate()
    except (ProcessLookupError, PermissionError):
        pass
