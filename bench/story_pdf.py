"""Benchmark: export a 300-scene story as a PDF book, beside one WeasyPrint pass over the
book's own final HTML, the same text as bare HTML, and the download of a kept book.

    DJANGO_SETTINGS_MODULE=amnesia_site.settings .venv/bin/python bench/story_pdf.py [SCENES]

The game is played into an in-memory SQLite database (nothing on disk is touched but a
temporary cache folder). Each rendering runs in its own forked process, so its peak memory
(the kernel's high-water mark of the process, fonts and Pango included) is its own. The bare
rendering is WeasyPrint with no stylesheet, font, cover or table of contents: the ratio is what
the book's typography costs. The pass over the book's own HTML (the same document, fonts,
stylesheet and cover, HTML already made) is the floor of any build: the ratio of the book to it
is what the project's own work around WeasyPrint costs (the log, the chapters, the template,
the cover). Then the book goes the site's way (``stories.printing``): printed once by a worker,
kept, and downloaded through the test client.
"""

from __future__ import annotations

import html
import os
import statistics
import sys
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amnesia_site.settings")
os.environ["DATABASE_URL"] = "sqlite:///:memory:"
CACHE = tempfile.mkdtemp(prefix="story-bench-")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402
from weasyprint import HTML  # noqa: E402

from games.services import new_tables  # noqa: E402
from stories import pdf as story_pdf  # noqa: E402
from stories import services  # noqa: E402
from stories.models import story_for  # noqa: E402
from stories.samples import long_script  # noqa: E402
from tests.workers import run_queued  # noqa: E402

settings.STORY_CACHE_DIR = CACHE


def kib(field: str) -> int:
    """A memory figure of this process from /proc (kB), e.g. VmRSS or VmHWM."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def in_child(render) -> dict:
    """Run ``render()`` (which makes a PDF) in a forked process: its seconds, peak RSS and RSS
    growth in MiB, and the PDF's size and page count (counted after the clock stops)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        start_rss = kib("VmRSS")
        started = time.perf_counter()
        data = render()
        seconds = time.perf_counter() - started
        peak = kib("VmHWM")
        # imported here, after the measure: the parent's memory (and so every figure) stays
        # without pypdf, which only counts the pages
        from pypdf import PdfReader

        pages = len(PdfReader(BytesIO(data)).pages)
        os.write(write, repr((seconds, peak, peak - start_rss, len(data), pages)).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        raw = pipe.read()
    os.waitpid(pid, 0)
    seconds, peak, growth, size, pages = (float(x) for x in raw.strip("()").split(","))
    return {
        "seconds": seconds,
        "peak": peak / 1024,
        "growth": growth / 1024,
        "bytes": size,
        "pages": int(pages),
    }


RUNS = 3


def _median(runs: list[dict]) -> dict:
    return sorted(runs, key=lambda r: r["seconds"])[len(runs) // 2]


def main(scenes: int = 300) -> None:
    setup_test_environment()
    call_command("migrate", verbosity=0)
    owner = get_user_model().objects.create_user(username="bench")
    started = time.perf_counter()
    table = new_tables.import_script(long_script(scenes), owner, name="The Long Night")
    played = time.perf_counter() - started
    story = story_for(table)
    started = time.perf_counter()
    book = services.make_book(story)
    built = time.perf_counter() - started
    passages = [p.text for c in book.chapters for p in c.passages if p.text]
    bare = "<!doctype html><html><body>" + "".join(
        f"<h2>{html.escape(c.title)}</h2>"
        + "".join(f"<p>{html.escape(p.text)}</p>" for p in c.passages if p.text)
        for c in book.chapters
    )
    bare += "</body></html>"

    print(f"story: {len(book.chapters)} chapters, {len(passages)} passages, ", end="")
    print(f"{sum(len(p) for p in passages):,} characters ({table.moves.count()} moves)")
    print(f"set-up: game imported in {played:.1f} s, book built from the log in {built:.2f} s")

    final_html = story_pdf.book_html(book)
    resources = story_pdf.book_resources(book)  # the cover drawn once, as for a kept cover
    # In turns, three times each (a busy machine slows both alike): the median of each.
    book_runs, pass_runs = [], []
    for _ in range(RUNS):
        book_runs.append(in_child(lambda: story_pdf.render_book_pdf(services.make_book(story))))
        pass_runs.append(in_child(lambda: story_pdf.html_to_pdf(final_html, extra=resources)))
    book_run, pass_run = _median(book_runs), _median(pass_runs)
    bare_run = in_child(lambda: HTML(string=bare).write_pdf())

    row = "{:<44} {:>8} {:>11} {:>12} {:>7} {:>9}"
    print()
    print(row.format("", "seconds", "peak RSS", "RSS growth", "pages", "PDF size"))
    for label, run in (
        ("the book, from the log (chapters, HTML, PDF)", book_run),
        ("one WeasyPrint pass, the book's final HTML", pass_run),
        ("bare HTML (same text, no CSS)", bare_run),
    ):
        print(
            row.format(
                label,
                f"{run['seconds']:.2f}",
                f"{run['peak']:.0f} MiB",
                f"+{run['growth']:.0f} MiB",
                run["pages"],
                f"{run['bytes'] / 1024:.0f} KiB",
            )
        )
    print(
        f"ratio book / bare: {book_run['seconds'] / bare_run['seconds']:.1f}x the time, "
        f"{book_run['growth'] / max(bare_run['growth'], 1):.1f}x the memory growth, "
        f"{book_run['peak'] / bare_run['peak']:.2f}x the peak RSS"
    )

    print(
        f"the book against one pass over its final HTML: "
        f"{book_run['seconds'] / pass_run['seconds']:.2f}x the time (medians of {RUNS} in turns; "
        f"runs: book {', '.join(f'{r["seconds"]:.1f}' for r in book_runs)} s, "
        f"pass {', '.join(f'{r["seconds"]:.1f}' for r in pass_runs)} s)"
    )

    # The site's way: the download sends to the waiting page, whose POST queues the build;
    # a worker prints it once, then every download reads the kept file.
    # The worker's loop runs here, in this process: this benchmark's in-memory database is
    # this process's alone.
    client = Client()
    client.force_login(owner)
    url = reverse("stories:pdf", args=[story.pk])
    asked = client.get(url)
    print(f"first download asked: HTTP {asked.status_code} (a long book: the waiting page)")
    client.post(reverse("stories:pdf_status", args=[story.pk]) + "?size=a5")
    started = time.perf_counter()
    run_queued()
    print(f"the worker's build: {time.perf_counter() - started:.2f} s")
    times = []
    for _ in range(7):
        started = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - started)
        assert response.status_code == 200 and response.content.startswith(b"%PDF")
    print(
        f"a kept book's download (the view, median of 7): {statistics.median(times) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
