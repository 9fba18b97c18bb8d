"""Small SVG charts drawn on the server, for the report pages and their PDFs alike.

No chart library and no script: each function returns one ``<svg>`` element (safe to put
in a template) whose every label is escaped here. Colours are the Okabe-Ito palette, which
colour-blind readers can tell apart, and every line also gets its own dash pattern and
marker, so a chart still reads in black and white. Text and axes use ``currentColor``: the
page's own text colour, dark or light.
"""

from __future__ import annotations

import math
from html import escape
from itertools import count

from django.utils import formats
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from amnesia_site import lists

PALETTE = ["#E69F00", "#56B4E9", "#009E73", "#D55E00", "#CC79A7", "#0072B2", "#F0E442", "#999"]
DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 2 1 2", "3 3"]
MARKERS = ["circle", "square", "diamond", "triangle", "circle", "square", "diamond", "triangle"]

WIDTH = 420
FONT = 14
_ids = count(1)


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def text_width(text: str, font: float = FONT) -> float:
    """About how wide a label is drawn, in the chart's units: a CJK or full-width character an
    em, any other about 0.62 of one (the site's sans serif's digits and lower case; a little
    over, so that two labels estimated apart are apart)."""
    return sum(font if ord(c) >= 0x2E80 else font * 0.62 for c in text)


def _y_axis_label(text: str, top: float, bottom: float) -> str:
    """The y axis's label, turned up along the axis; squeezed to the axis's height when it is
    longer (a figure's long name in Portuguese ran off the chart's top and bottom)."""
    room = bottom - top
    fit = (
        f' textLength="{room:.1f}" lengthAdjust="spacingAndGlyphs"'
        if text_width(text) > room
        else ""
    )
    return (
        f'<text transform="translate(14 {(top + bottom) / 2:.1f}) rotate(-90)" '
        f'text-anchor="middle"{fit}>{_e(text)}</text>'
    )


def _minus(text: str) -> str:
    """A number's text with the reader's minus ("−", as ``_signed`` and the figures' own text
    write one), not the hyphen Python and Django print ("-10"); "-0" is 0."""
    if not text.startswith("-"):
        return text
    return text[1:] if text.strip("-0.,%") == "" else "−" + text[1:]


def _num(value: float) -> str:
    """A chart's number as the reader writes it (3,5 in Portuguese, −2,5), up to two
    decimals."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    if text == "-0":
        return "0"
    places = len(text.partition(".")[2])
    return _minus(formats.number_format(round(value, places), places))


def _percent(value: float) -> str:
    """A share of 0..1 as a whole percent ("36%"; below 0 "−5%")."""
    return _minus(f"{value * 100:.0f}%")


def _signed(value: float) -> str:
    """A chart's value that is a difference, signed as ``figures.show_difference`` signs one
    ("+6,7", "−23"); zero unsigned."""
    sign = "+" if round(value, 2) > 0 else "−" if round(value, 2) < 0 else ""
    return sign + _num(abs(value))


def nice_ticks(lo: float, hi: float, target: int = 5, whole: bool = False) -> list[float]:
    """Round tick values covering ``lo..hi`` (1, 2 or 5 times a power of ten apart); with
    ``whole``, never less than 1 apart (turns, tokens and moves come whole)."""
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / max(target, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    if whole:
        step = max(step, 1)
    start = math.floor(lo / step) * step
    ticks = []
    value = start
    while value <= hi + step * 0.001:
        ticks.append(round(value, 10))
        value += step
    if ticks[-1] < hi:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def _open(title: str, desc: str, height: int) -> tuple[str, str]:
    uid = f"chart{next(_ids)}"
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" aria-labelledby="{uid}-t {uid}-d" '
        f'font-size="{FONT}" font-family="inherit">'
        f'<title id="{uid}-t">{_e(title)}</title><desc id="{uid}-d">{_e(desc)}</desc>'
    )
    return head, uid


def _marker(kind: str, x: float, y: float, colour: str) -> str:
    r = 3.5
    if kind == "square":
        return f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r}" height="{2 * r}" fill="{colour}"/>'
    if kind == "diamond":
        pts = f"{x:.1f},{y - r - 1:.1f} {x + r + 1:.1f},{y:.1f} {x:.1f},{y + r + 1:.1f} {x - r - 1:.1f},{y:.1f}"
        return f'<polygon points="{pts}" fill="{colour}"/>'
    if kind == "triangle":
        pts = f"{x:.1f},{y - r - 1:.1f} {x + r + 1:.1f},{y + r:.1f} {x - r - 1:.1f},{y + r:.1f}"
        return f'<polygon points="{pts}" fill="{colour}"/>'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{colour}"/>'


def _legend(
    names: list[str], top: float, left: float, right: float, bars: bool = False
) -> tuple[str, float]:
    """Legend entries flowing left to right, wrapping; returns the markup and its height.
    Lines show their dash and marker; bars a swatch of their colour."""
    parts, x, y = [], left, top
    for i, name in enumerate(names):
        label = name if len(name) <= 44 else name[:43] + "…"
        width = 40 + 7.6 * len(label)
        if x + width > right and x > left:
            x, y = left, y + 21
        colour = PALETTE[i % len(PALETTE)]
        dash = DASHES[i % len(DASHES)]
        if bars:
            key = f'<rect x="{x + 4:.1f}" y="{y - 6:.1f}" width="14" height="12" fill="{colour}"/>'
        else:
            key = (
                f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{x + 22:.1f}" y2="{y:.1f}" '
                f'stroke="{colour}" stroke-width="3"'
                + (f' stroke-dasharray="{dash}"' if dash else "")
                + "/>"
                + _marker(MARKERS[i % len(MARKERS)], x + 11, y, colour)
            )
        parts.append(
            f'<g class="chart__legend-item">{key}<text x="{x + 28:.1f}" y="{y + 5:.1f}" '
            f'fill="currentColor">{_e(label)}</text></g>'
        )
        x += width
    return "".join(parts), (y - top) + 21 if names else 0


def line_chart(
    title: str,
    series: dict[str, list[float | None]],
    *,
    x: list[float] | None = None,
    x_label: str = "",
    y_label: str = "",
    height: int = 280,
    bands: dict[str, tuple[list[float | None], list[float | None]]] | None = None,
    bars: dict[str, tuple[list[float | None], list[float | None]]] | None = None,
    signed: bool = False,
) -> SafeString:
    """One line per series over a shared x axis (``x`` defaults to 0, 1, 2, ...); a series
    may have a band (its low and high values at each x, e.g. a 95% interval), drawn shaded
    under its line and said in the text alternative, and interval bars (``bars``: a
    vertical bar with caps from low to high at each x, where few points make a band thin).
    ``signed``: the values are differences, said signed ("+6,7") in the text alternative and
    on the y axis ("+10", as a signed bar chart's). Where a value is below 0 a zero line is
    drawn across the plot: the axis covers 0 and every value, line, band and bar alike."""
    show = _signed if signed else _num
    bands = bands or {}
    bars = bars or {}
    names = list(series)
    longest = max((len(v) for v in series.values()), default=0)
    xs = list(x) if x is not None else list(range(longest))
    values = [v for vals in series.values() for v in vals if v is not None]
    values += [v for lo, hi in bands.values() for v in (*lo, *hi) if v is not None]
    values += [v for lo, hi in bars.values() for v in (*lo, *hi) if v is not None]
    desc = f"{title}{lists.colon()}" + lists.groups().join(
        f"{name} "
        + " · ".join(
            (show(v) if v is not None else "-")
            + _band_text(bands.get(name) or bars.get(name), j, show)
            for j, v in enumerate(vals)
        )
        for name, vals in series.items()
    )
    head, _uid = _open(title, desc[:2000], height)
    if not values or not xs:
        return _empty(head, height)
    legend, legend_h = _legend(names, 14, 56, WIDTH - 10)
    left, right, top, bottom = 56, WIDTH - 16, 14 + legend_h + 6, height - 40
    y_ticks = nice_ticks(min(0, min(values)), max(0, max(values)), whole=_whole(values))
    y_lo, y_hi = y_ticks[0], y_ticks[-1]
    x_lo, x_hi = min(xs), max(xs)
    if x_hi == x_lo:
        x_hi = x_lo + 1

    def px(v: float) -> float:
        return left + (v - x_lo) / (x_hi - x_lo) * (right - left)

    def py(v: float) -> float:
        return bottom - (v - y_lo) / (y_hi - y_lo) * (bottom - top)

    out = [head, legend, '<g class="chart__grid" stroke="currentColor" stroke-opacity="0.18">']
    for t in y_ticks:
        out.append(f'<line x1="{left}" x2="{right}" y1="{py(t):.1f}" y2="{py(t):.1f}"/>')
    out.append("</g>")
    out.append('<g class="chart__axis" fill="currentColor">')
    for t in y_ticks:
        out.append(
            f'<text x="{left - 6}" y="{py(t) + 4:.1f}" text-anchor="end">{_e(show(t))}</text>'
        )
    for t in nice_ticks(x_lo, x_hi, 6, whole=_whole(xs)):
        if x_lo <= t <= x_hi:
            out.append(
                f'<text x="{px(t):.1f}" y="{bottom + 16}" text-anchor="middle">{_e(_num(t))}</text>'
            )
    if x_label:
        out.append(
            f'<text x="{(left + right) / 2}" y="{height - 6}" text-anchor="middle">{_e(x_label)}</text>'
        )
    if y_label:
        out.append(_y_axis_label(y_label, top, bottom))
    out.append("</g>")
    out.append(
        f'<line x1="{left}" x2="{right}" y1="{bottom}" y2="{bottom}" stroke="currentColor" '
        'stroke-opacity="0.6"/>'
    )
    if y_lo < 0:
        # Where even is: a bot's edge below 0 where it loses, above where it wins.
        out.append(
            f'<line class="chart__zero" x1="{left}" x2="{right}" y1="{py(0):.1f}" '
            f'y2="{py(0):.1f}" stroke="currentColor" stroke-opacity="0.6"/>'
        )
    for i, name in enumerate(names):
        if name not in bands:
            continue
        lo, hi = bands[name]
        edge = [
            (j, lo[j], hi[j])
            for j in range(min(len(xs), len(lo), len(hi)))
            if lo[j] is not None and hi[j] is not None
        ]
        if edge:
            ring = [(px(xs[j]), py(h)) for j, _lo, h in edge]
            ring += [(px(xs[j]), py(low)) for j, low, _h in reversed(edge)]
            path = " ".join(f"{a:.1f},{b:.1f}" for a, b in ring)
            out.append(
                f'<polygon class="chart__band" points="{path}" '
                f'fill="{PALETTE[i % len(PALETTE)]}" fill-opacity="0.18" stroke="none"/>'
            )
    for i, name in enumerate(names):
        if name not in bars:
            continue
        lo, hi = bars[name]
        colour = PALETTE[i % len(PALETTE)]
        for j in range(min(len(xs), len(lo), len(hi))):
            if lo[j] is None or hi[j] is None:
                continue
            x_at, y_lo_at, y_hi_at = px(xs[j]), py(lo[j]), py(hi[j])
            out.append(
                f'<g class="chart__interval" stroke="{colour}" stroke-width="2">'
                f'<line x1="{x_at:.1f}" x2="{x_at:.1f}" y1="{y_lo_at:.1f}" y2="{y_hi_at:.1f}"/>'
                f'<line x1="{x_at - 5:.1f}" x2="{x_at + 5:.1f}" y1="{y_lo_at:.1f}" '
                f'y2="{y_lo_at:.1f}"/>'
                f'<line x1="{x_at - 5:.1f}" x2="{x_at + 5:.1f}" y1="{y_hi_at:.1f}" '
                f'y2="{y_hi_at:.1f}"/></g>'
            )
    for i, name in enumerate(names):
        colour = PALETTE[i % len(PALETTE)]
        dash = DASHES[i % len(DASHES)]
        points = [
            (px(xs[j]), py(v)) for j, v in enumerate(series[name]) if v is not None and j < len(xs)
        ]
        if not points:
            continue
        path = " ".join(f"{a:.1f},{b:.1f}" for a, b in points)
        out.append(
            f'<g class="chart__series"><title>{_e(name)}</title>'
            f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2.5" '
            'stroke-linejoin="round"' + (f' stroke-dasharray="{dash}"' if dash else "") + "/>"
        )
        # Markers only where they stay readable.
        if len(points) <= 40:
            out.extend(_marker(MARKERS[i % len(MARKERS)], a, b, colour) for a, b in points)
        out.append("</g>")
    out.append("</svg>")
    return mark_safe("".join(out))


def _band_text(band, j: int, show=_num) -> str:
    if not band or j >= len(band[0]) or j >= len(band[1]):
        return ""
    lo, hi = band[0][j], band[1][j]
    if lo is None or hi is None:
        return ""
    return lists.bracketed(lists.span(show(lo), show(hi)))


def bar_chart(
    title: str,
    labels: list[str],
    series: dict[str, list[float | None]],
    *,
    y_label: str = "",
    y_max: float | None = None,
    percent: bool = False,
    ranges: dict[str, list[tuple[float, float] | None]] | None = None,
    height: int = 260,
    signed: bool = False,
) -> SafeString:
    """Grouped bars: one group per label, one bar per series; ``ranges`` adds whiskers
    (say, the quartiles around a median); ``signed``: the values are differences, each bar's
    value said signed ("+6,7"). A negative value's bar goes down from the zero line, its
    value under it."""
    names = list(series)
    values = [v for vals in series.values() for v in vals if v is not None]
    for rs in (ranges or {}).values():
        values.extend(v for r in rs if r is not None for v in r)
    fmt = _percent if percent else (lambda v: _num(round(v, 1)))
    if signed:
        fmt = lambda v: _signed(round(v, 1))  # noqa: E731
    desc = _grouped_description(title, labels, series, fmt)
    head, _uid = _open(title, desc[:2000], height)
    if not values or not labels:
        return _empty(head, height)
    legend, legend_h = _legend(names, 14, 56, WIDTH - 10, bars=True) if len(names) > 1 else ("", 0)
    bottom: float  # raised below for negative bars' values
    left, right, top, bottom = 56, WIDTH - 12, 14 + legend_h + 8, height - 44
    # The axis covers 0 and every value and whisker, below 0 too: a bot's edge is negative
    # where it loses, and its bar goes down from 0 (it was clipped to nothing at 0).
    lo = min(0.0, min(values))
    hi = y_max if y_max is not None else max(0.0, max(values))
    y_ticks = nice_ticks(lo, hi if hi > lo else lo + 1, whole=not percent and _whole(values))
    if y_max is not None:
        y_ticks = [t for t in y_ticks if t <= y_max] or [lo, y_max]
        if y_ticks[-1] < y_max:
            y_ticks.append(y_max)
    y_lo, y_hi = y_ticks[0], y_ticks[-1]
    span = (y_hi - y_lo) or 1

    def py(v: float) -> float:
        return bottom - (max(y_lo, min(v, y_hi)) - y_lo) / span * (bottom - top)

    group_w = (right - left) / len(labels)
    bar_w = min(44.0, group_w * 0.8 / max(len(names), 1))
    shorts = [label if len(label) <= 16 else label[:15] + "…" for label in labels]
    # Labels wider than their group are drawn one in `every` (each bar's title keeps its own):
    # ten bins of a histogram ran into each other on a phone ("147–222223–298…").
    every = max(1, math.ceil((max(map(text_width, shorts)) + 6) / group_w))
    # A bar's value wider than the bar is turned up along it, over room made above the bars
    # (below them for a negative bar, whose value is under its end).
    value_w = max(text_width(fmt(v), FONT - 2) for v in values)
    turned = value_w > bar_w - 1
    labels_y = bottom + 20
    if turned and any(v >= 0 for vals in series.values() for v in vals if v is not None):
        top += value_w
    # A negative bar's value is under its end (or its whisker's): the bars are raised by as
    # much as the lowest such value needs over the room below it (a share ``f`` of the axis).
    need = value_w + 4 if turned else FONT + 2
    raise_by = 0.0
    for name, vals in series.items():
        whiskers = (ranges or {}).get(name) or []
        for i, value in enumerate(vals):
            if value is None or value >= 0:
                continue
            whisker = whiskers[i] if i < len(whiskers) else None
            end = min(value, whisker[0]) if whisker is not None else value
            f = (max(end, y_lo) - y_lo) / span
            raise_by = max(raise_by, (need - f * (bottom - top)) / (1 - f))
    bottom -= raise_by
    zero = py(0)
    out = [head, legend, '<g class="chart__grid" stroke="currentColor" stroke-opacity="0.18">']
    for t in y_ticks:
        out.append(f'<line x1="{left}" x2="{right}" y1="{py(t):.1f}" y2="{py(t):.1f}"/>')
    out.append('</g><g class="chart__axis" fill="currentColor">')
    for t in y_ticks:
        out.append(
            f'<text x="{left - 6}" y="{py(t) + 4:.1f}" text-anchor="end">{_e(fmt(t))}</text>'
        )
    if y_label:
        out.append(_y_axis_label(y_label, top, bottom))
    for i, short in enumerate(shorts):
        if i % every:
            continue
        cx = left + group_w * (i + 0.5)
        out.append(f'<text x="{cx:.1f}" y="{labels_y}" text-anchor="middle">{_e(short)}</text>')
    out.append("</g>")
    for s, name in enumerate(names):
        colour = PALETTE[s % len(PALETTE)]
        for i, value in enumerate(series[name]):
            if value is None:
                continue
            cx = left + group_w * (i + 0.5)
            x0 = cx - bar_w * len(names) / 2 + bar_w * s
            end = py(value)
            down = value < 0
            y0, y1 = (zero, end) if down else (end, zero)
            out.append(
                f'<rect class="chart__bar" x="{x0 + 1:.1f}" y="{y0:.1f}" width="{bar_w - 2:.1f}" '
                f'height="{y1 - y0:.1f}" fill="{colour}"><title>{_e(label_of(labels, i))} · '
                f"{_e(name)}{lists.colon()}{_e(fmt(value))}</title></rect>"
            )
            label_y = end
            rng = (ranges or {}).get(name)
            if rng and i < len(rng) and rng[i] is not None:
                lo_, hi_ = rng[i]
                mx = x0 + bar_w / 2
                out.append(
                    f'<path d="M{mx:.1f},{py(lo_):.1f}V{py(hi_):.1f}M{mx - 5:.1f},{py(lo_):.1f}'
                    f'h10M{mx - 5:.1f},{py(hi_):.1f}h10" stroke="currentColor" stroke-width="1.5"/>'
                )
                label_y = max(end, py(lo_)) if down else min(end, py(hi_))
            if turned:
                # Read upwards: above the bar from its end, under a negative bar up to its end.
                mx, my = x0 + bar_w / 2 + (FONT - 2) * 0.35, label_y + 3 if down else label_y - 3
                anchor = ' text-anchor="end"' if down else ""
                out.append(
                    f'<text transform="translate({mx:.1f} {my:.1f}) rotate(-90)"{anchor} '
                    f'fill="currentColor" font-size="{FONT - 2}">{_e(fmt(value))}</text>'
                )
                continue
            text_y = label_y + FONT if down else label_y - 4
            out.append(
                f'<text x="{x0 + bar_w / 2:.1f}" y="{text_y:.1f}" text-anchor="middle" '
                f'fill="currentColor" font-size="{FONT - 2}">{_e(fmt(value))}</text>'
            )
    out.append(
        f'<line x1="{left}" x2="{right}" y1="{round(zero, 1):g}" '
        f'y2="{round(zero, 1):g}" stroke="currentColor" stroke-opacity="0.6"/></svg>'
    )
    return mark_safe("".join(out))


def hbar_chart(
    title: str,
    labels: list[str],
    series: dict[str, list[float | None]],
    *,
    x_max: float | None = None,
    percent: bool = False,
) -> SafeString:
    """Horizontal grouped bars, each group's label above its bars: long labels stay whole
    and the chart stays readable on a phone."""
    names = list(series)
    values = [v for vals in series.values() for v in vals if v is not None]
    fmt = _percent if percent else (lambda v: _num(round(v, 1)))
    bar_h = 14
    label_h = 19
    group_h = label_h + bar_h * len(names) + 10
    legend, legend_h = _legend(names, 14, 12, WIDTH - 10, bars=True) if len(names) > 1 else ("", 0)
    top = 14 + legend_h + 4
    height = int(top + group_h * len(labels) + 6)
    desc = _grouped_description(title, labels, series, fmt)
    head, _uid = _open(title, desc[:2000], height)
    if not values or not labels:
        return _empty(head, height)
    left, right = 12, WIDTH - 48
    hi = x_max if x_max is not None else (max(values) or 1)
    out = [head, legend]

    def px(v: float) -> float:
        return left + max(0.0, min(v, hi)) / hi * (right - left)

    for i, label in enumerate(labels):
        y = top + group_h * i
        short = label if len(label) <= 52 else label[:51] + "…"
        out.append(f'<text x="{left}" y="{y + 14:.1f}" fill="currentColor">{_e(short)}</text>')
        for s, name in enumerate(names):
            value = series[name][i] if i < len(series[name]) else None
            by = y + label_h + bar_h * s
            if value is None:
                out.append(
                    f'<text x="{left + 4}" y="{by + bar_h - 3:.1f}" fill="currentColor" '
                    f'font-size="{FONT - 2}" opacity="0.7">—</text>'
                )
                continue
            colour = PALETTE[s % len(PALETTE)]
            out.append(
                f'<rect class="chart__bar" x="{left}" y="{by:.1f}" '
                f'width="{max(px(value) - left, 1):.1f}" height="{bar_h - 2}" fill="{colour}">'
                f"<title>{_e(label)} · {_e(name)}{lists.colon()}{_e(fmt(value))}</title></rect>"
                f'<text x="{px(value) + 5:.1f}" y="{by + bar_h - 3:.1f}" fill="currentColor" '
                f'font-size="{FONT - 2}">{_e(fmt(value))}</text>'
            )
    out.append("</svg>")
    return mark_safe("".join(out))


def _whole(values) -> bool:
    return all(float(v).is_integer() for v in values)


def label_of(labels: list[str], i: int) -> str:
    return labels[i] if i < len(labels) else ""


def _empty(head: str, height: int) -> SafeString:
    """A chart with nothing to draw yet: its frame and a sentence saying so."""
    return mark_safe(
        head + f'<text x="{WIDTH / 2}" y="{height / 2}" text-anchor="middle" '
        f'fill="currentColor">{_e(_no_data())}</text></svg>'
    )


def _grouped_description(title: str, labels: list[str], series: dict, fmt) -> str:
    """The text a screen reader gets for a bar chart: each group's value per series."""
    return f"{title}{lists.colon()}" + lists.groups().join(
        f"{label}{lists.colon()}"
        + lists.separator().join(
            f"{name} {fmt(values[i]) if values[i] is not None else '-'}"
            for name, values in series.items()
            if i < len(values)
        )
        for i, label in enumerate(labels)
    )


def _no_data() -> str:
    return gettext("No data yet")
