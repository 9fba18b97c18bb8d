"""The browser tests wait for what they need (a response, a swap, an element), never for a fixed
time: a fixed wait is too short on a busy machine and too long on an idle one. The exception is
a test about time itself (a timer, a countdown, the draft autosave's pause), and each such line
says why in a `# timing:` comment. This reads tests/browser/ like grep would:

    grep -rnE 'wait_for_timeout|sleep\\(' tests/browser/ | grep -v '# timing:'

must print nothing."""

from __future__ import annotations

import re
from pathlib import Path

BROWSER_TESTS = Path(__file__).resolve().parent / "browser"
FIXED_WAIT = re.compile(r"wait_for_timeout|sleep\(")
REASON = re.compile(r"# timing: \S")


def unexplained_waits(folder: Path) -> list[str]:
    found = []
    for path in sorted(folder.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if FIXED_WAIT.search(line) and not REASON.search(line):
                found.append(f"{path.relative_to(folder.parent.parent)}:{number}: {line.strip()}")
    return found


def test_the_browser_tests_wait_for_events_not_for_time() -> None:
    assert unexplained_waits(BROWSER_TESTS) == []


def test_the_rule_finds_a_fixed_wait(tmp_path: Path) -> None:
    folder = tmp_path / "tests" / "browser"
    folder.mkdir(parents=True)
    (folder / "test_x.py").write_text(
        "page.wait_for_timeout(500)\n"
        "time.sleep(1)\n"
        "page.clock.fast_forward(1000)\n"
        "page.wait_for_timeout(300)  # timing: the countdown must not move\n"
    )
    assert unexplained_waits(folder) == [
        "tests/browser/test_x.py:1: page.wait_for_timeout(500)",
        "tests/browser/test_x.py:2: time.sleep(1)",
    ]
