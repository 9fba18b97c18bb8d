"""How many of the project's modules a move's request passes through, per game.

    PYTHONPATH=. .venv/bin/python bench/move_modules.py [GAME ...] [--list]

For each game (all three unless named) a table in play is imported (the long games of the
query-count tests, cut short; for Amnesia a sample game cut where a scene is open), and one
move is posted as the table page posts it (htmx, through Django's test client, logged in),
answered with the table's panel. A first move warms up (imports, template loading, caches);
the second is the one counted: ``sys.setprofile`` sees every Python function called during
the request, and each function's file names its module.

Counted: the project's Python modules (``amnesia_site``, ``games``, ``stories``: a package's
``__init__`` counts as the package) whose code runs during the request. Templates are not
modules: they are counted separately (the templates rendered, as Django's test signal reports
them). ``--list`` prints the modules and templates by name. The database is an in-memory
SQLite one, DEBUG off, as ``bench/move_page.py`` has it.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amnesia_site.settings")
os.environ["DEBUG"] = "0"
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ["DATABASE_URL"] = "sqlite:///:memory:"

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.signals import template_rendered  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from games.models import Table  # noqa: E402
from games.rules import get_game  # noqa: E402
from games.rules.script import parse_script, replay, rules_part  # noqa: E402
from games.services import new_tables, reading  # noqa: E402
from stories.samples import long_script  # noqa: E402
from tests.games.long_games import long_game, next_move  # noqa: E402

GAMES = ("amnesia", "amnesia_stories", "contest")
PACKAGES = ("amnesia_site", "games", "stories")


def module_of(filename: str) -> str | None:
    """The project module a file of code is, or None for code outside the project (Django,
    the standard library) and for the tests' and this bench's own code."""
    try:
        parts = Path(filename).resolve().relative_to(ROOT).with_suffix("").parts
    except ValueError:
        return None
    if not parts or parts[0] not in PACKAGES or "migrations" in parts:
        return None
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def in_play(game: str) -> dict:
    if game != "amnesia":
        return long_game(game, 40)
    script = long_script(30)
    setup, parsed = parse_script(script)
    plain = [rules_part(m) for m in parsed]
    for cut in range(min(40, len(plain)), 0, -1):
        state = replay(setup, plain[:cut]).state
        if state["phase"] == "scene" and not state.get("insist"):
            return {**script, "moves": script["moves"][:cut]}
    raise SystemExit("no open scene in the sample game")


def move_data(table: Table) -> dict:
    """The next move as the page posts it: in Amnesia a suggestion by someone other than the
    narrator (its own form's fields), in the others the next legal move as JSON."""
    table.refresh_from_db()
    if table.game != "amnesia":
        return {"move": json.dumps(next_move(table)), "expected_seq": table.last_seq}
    state = reading.state_of(table)
    return {
        "by": next(n for n in state["seats"] if n != state["narrator"]),
        "do": "suggest",
        "text": "What if the door was open?",
        "expected_seq": table.last_seq,
        "expected_turn": get_game("amnesia").turn_marker(state),
    }


def count(client: Client, user, game: str) -> tuple[list[str], list[str]]:
    table = new_tables.import_script(in_play(game), user, name=f"Modules {game}")
    url = f"{table.get_absolute_url()}move/"
    warm = client.post(url, move_data(table), HTTP_HX_REQUEST="true")
    assert warm.status_code == 200, warm.status_code
    data = move_data(table)  # chosen before the count starts
    files: set[str] = set()
    templates: list[str] = []

    def seen(frame, event, _arg) -> None:
        if event == "call":
            files.add(frame.f_code.co_filename)

    def rendered(sender, template, **_kwargs) -> None:
        templates.append(template.name or "(inline)")

    template_rendered.connect(rendered)
    sys.setprofile(seen)
    try:
        response = client.post(url, data, HTTP_HX_REQUEST="true")
    finally:
        sys.setprofile(None)
        template_rendered.disconnect(rendered)
    assert response.status_code == 200, response.status_code
    modules = sorted({m for m in map(module_of, files) if m is not None})
    return modules, sorted(set(templates))


def main() -> None:
    args = sys.argv[1:]
    listing = "--list" in args
    games = [a for a in args if not a.startswith("--")] or list(GAMES)
    setup_test_environment()
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench", password="bench-password")
    client = Client()
    client.force_login(user)
    everything: set[str] = set()
    for game in games:
        modules, templates = count(client, user, game)
        everything.update(modules)
        by_package = {p: sum(1 for m in modules if m.split(".")[0] == p) for p in PACKAGES}
        split = ", ".join(f"{p} {n}" for p, n in by_package.items())
        print(f"{game}: {len(modules)} project modules ({split}); {len(templates)} templates")
        if listing:
            print("  modules:   " + " ".join(modules))
            print("  templates: " + " ".join(templates))
    print(f"all games: {len(everything)} distinct project modules")


if __name__ == "__main__":
    main()
