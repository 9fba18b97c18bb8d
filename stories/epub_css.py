"""The story stylesheet as EPUB readers (and epubcheck's CSS grammar) take it.

``static/css/story.css`` is written for browsers and WeasyPrint; reading systems know an older
CSS: no custom properties, no ``:is()``, and the ``@page`` and ``@media`` rules are the
PDF's and the reading page's, not a book's (a reader lays out its own pages). This makes the
EPUB's copy from it, so the two never drift: the page and print rules dropped, each
``var()`` replaced by its value, each ``:is()`` spelled out.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import product

COMMENT = re.compile(r"/\*.*?\*/", re.S)
VAR = re.compile(r"var\(\s*(--[\w-]+)\s*(?:,\s*([^()]*(?:\([^()]*\)[^()]*)*))?\)")
IS = re.compile(r":is\(([^()]*)\)")


def _blocks(css: str) -> list[tuple[str, str]]:
    """Top-level ``(prelude, body)`` pairs (a body may hold blocks of its own)."""
    out, depth, start, prelude = [], 0, 0, ""
    for i, ch in enumerate(css):
        if ch == "{":
            if depth == 0:
                prelude, start = css[start:i].strip(), i + 1
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                out.append((prelude, css[start:i]))
                start = i + 1
    return out


def _split(text: str, sep: str) -> list[str]:
    """``text`` split on ``sep`` outside brackets and quotes."""
    parts, depth, quote, current = [], 0, "", []
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def _expand(selector: str) -> list[str]:
    pieces = IS.split(selector)  # text, inner, text, inner...
    options = [[p] if i % 2 == 0 else _split(p, ",") for i, p in enumerate(pieces)]
    return ["".join(choice) for choice in product(*options)]


def epub_stylesheet(css: str, keep_font_face: Callable[[str], bool] = lambda block: True) -> str:
    css = COMMENT.sub("", css)
    rules: list[tuple[str, list[tuple[str, str]]]] = []
    custom: dict[str, str] = {}
    faces: list[str] = []
    for prelude, body in _blocks(css):
        if prelude.startswith("@font-face"):
            if keep_font_face(body):
                faces.append(f"@font-face {{{body}}}")
            continue
        if prelude.startswith("@"):
            continue  # @page, @media: the PDF's and the reading page's
        declarations = []
        for declaration in _split(body, ";"):
            name, _, value = declaration.partition(":")
            name = name.strip()
            if name.startswith("--"):
                custom.setdefault(name, value.strip())
            else:
                declarations.append((name, value.strip()))
        selectors = [s for selector in _split(prelude, ",") for s in _expand(selector)]
        rules.append((",\n".join(selectors), declarations))

    def resolve(value: str, depth: int = 0) -> str:
        if depth > 8:
            return value

        def one(match: re.Match) -> str:
            name, fallback = match.group(1), match.group(2)
            found = custom.get(name, fallback if fallback is not None else "")
            return resolve(found.strip(), depth + 1)

        return VAR.sub(one, value)

    out = faces[:]
    for selectors, declarations in rules:
        body = "".join(f"\n  {name}: {resolve(value)};" for name, value in declarations)
        out.append(f"{selectors} {{{body}\n}}")
    return "\n\n".join(out) + "\n"
