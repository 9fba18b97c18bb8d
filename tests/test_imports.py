"""The project's own modules import each other without cycles, and at the top of the file.

The import graph is read with ``ast`` (nothing is imported): every ``import`` counts, at any
depth, inside functions too. Relative imports are resolved, and ``from pkg import name`` points
at ``pkg.name`` when that is a module. A strongly connected component of more than one module
(Tarjan) is a cycle: two rooms that need each other, where one should announce and the other
listen (see DESIGN.md, "The shape").

An import inside a function is allowed only with its reason written beside it: a comment on the
same line or on the line just above (``AppConfig.ready``, an optional heavy dependency...).
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("amnesia_site", "games", "stories")


def project_modules() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "." in path.stem:  # makemessages' work copy of a template (x.html.py), for now
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "migrations" in parts:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def imported_names(module: str, path: Path, node: ast.Import | ast.ImportFrom, modules) -> list:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module.split(".")
        if path.name != "__init__.py":
            package = package[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, base] if base else package)
    return [
        f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
        for alias in node.names
    ]


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for name in imported_names(module, path, node, modules):
                while name and name not in modules:  # a name inside a module: the module
                    name = name.rpartition(".")[0]
                if name and name != module:
                    deps.add(name)
        graph[module] = deps
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative (no recursion limit to worry about)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return components


def test_the_graph_is_read():
    graph = import_graph()
    assert "games.services.writing" in graph["games.views"]  # from a package: its module
    assert "games.amnesia_stories.art.render" in graph["games.amnesia_stories.area_store"]


def test_tarjan_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert [c for c in strongly_connected(graph) if len(c) > 1] == [["a", "b", "c"]]


def test_no_import_cycles():
    cycles = [c for c in strongly_connected(import_graph()) if len(c) > 1]
    assert not cycles, "Import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def unexplained_function_imports() -> list[str]:
    found = []
    for path in sorted(project_modules().values()):
        source = path.read_text()
        lines = source.splitlines()
        for function in ast.walk(ast.parse(source, str(path))):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if not isinstance(node, ast.Import | ast.ImportFrom):
                    continue
                line = lines[node.lineno - 1]
                above = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
                if "#" not in line and not above.startswith("#"):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {line.strip()}")
    return sorted(set(found))


def test_imports_inside_functions_say_why():
    found = unexplained_function_imports()
    assert not found, "Move these imports to the top of the module, or say why beside them:\n" + (
        "\n".join(found)
    )


# What a process of the site imports to start (settings, apps, every game's kit, the URLs, the
# WSGI application) must not include the book printer and the font tools: WeasyPrint's import
# alone is about a second of CPU, paid by every web and worker process, command and test
# process. They are imported when a book is printed or a font is read (stories.pdf, stories.fonts).
PRINTING_ONLY = ("weasyprint", "fontTools", "pydyf", "cssselect2", "tinycss2")
# Nor, on SQLite, PostgreSQL's driver: psycopg and libpq cost about 0.4 s of CPU at each start
# (amnesia_site/busy.py reads psycopg's errors only where the backend loaded it).
POSTGRESQL_ONLY = ("psycopg", "psycopg_binary", "psycopg_c")
START = """
import json, os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amnesia_site.settings")
import django
django.setup()
from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver
from games import registry
get_wsgi_application()
get_resolver().url_patterns
[kit.slug for kit in registry.kits()]
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


def test_the_site_starts_without_the_book_printer_the_font_tools_or_an_unused_driver():
    on_sqlite = {**os.environ, "DATABASE_URL": ""}  # the embedded default
    done = subprocess.run(
        [sys.executable, "-c", START],
        cwd=ROOT,
        env=on_sqlite,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = set(json.loads(done.stdout.splitlines()[-1]))
    assert "django" in loaded and "games" in loaded  # the site did start
    assert loaded.isdisjoint(PRINTING_ONLY), sorted(loaded & set(PRINTING_ONLY))
    assert loaded.isdisjoint(POSTGRESQL_ONLY), sorted(loaded & set(POSTGRESQL_ONLY))
