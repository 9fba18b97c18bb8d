"""The docs hold together: every relative link of README.md and docs/*.md reaches a file and, with
a #fragment, a heading of it (GitHub's anchors); every file path a page names in backticks is in
the repository. docs/_incoming/ (other sessions' notes waiting to be folded in) is not read.

A span in backticks is taken for a path when it is one word of path characters holding a "/" or
ending in .py, .md, .html, .sh or .toml; an address (/tables/ID/...), a URL or a command is not.
"<slug>" stands for any name (a glob), a template's name (games/table_frame.html) is found under
any templates/ folder, and a bare file name (kit.py) anywhere in the repository."""

from __future__ import annotations

import os
import re
import unicodedata
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Made when the site runs or is set up, never committed: a page may name them.
MADE_AT_RUN_TIME = (".venv/", "media/", "backups/", "staticfiles/")
# Not the project's files: the environment, the build, other sessions' notes.
NOT_READ = {".venv", "node_modules", "media", "staticfiles", "backups", "__pycache__"}

PATH_ENDINGS = (".py", ".md", ".html", ".sh", ".toml")
FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1[^\n]*$", re.M | re.S)
CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.S)
LINK = re.compile(r"(?<!!)\[([^\]]*)\]\(([^)\s]+)\)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$", re.M)
PATH_WORD = re.compile(r"[A-Za-z0-9_.*<>/-]+")


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def without_fences(text: str) -> str:
    """The text with its fenced code blocks blanked (commands and examples, not names)."""
    return FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading's text: its rendered words lower-cased, every character
    but letters, digits, "_", "-" and spaces dropped, spaces made hyphens."""
    text = LINK.sub(r"\1", heading).replace("`", "").replace("*", "")
    text = text.strip().lower()
    kept = "".join(
        c
        for c in text
        if c in " -_" or unicodedata.category(c)[0] in "LMN" or unicodedata.category(c) == "Pc"
    )
    return kept.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading's anchor in a page, a repeated one numbered as GitHub numbers it."""
    seen: dict[str, int] = {}
    found = set()
    for match in HEADING.finditer(without_fences(text)):
        base = anchor(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def link_problems(page: Path, root: Path = ROOT) -> list[str]:
    text = without_fences(page.read_text(encoding="utf-8"))
    text = CODE_SPAN.sub(lambda m: " " * len(m.group(0)), text)
    problems = []
    for match in LINK.finditer(text):
        target = match.group(2)
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:: not a file here
            continue
        name, _, fragment = target.partition("#")
        where = (page.parent / name).resolve() if name else page
        if not where.exists():
            problems.append(f"{page.name}: link to {target}: no such file")
            continue
        if not where.is_relative_to(root):
            problems.append(f"{page.name}: link to {target}: outside the repository")
            continue
        if fragment and where.suffix == ".md":
            if fragment not in anchors(where.read_text(encoding="utf-8")):
                problems.append(f"{page.name}: link to {target}: no heading #{fragment}")
    return problems


def repository_files() -> list[str]:
    files = []
    for folder, subfolders, names in os.walk(ROOT):
        # Hidden folders are tools' caches and git's own, but for CI's (.ci/run).
        subfolders[:] = [
            d for d in subfolders if d not in NOT_READ and (d == ".ci" or not d.startswith("."))
        ]
        relative = Path(folder).relative_to(ROOT)
        if relative.parts[:2] == ("docs", "_incoming"):
            continue
        files += [(relative / name).as_posix() for name in names]
    return files


def named_paths(page: Path) -> list[str]:
    """The spans in backticks of a page that look like a path of the repository."""
    text = without_fences(page.read_text(encoding="utf-8"))
    paths = []
    for match in CODE_SPAN.finditer(text):
        span = match.group(2).strip()
        if not PATH_WORD.fullmatch(span) or span.startswith(("/", "<")):
            continue
        if "/" in span or span.endswith(PATH_ENDINGS):
            paths.append(span)
    return paths


def exists(path: str, files: list[str]) -> bool:
    if path.startswith(MADE_AT_RUN_TIME):
        return True
    pattern = re.sub(r"<[^>]*>", "*", path)
    if path.endswith("/"):  # a folder
        pattern = pattern.rstrip("/")
        return any(fnmatch(f, f"{pattern}/*") for f in files)
    if "/" not in pattern:  # a file's name, wherever it is
        return any(fnmatch(f.rpartition("/")[2], pattern) for f in files)
    if any(fnmatch(f, pattern) for f in files):
        return True
    # A template's name: found under some app's templates/ folder.
    return pattern.endswith(".html") and any(fnmatch(f, f"*templates/{pattern}") for f in files)


def path_problems(page: Path, files: list[str]) -> list[str]:
    return [
        f"{page.name}: `{path}` is not in the repository"
        for path in named_paths(page)
        if not exists(path, files)
    ]


# A command given to run is typed as the set-up makes it runnable (README's words): a bare
# "python" on a fresh machine is a Python without Django (ModuleNotFoundError), or none at all.
BARE_MANAGE_PY = re.compile(r"(?<![\w/\\.-])python3? manage\.py")


def command_problems(page: Path) -> list[str]:
    """Each line of a page (its code blocks included) that runs manage.py under a bare python."""
    return [
        f"{page.name}:{number}: `{match.group(0)}`: write `.venv/bin/python manage.py`"
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        for match in BARE_MANAGE_PY.finditer(line)
    ]


def test_every_command_runs_under_the_setups_python():
    problems = [problem for page in pages() for problem in command_problems(page)]
    assert not problems, "\n".join(problems)


def test_a_bare_python_is_named(tmp_path):
    page = tmp_path / "fake.md"
    page.write_text(
        "Run `python manage.py demo`, or `.venv/bin/python manage.py demo`.\n"
        "```sh\nDATABASE_URL=x python3 manage.py migrate   # a comment\n```\n"
        "Windows: `.venv\\Scripts\\python manage.py serve`; `manage.py worker` alone is a name.\n",
        encoding="utf-8",
    )
    assert command_problems(page) == [
        "fake.md:1: `python manage.py`: write `.venv/bin/python manage.py`",
        "fake.md:3: `python3 manage.py`: write `.venv/bin/python manage.py`",
    ]


def test_every_link_and_named_path_resolves():
    files = repository_files()
    problems = []
    for page in pages():
        problems += link_problems(page) + path_problems(page, files)
    assert not problems, "\n".join(problems)


def test_the_readme_is_a_front_page():
    """The two commands come first, and the page stays short (issue 51: about 150 lines)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = FENCE.search(readme)
    assert first_block is not None
    assert first_block.group(0).splitlines()[1:3] == ["make run", "make test"]
    assert len(readme.splitlines()) <= 160


def test_anchors_follow_githubs_rules():
    text = "# Serving the phones: make serve\n## `make test`: the suite\n## Bots\n## Bots\n"
    assert anchors(text) == {
        "serving-the-phones-make-serve",
        "make-test-the-suite",
        "bots",
        "bots-1",
    }
    assert (
        anchor("The lab (simulations on the dashboard)") == "the-lab-simulations-on-the-dashboard"
    )
    assert anchor("The referee's API") == "the-referees-api"
    assert anchor("Ajuda em português, 日本語") == "ajuda-em-português-日本語"


def test_a_broken_link_or_path_is_named(tmp_path):
    """The checks find what they are for: a missing file, heading or path each named."""
    fake = tmp_path / "docs" / "fake.md"
    fake.parent.mkdir()
    fake.write_text(
        "# Fake\n[a](missing.md) [b](#nowhere) [c](#fake)\n"
        "`games/nothing_here.py`, `games/registry.py`, `/tables/ID/`, `games/<slug>/kit.py`\n"
        "```sh\npython `not/a/path.py`\n```\n",
        encoding="utf-8",
    )
    problems = link_problems(fake, tmp_path) + path_problems(fake, repository_files())
    assert problems == [
        "fake.md: link to missing.md: no such file",
        "fake.md: link to #nowhere: no heading #nowhere",
        "fake.md: `games/nothing_here.py` is not in the repository",
    ]
