"""A real Chromium for the browser tests: Debian's, driven by Playwright.

Playwright's own browser download is not used (it cannot be fetched here); scripts/setup.sh
installs Debian's chromium-headless-shell. Without it the tests are skipped on a developer's machine and fail
in CI, where a skipped browser suite would hide a broken install.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread, which makes Django refuse database
# calls from test code unless told that this is safe (it is: the loop never runs Django code).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Debian's headless shell (package chromium-headless-shell): Chromium's engine without the
# desktop browser around it, which is what Playwright itself runs for headless tests. The full
# browser in headless mode runs its own interface pages and processes beside ours: on the same
# ten browser tests the shell took about 38% less CPU time (36 s against 59 s, machine busy).
# Where only the full browser is installed, its binary (not the /usr/bin/chromium wrapper,
# whose desktop flags add GPU emulation); CHROMIUM=path picks another.
HEADLESS_SHELL = Path("/usr/lib/chromium/chromium-headless-shell")
DEBIAN_BINARY = Path("/usr/lib/chromium/chromium")
CHROMIUM = Path(
    os.environ.get("CHROMIUM")
    or next((str(p) for p in (HEADLESS_SHELL, DEBIAN_BINARY) if p.exists()), str(HEADLESS_SHELL))
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    # No GPU process drawing for the compositor, and no software emulation of a GPU: the pages
    # are rasterized and composited on the CPU directly.
    "--disable-gpu-compositing",
    "--disable-software-rasterizer",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 10_000


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        message = (
            f"{CHROMIUM} is missing: run scripts/setup.sh as root to install"
            " chromium-headless-shell."
        )
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser, transactional_db, live_server) -> Iterator[object]:
    """A fresh page with its own cookies, against the live server (its `base_url`)."""
    context = browser.new_context(base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    yield page
    context.close()
