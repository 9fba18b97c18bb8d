"""The card being drawn: the times of day and their palettes, colour mixing, and
:class:`Canvas`, whose shapes and building blocks (sky, sun, ridges, trees, clouds) every
scene paints with, in fractions of the card's size at ``SUPERSAMPLE`` times its resolution.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageOps

Color = tuple[int, int, int]
Point = tuple[float, float]

SUPERSAMPLE = 2

# sky top, sky horizon, light (sun or moon), land tint, tint amount, land brightness
TIMES: dict[str, tuple[Color, Color, Color, Color, float, float]] = {
    "dawn": ((92, 96, 170), (255, 182, 150), (255, 236, 190), (255, 170, 170), 0.18, 0.92),
    "day": ((58, 128, 222), (182, 222, 250), (255, 252, 225), (255, 255, 255), 0.0, 1.0),
    "dusk": ((52, 28, 92), (250, 122, 62), (255, 196, 90), (150, 60, 110), 0.28, 0.78),
    "night": ((6, 10, 36), (34, 52, 102), (240, 240, 220), (40, 55, 120), 0.45, 0.5),
}


def mix(a: Sequence[int], b: Sequence[int], t: float) -> Color:
    return tuple(round(a[i] + (b[i] - a[i]) * t) for i in range(3))  # type: ignore[return-value]


def scale(c: Sequence[int], f: float) -> Color:
    return tuple(max(0, min(255, round(v * f))) for v in c[:3])  # type: ignore[return-value]


class Canvas:
    """A card being drawn: coordinates are fractions of the width and height."""

    def __init__(
        self, size: tuple[int, int], rng: random.Random, time: str, accent: Color | None = None
    ) -> None:
        self.w, self.h = size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE
        self.rng = rng
        self.time = time
        (self.sky_top, self.sky_low, self.light, self.tint, self.tint_amount, self.bright) = TIMES[
            time
        ]
        if accent is not None:
            self.sky_top = mix(self.sky_top, scale(accent, 0.4), 0.6)
            self.sky_low = mix(self.sky_low, accent, 0.7)
            self.tint = mix(self.tint, accent, 0.6)
        self.img = Image.new("RGB", (self.w, self.h))
        self.draw = ImageDraw.Draw(self.img)

    # colours -----------------------------------------------------------------------------
    def land(self, c: Color, haze: float = 0.0) -> Color:
        """A ground colour lit by the time of day, faded toward the horizon by ``haze``."""
        lit = scale(mix(c, self.tint, self.tint_amount), self.bright)
        return mix(lit, self.sky_low, haze)

    @property
    def night(self) -> bool:
        return self.time == "night"

    # geometry ----------------------------------------------------------------------------
    def p(self, x: float, y: float) -> tuple[float, float]:
        return (x * self.w, y * self.h)

    def poly(self, pts: Sequence[Point], fill: Color) -> None:
        self.draw.polygon([self.p(x, y) for x, y in pts], fill=fill)

    def rect(self, x0: float, y0: float, x1: float, y1: float, fill: Color) -> None:
        self.draw.rectangle([self.p(x0, y0), self.p(x1, y1)], fill=fill)

    def circle(self, x: float, y: float, r: float, fill: Color) -> None:
        """A circle of radius ``r`` (a fraction of the height) centred on (x, y)."""
        cx, cy, rr = x * self.w, y * self.h, r * self.h
        self.draw.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], fill=fill)

    def ellipse(self, x: float, y: float, rx: float, ry: float, fill: Color) -> None:
        self.draw.ellipse([self.p(x - rx, y - ry), self.p(x + rx, y + ry)], fill=fill)

    def line(self, pts: Sequence[Point], fill: Color, width: float) -> None:
        self.draw.line(
            [self.p(x, y) for x, y in pts], fill=fill, width=max(1, round(width * self.h))
        )

    def gradient(self, y0: float, y1: float, top: Color, bottom: Color) -> Image.Image:
        """A full-width vertical gradient image covering y0..y1."""
        h = max(1, round((y1 - y0) * self.h))
        column = Image.new("RGB", (1, h))
        column.putdata([mix(top, bottom, i / max(1, h - 1)) for i in range(h)])
        return column.resize((self.w, h), Image.Resampling.NEAREST)

    def fill_gradient(
        self, pts: Sequence[Point] | None, y0: float, y1: float, top: Color, bottom: Color
    ) -> None:
        """Fill a polygon (or the band y0..y1 when ``pts`` is None) with a vertical gradient."""
        grad = self.gradient(y0, y1, top, bottom)
        top_px = round(y0 * self.h)
        if pts is None:
            self.img.paste(grad, (0, top_px))
            return
        mask = Image.new("L", (self.w, self.h), 0)
        ImageDraw.Draw(mask).polygon([self.p(x, y) for x, y in pts], fill=255)
        mask = mask.crop((0, top_px, self.w, top_px + grad.height))
        self.img.paste(grad, (0, top_px), mask)

    def glow(self, x: float, y: float, r: float, color: Color, strength: float = 0.6) -> None:
        """A soft round halo (radius r, a fraction of the height)."""
        size = max(2, round(2 * r * self.h))
        # radial_gradient reaches 181 at the edge of the inscribed circle, 255 in the corners
        falloff = Image.radial_gradient("L").point(
            lambda v: round(255 * strength * max(0.0, 1 - v / 181) ** 2)
        )
        mask = falloff.resize((size, size), Image.Resampling.BILINEAR)
        box = (round(x * self.w - size / 2), round(y * self.h - size / 2))
        self.img.paste(color, box, mask)

    def veil(self, y0: float, y1: float, color: Color, alpha: float) -> None:
        """A band of mist, thickest in its middle."""
        h = max(2, round((y1 - y0) * self.h))
        column = Image.new("L", (1, 64))
        column.putdata([round(255 * alpha * math.sin(math.pi * i / 63)) for i in range(64)])
        mask = column.resize((self.w, h), Image.Resampling.BILINEAR)
        self.img.paste(color, (0, round(y0 * self.h)), mask)

    # building blocks ---------------------------------------------------------------------
    def sky(self, horizon: float = 1.0, top: Color | None = None, low: Color | None = None) -> None:
        self.fill_gradient(None, 0, horizon, top or self.sky_top, low or self.sky_low)

    def sun(self, x: float, y: float, r: float = 0.07) -> None:
        if self.night:
            self.glow(x, y, r * 4, (200, 210, 255), 0.35)
            bx, by = x + r * 0.35 * self.h / self.w, y - r * 0.2
            behind = self.img.getpixel((min(self.w - 1, round(bx * self.w)), round(by * self.h)))
            self.circle(x, y, r * 0.8, self.light)
            self.circle(bx, by, r * 0.68, behind)
        else:
            self.glow(x, y, r * 5, self.light, 0.55)
            self.circle(x, y, r, self.light)

    def stars(self, count: int = 60, below: float = 0.6) -> None:
        if not self.night:
            return
        for _ in range(count):
            x, y = self.rng.random(), self.rng.random() * below
            self.circle(x, y, 0.002 + 0.004 * self.rng.random() ** 3, (255, 255, 235))

    def ridge(self, base: float, amp: float, peaks: int, jag: float = 0.3) -> list[Point]:
        """A mountain skyline: ``peaks`` summits around height ``base``, then the bottom edge."""
        rng = self.rng
        pts: list[Point] = [(-0.05, base + amp * 0.3)]
        for i in range(peaks):
            x = (i + 0.5 + rng.uniform(-0.25, 0.25)) / peaks
            top = base - amp * rng.uniform(0.55, 1.0)
            pts.append((x - 0.5 / peaks, base - amp * rng.uniform(0.0, 0.3)))
            pts.append((x - 0.2 / peaks, top + amp * rng.uniform(0.1, jag)))
            pts.append((x, top))
            pts.append((x + 0.2 / peaks, top + amp * rng.uniform(0.1, jag)))
        pts.append((1.05, base + amp * 0.2))
        return [*pts, (1.05, 1.01), (-0.05, 1.01)]

    def hills(self, base: float, amp: float, waves: float, phase: float) -> list[Point]:
        pts = [
            (i / 60, base - amp * (0.5 + 0.5 * math.sin(waves * math.tau * i / 60 + phase)))
            for i in range(61)
        ]
        return [*pts, (1.0, 1.01), (0.0, 1.01)]

    def pine(self, x: float, y: float, h: float, color: Color) -> None:
        w = h * 0.22 * self.h / self.w
        self.rect(x - w * 0.08, y - h * 0.2, x + w * 0.08, y, scale(color, 0.7))
        for k in range(3):
            top = y - h + k * h * 0.22
            bottom = y - h * 0.15 + k * h * 0.05 - (2 - k) * h * 0.18
            spread = w * (0.6 + 0.25 * k)
            self.poly([(x, top), (x + spread, bottom), (x - spread, bottom)], color)

    def bare_tree(self, x: float, y: float, h: float, color: Color, width: float) -> None:
        rng = self.rng

        def branch(x0: float, y0: float, angle: float, length: float, wd: float, depth: int):
            x1 = x0 + math.cos(angle) * length * self.h / self.w
            y1 = y0 - math.sin(angle) * length
            self.line([(x0, y0), (x1, y1)], color, wd)
            if depth:
                for turn in (-0.45, 0.4):
                    branch(
                        x1,
                        y1,
                        angle + turn + rng.uniform(-0.15, 0.15),
                        length * 0.68,
                        wd * 0.62,
                        depth - 1,
                    )

        branch(x, y, math.pi / 2 + rng.uniform(-0.1, 0.1), h * 0.45, width, 3)

    def clouds(self, count: int, y0: float, y1: float, color: Color) -> None:
        for _ in range(count):
            x, y = self.rng.uniform(0.05, 0.95), self.rng.uniform(y0, y1)
            w = self.rng.uniform(0.08, 0.16)
            for dx, dy, r in ((-0.6, 0.2, 0.5), (0, 0, 0.75), (0.6, 0.15, 0.55), (0.25, 0.3, 0.5)):
                self.ellipse(x + dx * w, y + dy * w, r * w, r * w * 0.75 * self.w / self.h, color)

    def finish(self, mirror: bool) -> Image.Image:
        img = ImageOps.mirror(self.img) if mirror else self.img
        return img
