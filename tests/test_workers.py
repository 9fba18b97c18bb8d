"""The supervisor that ``make run`` (``manage.py devserver``) and ``make serve`` run the site
and its workers under: a worker that dies is started again, and Ctrl-C or SIGTERM stops every
child, grandchildren included (runserver's reloaded child, Granian's workers). Small Python
children stand in for the server and the workers; ``tests/test_serve_processes.py`` runs the real ones."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import psutil
import pytest

from amnesia_site.workers import work
from tests.serving import ROOT
from tests.workers import wait_for

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals")

# A child that writes its pid (and, for the server, its own child's) to a file, then waits.
INNER = (
    "import os, sys, time; from pathlib import Path; from amnesia_site.workers import lifeline;"
    " lifeline.when_started(); (Path(sys.argv[1]) / 'server-child').write_text(str(os.getpid()))"
    "; time.sleep(120)"
)
CHILD = f"INNER = {INNER!r}\n" + textwrap.dedent(
    """
    import subprocess, sys, time
    from pathlib import Path
    folder, name = Path(sys.argv[1]), sys.argv[2]
    if name == "server":  # like runserver's reloader: a child of its own, where Django's
        # start (WorkersConfig.ready) asks to die with its parent, then says its pid
        inner = subprocess.Popen([sys.executable, "-c", INNER, str(folder)])
    (folder / f"{name}.{__import__('os').getpid()}").write_text("")
    time.sleep(120)
    """
)

SUPERVISOR = textwrap.dedent(
    """
    import sys
    from amnesia_site.workers.supervise import Supervisor
    folder, child = sys.argv[1], sys.argv[2]
    run = lambda name: [sys.executable, "-c", child, folder, name]
    code = Supervisor(("server", run("server")), {"books worker": run("books")}).run()
    sys.exit(code)
    """
)


def pids(folder, name: str) -> list[int]:
    return sorted(int(p.suffix[1:]) for p in folder.glob(f"{name}.*"))


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.mark.parametrize("stop_with", [signal.SIGINT, signal.SIGTERM])
def test_a_dead_worker_is_started_again_and_a_signal_stops_everything(tmp_path, stop_with):
    log = tmp_path / "supervisor.log"
    with log.open("wb") as out:
        supervisor = subprocess.Popen(
            [sys.executable, "-c", SUPERVISOR, str(tmp_path), CHILD],
            cwd=ROOT,
            stdout=out,
            stderr=out,
        )
    try:
        wait_for(lambda: pids(tmp_path, "books") and pids(tmp_path, "server"), "children", log=log)
        wait_for(lambda: (tmp_path / "server-child").exists(), "the server's child", log=log)
        (first,) = pids(tmp_path, "books")
        os.kill(first, signal.SIGKILL)
        wait_for(lambda: len(pids(tmp_path, "books")) == 2, "the worker again", log=log)
        assert "The books worker stopped (exit status -9): started again" in log.read_text()
        everyone = [
            *pids(tmp_path, "books"),
            *pids(tmp_path, "server"),
            int((tmp_path / "server-child").read_text()),
        ]
        supervisor.send_signal(stop_with)
        assert supervisor.wait(timeout=30) == 0
        wait_for(lambda: not any(alive(pid) for pid in everyone), "every child stopped")
    finally:
        if supervisor.poll() is None:
            supervisor.kill()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG")
def test_a_killed_supervisor_takes_its_children_and_theirs_with_it(tmp_path):
    """kill -9 of the supervisor (``serve``, ``devserver``): nobody is told to stop, and
    still the server, its own child (runserver's reloaded one, Granian's worker) and the
    workers end, by the kernel's parent-death signal."""
    log = tmp_path / "supervisor.log"
    with log.open("wb") as out:
        supervisor = subprocess.Popen(
            [sys.executable, "-c", SUPERVISOR, str(tmp_path), CHILD],
            cwd=ROOT,
            stdout=out,
            stderr=out,
        )
    everyone: list[int] = []
    try:
        wait_for(lambda: pids(tmp_path, "books") and pids(tmp_path, "server"), "children", log=log)
        wait_for(lambda: (tmp_path / "server-child").exists(), "the server's child", log=log)
        everyone = [
            *pids(tmp_path, "books"),
            *pids(tmp_path, "server"),
            int((tmp_path / "server-child").read_text()),
        ]
        supervisor.kill()
        supervisor.wait(timeout=10)
        wait_for(lambda: not any(alive(pid) for pid in everyone), "every child gone", timeout=15)
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
        for pid in everyone:  # on the code as it was: the orphans, stopped here
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_the_workers_make_run_and_make_serve_start():
    commands = work.worker_commands("python")
    manage = ["python", "manage.py", "worker", "--skip-checks"]  # serve ran the checks
    assert commands == {
        "books worker": [*manage, "--queues", "books"],
        "long-run worker": [*manage, "--queues", "long"],
        "pictures worker": [*manage, "--queues", "pictures"],
    }
