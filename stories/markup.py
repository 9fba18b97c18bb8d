"""The print template's HTML as a small tree, for the downloads that are not the PDF.

The EPUB needs XHTML (well-formed XML, one file per chapter) and the single HTML file needs its
pictures inline; both start from the very HTML the PDF is printed from (``stories.pdf.
book_html``). The standard library's HTML parser reads it into :class:`Element` nodes, which
are written back out by :func:`to_xhtml` or :func:`to_html`.

The tree is also a filter: only the elements and attributes a book is made of survive it. No
template lets markup through (narration is escaped), so this is the second line of defence,
like the PDF's URL fetcher: a ``<script>``, ``<style>``, ``<iframe>``, an event handler or a
``style`` attribute never reaches a download, whatever the HTML held.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html import escape
from html.parser import HTMLParser

# What the book's templates are made of (and nothing that runs, loads or styles by itself).
ALLOWED_TAGS = frozenset(
    """a abbr article aside b blockquote br caption cite code dd div dl dt em figcaption figure
    footer h1 h2 h3 h4 h5 h6 header hr i img li nav ol p q section small span strong sub sup
    table tbody td tfoot th thead time tr ul""".split()
)
# Elements whose content goes too (never shown as text).
DROPPED_WITH_CONTENT = frozenset(
    "script style template iframe object embed noscript svg math head title form".split()
)
VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
ALLOWED_ATTRIBUTES = frozenset(
    "class id lang href src alt width height role scope colspan rowspan title datetime".split()
)


@dataclass
class Element:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Element | str] = field(default_factory=list)

    def iter(self) -> Iterator[Element]:
        yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.iter()

    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def find(self, test: Callable[[Element], bool]) -> Element | None:
        return next((e for e in self.iter() if test(e)), None)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("root")
        self.stack = [self.root]
        self.skipping = 0  # inside an element dropped with its content

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skipping:
            if tag in DROPPED_WITH_CONTENT:
                self.skipping += 1
            return
        if tag in DROPPED_WITH_CONTENT:
            self.skipping = 1
            return
        if tag not in ALLOWED_TAGS:
            return  # the element goes, its text stays (html, body, a stray <font>...)
        kept = {}
        for name, value in attrs:
            name = name.lower()
            if name in ALLOWED_ATTRIBUTES or name.startswith("aria-"):
                kept[name] = value or ""
        element = Element(tag, kept)
        self.stack[-1].children.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID and not self.skipping and tag in ALLOWED_TAGS:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if self.skipping:
            if tag in DROPPED_WITH_CONTENT:
                self.skipping -= 1
            return
        for index in range(len(self.stack) - 1, 0, -1):
            if self.stack[index].tag == tag:
                del self.stack[index:]
                return

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.stack[-1].children.append(data)


def parse(html: str) -> Element:
    """The HTML as a tree under a ``root`` element, filtered (see the module)."""
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


def _attributes(element: Element) -> str:
    return "".join(
        f' {name}="{escape(value, quote=True)}"' for name, value in element.attrs.items()
    )


def to_xhtml(node: Element | str) -> str:
    """XML serialisation (the EPUB's content documents)."""
    if isinstance(node, str):
        return escape(node, quote=False)
    inner = "".join(to_xhtml(child) for child in node.children)
    if node.tag == "root":
        return inner
    attrs = _attributes(node)
    if node.tag in VOID:
        return f"<{node.tag}{attrs}/>"
    return f"<{node.tag}{attrs}>{inner}</{node.tag}>"


def to_html(node: Element | str) -> str:
    """HTML serialisation (the single HTML file)."""
    if isinstance(node, str):
        return escape(node, quote=False)
    inner = "".join(to_html(child) for child in node.children)
    if node.tag == "root":
        return inner
    attrs = _attributes(node)
    if node.tag in VOID:
        return f"<{node.tag}{attrs}>"
    return f"<{node.tag}{attrs}>{inner}</{node.tag}>"


def rewrite_images(root: Element, source: Callable[[str], str | None]) -> None:
    """Each picture's ``src`` replaced by ``source(src)``; a picture it has no answer for is
    taken out (nothing outside the book is ever linked)."""
    for parent in list(root.iter()):
        kept: list[Element | str] = []
        for child in parent.children:
            if isinstance(child, Element) and child.tag == "img":
                new = source(child.attrs.get("src", ""))
                if new is None:
                    continue
                child.attrs["src"] = new
                child.attrs.setdefault("alt", "")
            kept.append(child)
        parent.children = kept


def rewrite_links(root: Element, target: Callable[[str], str | None]) -> None:
    """Each link's ``href`` replaced by ``target(href)``; a link it has no answer for keeps its
    text and loses its address."""
    for element in root.iter():
        if element.tag == "a" and "href" in element.attrs:
            new = target(element.attrs["href"])
            if new is None:
                del element.attrs["href"]
            else:
                element.attrs["href"] = new
