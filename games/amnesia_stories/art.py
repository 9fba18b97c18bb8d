"""Generated landscape art for the 48 built-in area cards.

``render_area(card_id, size)`` draws the same picture for the same id every time: the layout
comes from a ``random.Random`` seeded with a hash of the id (this is card art, not the referee,
whose randomness lives in the game state). Card ``i`` shows one of 16 scenes in one of three
variants (see ``games.amnesia_stories.area_texts``); each variant has its own time of day, palette and
composition, and half of them are mirrored, so cards of one scene still look different.

Everything is drawn in fractions of the card's size at twice the resolution and scaled down
(each pixel the mean of its 2x2 block), so the thumbnail and the large card are the same
picture.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw, ImageOps

from games.amnesia_stories.area_texts import AREA_IDS, area_scene

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


# Night skies differ from scene to scene, so dark cards stay apart across the table.
NIGHT_ACCENTS: dict[str, Color] = {
    "sea": (24, 44, 120),
    "forest": (20, 96, 80),
    "desert": (110, 50, 140),
    "cave": (40, 60, 110),
    "castle": (70, 40, 120),
    "village": (30, 70, 150),
    "swamp": (50, 110, 70),
    "volcano": (150, 40, 40),
    "lake": (60, 120, 170),
    "waterfall": (30, 90, 120),
    "island": (130, 50, 120),
    "tower": (80, 50, 150),
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


# -- the scenes ---------------------------------------------------------------------------


def mountains(c: Canvas) -> None:
    c.sky()
    c.stars()
    c.sun(c.rng.uniform(0.55, 0.85), 0.22 if c.time == "day" else 0.36)
    snow = c.land((245, 248, 255))
    layers = [
        ((140, 158, 196), 0.55, 0.28, 4, 0.55),
        ((84, 98, 146), 0.7, 0.36, 3, 0.25),
        ((46, 56, 92), 0.9, 0.3, 2, 0.0),
    ]
    for color, base, amp, peaks, haze in layers:
        pts = c.ridge(base, amp, peaks)
        c.fill_gradient(pts, base - amp, 1.0, c.land(color, haze), c.land(scale(color, 0.6)))
        if haze > 0.2:
            for i in range(1, len(pts) - 3):
                x, y = pts[i]
                if y < base - amp * 0.6 and pts[i - 1][1] > y < pts[i + 1][1]:
                    d = amp * 0.22
                    c.poly(
                        [
                            (x, y),
                            (x + d * 0.45, y + d),
                            (x + d * 0.15, y + d * 0.8),
                            (x, y + d * 1.05),
                            (x - d * 0.2, y + d * 0.75),
                            (x - d * 0.45, y + d),
                        ],
                        mix(snow, c.land(color, haze), 0.15),
                    )


def sea(c: Canvas) -> None:
    horizon = c.rng.uniform(0.48, 0.56)
    c.sky(horizon)
    c.stars(below=horizon)
    sx = c.rng.uniform(0.25, 0.75)
    c.sun(sx, horizon - 0.12)
    c.fill_gradient(None, horizon, 1.0, c.land((40, 120, 190)), c.land((12, 48, 104)))
    # the sun's path on the water
    glint = mix(c.land((40, 120, 190)), c.light, 0.55)
    for k in range(26):
        y = horizon + 0.012 + k * 0.018
        w = 0.015 + k * 0.004
        for _ in range(2):
            x = sx + c.rng.uniform(-1, 1) * w * 1.6
            c.rect(x - w * 0.6, y, x + w * 0.6, y + 0.004 + k * 0.0003, glint)
    crest = c.land((150, 200, 235))
    for k in range(9):
        y = horizon + 0.06 + k * 0.05
        for _ in range(4):
            x = c.rng.random()
            c.line([(x - 0.05, y), (x, y - 0.012), (x + 0.05, y)], crest, 0.006)
    # a sailing ship
    x, y = (sx - 0.3 if sx > 0.5 else sx + 0.3), horizon + 0.08
    hull, sail = c.land((70, 40, 30)), c.land((245, 235, 215))
    c.poly(
        [(x - 0.09, y - 0.03), (x + 0.09, y - 0.03), (x + 0.06, y + 0.02), (x - 0.06, y + 0.02)],
        hull,
    )
    c.line([(x, y - 0.03), (x, y - 0.28)], hull, 0.008)
    c.poly([(x + 0.005, y - 0.27), (x + 0.07, y - 0.06), (x + 0.005, y - 0.06)], sail)
    c.poly([(x - 0.005, y - 0.22), (x - 0.055, y - 0.07), (x - 0.005, y - 0.07)], sail)


def forest(c: Canvas) -> None:
    c.sky(0.8)
    c.stars(below=0.4)
    c.sun(c.rng.uniform(0.3, 0.7), 0.25)
    c.fill_gradient(None, 0.6, 1.0, c.land((50, 100, 55)), c.land((22, 56, 30)))
    rows = [
        ((64, 120, 88), 0.52, 0.16, 22, 0.45),
        ((34, 92, 54), 0.68, 0.26, 12, 0.2),
        ((16, 58, 32), 0.9, 0.4, 7, 0.0),
    ]
    for color, base, height, count, haze in rows:
        c.fill_gradient(
            c.hills(base, 0.04, 2, c.rng.random() * 6),
            base - 0.05,
            1.0,
            c.land(color, haze),
            c.land(scale(color, 0.8), haze),
        )
        for i in range(count):
            x = (i + c.rng.uniform(0, 0.8)) / count
            c.pine(x, base + 0.02, height * c.rng.uniform(0.8, 1.15), c.land(color, haze))
    # a path into the trees
    x = c.rng.uniform(0.35, 0.65)
    c.poly(
        [(x - 0.015, 0.9), (x + 0.015, 0.9), (x + 0.12, 1.01), (x - 0.1, 1.01)],
        c.land((120, 100, 64)),
    )


def desert(c: Canvas) -> None:
    c.sky(0.7)
    c.stars(below=0.55)
    c.sun(c.rng.uniform(0.2, 0.8), 0.2 if c.time == "day" else 0.3, 0.09)
    # a pyramid on the horizon
    x = c.rng.uniform(0.55, 0.8)
    c.poly([(x, 0.3), (x + 0.2, 0.62), (x - 0.2, 0.62)], c.land((222, 176, 110), 0.1))
    c.poly([(x, 0.3), (x + 0.2, 0.62), (x + 0.05, 0.62)], c.land((170, 120, 64), 0.1))
    dunes = [
        ((236, 190, 112), 0.64, 0.08, 0.2),
        ((222, 156, 78), 0.76, 0.12, 0.05),
        ((196, 122, 56), 0.9, 0.1, 0.0),
    ]
    for color, base, amp, haze in dunes:
        pts = c.hills(base, amp, c.rng.uniform(0.7, 1.3), c.rng.random() * 6)
        c.fill_gradient(pts, base - amp, 1.0, c.land(color, haze), c.land(scale(color, 0.75)))
    # a cactus
    x, y = c.rng.uniform(0.12, 0.3), 0.93
    green = c.land((60, 120, 60))
    c.line([(x, y), (x, y - 0.25)], green, 0.03)
    c.line([(x - 0.035, y - 0.1), (x - 0.035, y - 0.17)], green, 0.02)
    c.line([(x - 0.035, y - 0.1), (x, y - 0.1)], green, 0.02)
    c.line([(x + 0.03, y - 0.14), (x + 0.03, y - 0.21)], green, 0.02)
    c.line([(x + 0.03, y - 0.14), (x, y - 0.14)], green, 0.02)


def snowfield(c: Canvas) -> None:
    c.sky(0.65, low=mix(c.sky_low, (235, 240, 250), 0.4))
    c.stars(below=0.5)
    c.sun(c.rng.uniform(0.2, 0.8), 0.3, 0.05)
    far = c.ridge(0.5, 0.12, 5, 0.5)
    c.fill_gradient(far, 0.35, 1.0, c.land((200, 215, 235), 0.35), c.land((170, 190, 220), 0.3))
    for color, base, amp, haze in (
        ((232, 240, 250), 0.66, 0.06, 0.1),
        ((250, 252, 255), 0.8, 0.08, 0.0),
    ):
        pts = c.hills(base, amp, c.rng.uniform(0.8, 1.6), c.rng.random() * 6)
        c.fill_gradient(pts, base - amp, 1.0, c.land(color, haze), c.land((170, 196, 228), haze))
    dark = c.land((60, 48, 52))
    for _ in range(c.rng.randint(3, 5)):
        x = c.rng.uniform(0.05, 0.95)
        y = c.rng.uniform(0.72, 0.86)
        c.bare_tree(x, y, c.rng.uniform(0.16, 0.3), dark, 0.012)
    # footprints across the snow
    x0 = c.rng.uniform(0.2, 0.4)
    for k in range(8):
        t = k / 7
        c.ellipse(
            x0 + t * 0.4 + (k % 2) * 0.012, 0.97 - t * 0.2, 0.006, 0.006, c.land((150, 170, 205))
        )


def cave(c: Canvas) -> None:
    # the world seen through the mouth of the cave
    c.sky(0.7)
    c.stars(below=0.6)
    c.sun(c.rng.uniform(0.4, 0.6), 0.35, 0.06)
    c.fill_gradient(
        c.ridge(0.7, 0.15, 3), 0.5, 1.0, c.land((110, 140, 170), 0.4), c.land((80, 110, 90), 0.2)
    )
    c.fill_gradient(None, 0.75, 1.0, c.land((90, 120, 70)), c.land((60, 80, 50)))
    rock, deep = c.land((92, 66, 50)), c.land((46, 32, 26))
    cx, top = c.rng.uniform(0.42, 0.58), c.rng.uniform(0.18, 0.28)
    mouth = [
        (cx + 0.32 * math.cos(a) * 1.0, 0.95 - (0.95 - top) * math.sin(a))
        for a in [i * math.pi / 40 for i in range(41)]
    ]
    frame = [(-0.01, -0.01), (1.01, -0.01), (1.01, 1.01), *mouth, (-0.01, 1.01)]
    c.fill_gradient(frame, 0.0, 1.0, deep, rock)
    # an inner rim of lighter stone
    for k in range(len(mouth) - 1):
        (x0, y0), (x1, y1) = mouth[k], mouth[k + 1]
        c.line([(x0, y0), (x1, y1)], c.land((140, 104, 78)), 0.012)
    for _ in range(9):
        x = c.rng.uniform(0.02, 0.98)
        y = min((y for xx, y in mouth if abs(xx - x) < 0.03), default=0.0)
        length = c.rng.uniform(0.06, 0.16)
        if y < 0.02:
            y = c.rng.uniform(0.02, 0.1)
        c.poly([(x - 0.02, y - 0.02), (x + 0.02, y - 0.02), (x, y + length)], deep)
    c.fill_gradient(None, 0.93, 1.0, rock, deep)
    if c.time in ("night", "dusk"):
        fx = cx + c.rng.choice([-0.38, 0.38])
        c.glow(fx, 0.88, 0.25, (255, 140, 50), 0.75)
        c.poly([(fx - 0.035, 0.93), (fx + 0.035, 0.93), (fx, 0.8)], (255, 150, 40))
        c.poly([(fx - 0.018, 0.93), (fx + 0.018, 0.93), (fx, 0.85)], (255, 230, 120))


def castle(c: Canvas) -> None:
    c.sky()
    c.stars()
    c.sun(c.rng.uniform(0.1, 0.3), 0.25, 0.06)
    c.clouds(2, 0.08, 0.25, mix(c.sky_low, (255, 255, 255), 0.5))
    x0 = c.rng.uniform(0.42, 0.58)
    base = 0.62
    far = c.hills(0.7, 0.08, 1.5, c.rng.random() * 6)
    c.fill_gradient(far, 0.6, 1.0, c.land((110, 150, 110), 0.3), c.land((70, 110, 60), 0.2))
    hill = [
        (x0 + 0.75 * math.cos(a), base + 0.02 + 0.42 * (1 - math.sin(a)))
        for a in [i * math.pi / 40 for i in range(41)]
    ]
    c.fill_gradient(
        [*hill, (-0.1, 1.01), (1.1, 1.01)], base, 1.0, c.land((86, 140, 70)), c.land((40, 80, 40))
    )
    stone, dark = c.land((176, 166, 156)), c.land((120, 112, 108))
    c.rect(x0 - 0.2, base - 0.16, x0 + 0.2, base + 0.02, stone)
    for k in range(9):
        x = x0 - 0.2 + k * 0.05
        c.rect(x, base - 0.19, x + 0.025, base - 0.16, stone)
    for dx, h, w in ((-0.22, 0.28, 0.06), (0.22, 0.28, 0.06), (0.0, 0.38, 0.07)):
        c.rect(x0 + dx - w, base - h, x0 + dx + w, base + 0.02, stone)
        c.poly(
            [
                (x0 + dx - w * 1.3, base - h),
                (x0 + dx + w * 1.3, base - h),
                (x0 + dx, base - h - 0.15),
            ],
            c.land((60, 70, 140)),
        )
        c.line([(x0 + dx, base - h - 0.15), (x0 + dx, base - h - 0.22)], dark, 0.005)
        c.poly(
            [
                (x0 + dx, base - h - 0.22),
                (x0 + dx + 0.05, base - h - 0.2),
                (x0 + dx, base - h - 0.18),
            ],
            c.land((210, 40, 40)),
        )
        window = (255, 210, 90) if c.night else dark
        c.rect(x0 + dx - 0.012, base - h + 0.06, x0 + dx + 0.012, base - h + 0.11, window)
    c.ellipse(x0, base - 0.02, 0.04, 0.06, dark)
    c.rect(x0 - 0.04, base - 0.02, x0 + 0.04, base + 0.02, dark)


def village(c: Canvas) -> None:
    c.sky(0.6)
    c.stars(below=0.45)
    c.sun(c.rng.uniform(0.6, 0.9), 0.18, 0.06)
    c.fill_gradient(
        c.hills(0.5, 0.08, 1.2, c.rng.random() * 6),
        0.4,
        1.0,
        c.land((110, 160, 90), 0.3),
        c.land((90, 140, 70), 0.2),
    )
    c.fill_gradient(None, 0.62, 1.0, c.land((140, 186, 80)), c.land((90, 140, 50)))
    # furrows of the fields
    for k in range(6):
        y = 0.86 + k * 0.025
        c.line([(0, y), (1, y - 0.02)], c.land((110, 160, 60)), 0.006)
    houses = sorted((c.rng.uniform(0.05, 0.95), c.rng.uniform(0.62, 0.8)) for _ in range(6))
    for x, y in sorted(houses, key=lambda h: h[1]):
        w, h = c.rng.uniform(0.05, 0.075), c.rng.uniform(0.07, 0.1)
        wall = c.land((236, 216, 176))
        roof = c.land(c.rng.choice([(190, 64, 44), (160, 70, 40), (120, 60, 90)]))
        c.rect(x - w, y - h, x + w, y, wall)
        c.poly([(x - w * 1.25, y - h), (x + w * 1.25, y - h), (x, y - h - w * 1.3)], roof)
        window = (255, 214, 100) if c.time in ("night", "dusk") else c.land((80, 90, 110))
        c.rect(x - w * 0.6, y - h * 0.7, x - w * 0.2, y - h * 0.35, window)
        c.rect(x + w * 0.2, y - h * 0.7, x + w * 0.55, y - h * 0.05, c.land((110, 70, 40)))
        if c.time in ("night", "dusk"):
            c.glow(x - w * 0.4, y - h * 0.5, 0.04, (255, 200, 100), 0.4)
    # a winding road
    road = c.land((210, 180, 130))
    pts = [(0.5 + 0.15 * math.sin(t * 3.5), 0.62 + t * 0.4) for t in [i / 20 for i in range(21)]]
    c.line(pts, road, 0.02)


def ruins(c: Canvas) -> None:
    c.sky(0.75)
    c.stars(below=0.5)
    c.sun(c.rng.uniform(0.15, 0.85), 0.3, 0.06)
    c.fill_gradient(None, 0.7, 1.0, c.land((140, 150, 80)), c.land((90, 110, 50)))
    stone, shade = c.land((214, 198, 160)), c.land((160, 142, 110))
    floor = 0.78
    c.rect(0.08, floor - 0.02, 0.92, floor + 0.03, shade)
    heights = [c.rng.choice([0.45, 0.42, 0.2, 0.33, 0.1]) for _ in range(6)]
    heights[1] = heights[2] = 0.45
    for k, h in enumerate(heights):
        x = 0.14 + k * 0.145
        c.rect(x - 0.03, floor - h, x + 0.03, floor, stone)
        c.rect(x + 0.012, floor - h, x + 0.03, floor, shade)
        c.rect(x - 0.042, floor - 0.03, x + 0.042, floor, shade)
        if h > 0.4:
            c.rect(x - 0.045, floor - h - 0.03, x + 0.045, floor - h, shade)
        else:
            c.poly(
                [(x - 0.03, floor - h), (x + 0.03, floor - h - 0.04), (x + 0.03, floor - h)], stone
            )
    # a lintel over the two tall columns, and a fallen drum
    c.rect(0.14 + 0.145 - 0.05, floor - 0.53, 0.14 + 0.29 + 0.05, floor - 0.47, stone)
    c.ellipse(0.7, floor + 0.09, 0.07, 0.035, stone)
    c.ellipse(0.64, floor + 0.09, 0.025, 0.035, shade)
    for _ in range(14):
        x = c.rng.random()
        c.poly(
            [(x - 0.01, 1.0), (x, 0.9 + c.rng.random() * 0.05), (x + 0.01, 1.0)],
            c.land((70, 100, 40)),
        )


def swamp(c: Canvas) -> None:
    green_sky = mix(c.sky_low, (170, 190, 120), 0.4)
    c.sky(0.6, low=green_sky)
    c.stars(below=0.4)
    c.sun(c.rng.uniform(0.2, 0.8), 0.3, 0.05)
    c.fill_gradient(None, 0.55, 1.0, c.land((80, 100, 58)), c.land((46, 58, 34)))
    water = c.land((70, 96, 80))
    for _ in range(5):
        x, y = c.rng.uniform(0.1, 0.9), c.rng.uniform(0.66, 0.95)
        c.ellipse(x, y, c.rng.uniform(0.1, 0.22), c.rng.uniform(0.025, 0.05), water)
        c.ellipse(x - 0.02, y - 0.008, 0.05, 0.006, mix(water, c.sky_low, 0.4))
    trunk = c.land((44, 38, 30))
    for _ in range(c.rng.randint(3, 4)):
        c.bare_tree(
            c.rng.uniform(0.05, 0.95),
            c.rng.uniform(0.62, 0.9),
            c.rng.uniform(0.35, 0.6),
            trunk,
            0.018,
        )
    for _ in range(10):
        x, y = c.rng.random(), c.rng.uniform(0.8, 1.0)
        c.line([(x, y), (x + 0.01, y - 0.07)], c.land((60, 90, 40)), 0.005)
    c.veil(0.45, 0.75, c.land((210, 220, 190)), 0.5)
    if c.night or c.time == "dusk":
        for _ in range(4):
            x, y = c.rng.uniform(0.1, 0.9), c.rng.uniform(0.55, 0.8)
            c.glow(x, y, 0.05, (160, 255, 190), 0.7)
            c.circle(x, y, 0.008, (220, 255, 230))


def volcano(c: Canvas) -> None:
    red_sky = mix(c.sky_low, (210, 70, 40), 0.45)
    c.sky(1.0, top=mix(c.sky_top, (60, 20, 30), 0.5), low=red_sky)
    c.stars(count=30, below=0.3)
    cx = c.rng.uniform(0.4, 0.6)
    # the plume of smoke
    smoke = mix(c.land((90, 84, 84)), red_sky, 0.2)
    for k in range(8):
        r = 0.05 + k * 0.02
        c.ellipse(
            cx + 0.03 * k + c.rng.uniform(-0.02, 0.02), 0.25 - k * 0.035, r * 0.9, r * 1.2, smoke
        )
    c.glow(cx, 0.3, 0.3, (255, 120, 40), 0.7)
    cone = [(cx - 0.05, 0.28), (cx + 0.05, 0.28), (cx + 0.5, 0.85), (cx - 0.55, 0.85)]
    c.fill_gradient(
        [*cone, (1.1, 1.01), (-0.1, 1.01)], 0.28, 1.0, c.land((74, 54, 52)), c.land((34, 24, 24))
    )
    lava = (255, 112, 24)
    c.ellipse(cx, 0.285, 0.05, 0.015, (255, 200, 80))
    for _ in range(3):
        x = cx + c.rng.uniform(-0.03, 0.03)
        drift = c.rng.uniform(-0.2, 0.2)
        pts = [
            (x + drift * t * t + 0.01 * math.sin(t * 9), 0.29 + t * 0.6)
            for t in [i / 12 for i in range(13)]
        ]
        c.line(pts, lava, 0.012)
    c.fill_gradient(None, 0.9, 1.0, c.land((40, 28, 26)), c.land((20, 14, 14)))
    for _ in range(6):
        c.circle(cx + c.rng.uniform(-0.12, 0.12), c.rng.uniform(0.1, 0.24), 0.008, (255, 170, 60))


def lake(c: Canvas) -> None:
    shore = c.rng.uniform(0.5, 0.56)
    c.sky(shore)
    c.stars(below=shore)
    sx = c.rng.uniform(0.25, 0.75)
    c.sun(sx, 0.15, 0.05)
    ridge = c.ridge(shore, 0.3, 3, 0.4)
    c.fill_gradient(ridge, shore - 0.3, shore, c.land((120, 130, 170), 0.15), c.land((60, 90, 90)))
    # the mirror: the sky and the mountains upside down, slightly darker
    top = round(shore * c.h)
    upper = c.img.crop((0, max(0, 2 * top - c.h), c.w, top))
    mirror = ImageOps.flip(upper).resize((c.w, c.h - top))
    dark = Image.new("RGB", mirror.size, c.land((30, 60, 90)))
    c.img.paste(Image.blend(mirror, dark, 0.35), (0, top))
    c.rect(0, shore - 0.004, 1, shore + 0.004, c.land((50, 70, 60)))
    for k in range(6):
        y = shore + 0.05 + k * 0.07
        x = c.rng.random()
        c.line([(x - 0.15, y), (x + 0.15, y)], mix(c.land((80, 120, 160)), c.light, 0.4), 0.004)
    # a small boat
    bx, by = c.rng.uniform(0.2, 0.8), shore + c.rng.uniform(0.15, 0.3)
    c.poly(
        [(bx - 0.06, by), (bx + 0.06, by), (bx + 0.04, by + 0.025), (bx - 0.04, by + 0.025)],
        c.land((60, 40, 30)),
    )
    # pines on the near shore
    for k in range(5):
        c.pine(0.02 + k * 0.035, shore + 0.01, 0.12 + 0.03 * (k % 2), c.land((24, 60, 36)))


def canyon(c: Canvas) -> None:
    c.sky(0.6)
    c.stars(below=0.4)
    c.sun(c.rng.uniform(0.4, 0.6), 0.2, 0.05)
    c.fill_gradient(None, 0.45, 1.0, c.land((200, 110, 70), 0.4), c.land((150, 80, 50), 0.2))
    mid = c.rng.uniform(0.42, 0.58)
    river = [(mid - 0.02, 0.5), (mid + 0.02, 0.5), (mid + 0.2, 1.01), (mid - 0.2, 1.01)]
    c.fill_gradient(river, 0.5, 1.0, c.land((140, 190, 210), 0.2), c.land((50, 120, 170)))
    bands = [(214, 106, 60), (188, 86, 48), (160, 70, 42), (128, 54, 34)]
    for side in (-1, 1):
        for k, color in enumerate(bands):
            edge = mid + side * (0.06 + 0.04 * k)
            y0 = 0.2 + 0.09 * k
            steps = 8
            pts: list[Point] = []
            for i in range(steps + 1):
                y = y0 + (1.01 - y0) * i / steps
                pts.append((edge + side * (c.rng.uniform(0, 0.03) + 0.12 * i / steps), y))
            outer = 1.05 if side > 0 else -0.05
            poly = [(outer, y0 + 0.02), (edge + side * 0.02, y0), *pts, (outer, 1.01)]
            c.poly(poly, c.land(color, max(0.0, 0.3 - 0.1 * k)))
            c.line(
                [(outer, y0 + 0.02), (edge + side * 0.02, y0)],
                c.land(mix(color, (255, 220, 170), 0.3)),
                0.008,
            )
    # a rope bridge across
    if c.rng.random() < 0.6:
        y = c.rng.uniform(0.35, 0.45)
        rope = c.land((70, 50, 35))
        pts = [
            (mid - 0.2 + 0.4 * t, y + 0.05 * math.sin(math.pi * t))
            for t in [i / 16 for i in range(17)]
        ]
        c.line(pts, rope, 0.006)
        for x, yy in pts[::2]:
            c.line([(x, yy), (x, yy - 0.03)], rope, 0.004)


def waterfall(c: Canvas) -> None:
    c.sky(0.5)
    c.stars(below=0.4)
    c.sun(c.rng.uniform(0.6, 0.9), 0.15, 0.05)
    fx = c.rng.uniform(0.42, 0.58)
    lip = c.rng.uniform(0.25, 0.32)
    cliff, moss = c.land((98, 100, 96)), c.land((56, 118, 62))
    c.fill_gradient(
        [(-0.01, lip - 0.06), (fx - 0.07, lip), (fx - 0.07, 0.75), (-0.01, 0.8)],
        lip - 0.06,
        0.8,
        cliff,
        c.land((64, 62, 70)),
    )
    c.fill_gradient(
        [(1.01, lip - 0.04), (fx + 0.07, lip), (fx + 0.07, 0.75), (1.01, 0.8)],
        lip - 0.04,
        0.8,
        scale(cliff, 0.85),
        c.land((50, 48, 56)),
    )
    ledge = c.land((78, 80, 84))
    for side in (-1, 1):
        for k in range(3):
            y = lip + 0.12 + k * 0.13 + c.rng.uniform(-0.02, 0.02)
            x = fx + side * (0.07 + c.rng.uniform(0.05, 0.35))
            c.line([(fx + side * 0.07, y + 0.02), (x, y)], ledge, 0.008)
    c.poly(
        [(-0.01, lip - 0.1), (fx - 0.07, lip - 0.01), (fx - 0.07, lip + 0.03), (-0.01, lip - 0.03)],
        moss,
    )
    c.poly(
        [(1.01, lip - 0.08), (fx + 0.07, lip - 0.01), (fx + 0.07, lip + 0.03), (1.01, lip - 0.01)],
        moss,
    )
    for side in (-1, 1):
        for k in range(4):
            x = fx + side * (0.12 + k * 0.09)
            c.pine(x, lip - 0.02 + k * 0.015, 0.12, c.land((30, 84, 44)))
    water = c.land((226, 240, 250))
    c.fill_gradient(
        [(fx - 0.07, lip), (fx + 0.07, lip), (fx + 0.08, 0.78), (fx - 0.08, 0.78)],
        lip,
        0.78,
        c.land((170, 210, 235)),
        water,
    )
    for k in range(6):
        x = fx - 0.055 + k * 0.022
        c.line([(x, lip + 0.02), (x, 0.76)], c.land((250, 252, 255)), 0.004)
    c.fill_gradient(None, 0.78, 1.0, c.land((70, 150, 176)), c.land((36, 90, 120)))
    c.veil(0.68, 0.9, c.land((240, 248, 255)), 0.7)
    for side in (-1, 1):
        c.ellipse(fx + side * 0.35, 0.98, 0.22, 0.08, c.land((70, 80, 70)))


def island(c: Canvas) -> None:
    horizon = c.rng.uniform(0.5, 0.56)
    c.sky(horizon)
    c.stars(below=horizon)
    c.sun(c.rng.uniform(0.6, 0.85), horizon - 0.18, 0.06)
    c.fill_gradient(None, horizon, 1.0, c.land((40, 176, 196)), c.land((16, 90, 150)))
    ix = c.rng.uniform(0.35, 0.5)
    c.ellipse(ix, horizon + 0.2, 0.3, 0.08, c.land((90, 210, 210)))
    c.ellipse(ix, horizon + 0.19, 0.24, 0.06, c.land((244, 222, 160)))
    c.ellipse(ix + 0.05, horizon + 0.16, 0.14, 0.07, c.land((70, 150, 60)))
    # a leaning palm
    trunk, leaf = c.land((120, 86, 52)), c.land((36, 120, 52))
    base_x, base_y = ix - 0.08, horizon + 0.19
    top = (base_x + 0.07, base_y - 0.36)
    pts = [(base_x + 0.07 * t * t, base_y - 0.36 * t) for t in [i / 10 for i in range(11)]]
    c.line(pts, trunk, 0.018)
    for ang in (0.3, 0.9, 1.6, 2.3, 2.85):
        ex = top[0] + math.cos(ang) * 0.13
        ey = top[1] - math.sin(ang) * 0.1 + 0.09
        mid = ((top[0] + ex) / 2, min(top[1], ey) - 0.03)
        c.poly([top, mid, (ex, ey), ((top[0] + ex) / 2, (top[1] + ey) / 2 + 0.01)], leaf)
    c.circle(top[0], top[1] + 0.02, 0.015, c.land((90, 60, 30)))
    if c.night:
        c.glow(ix + 0.12, horizon + 0.14, 0.08, (255, 150, 60), 0.8)
        c.poly(
            [(ix + 0.11, horizon + 0.16), (ix + 0.13, horizon + 0.16), (ix + 0.12, horizon + 0.12)],
            (255, 200, 90),
        )
    crest = mix(c.land((40, 176, 196)), (255, 255, 255), 0.4)
    for k in range(5):
        y = horizon + 0.3 + k * 0.04
        x = c.rng.random()
        c.line([(x - 0.06, y), (x, y - 0.01), (x + 0.06, y)], crest, 0.005)


def tower(c: Canvas) -> None:
    c.sky()
    c.stars(count=90)
    c.sun(c.rng.uniform(0.65, 0.9), 0.2, 0.05)
    cloud = mix(c.sky_low, (255, 255, 255), 0.55 if not c.night else 0.1)
    c.clouds(3, 0.55, 0.8, cloud)
    tx = c.rng.uniform(0.3, 0.42)
    rock = c.land((106, 96, 110))
    c.poly(
        [
            (tx - 0.16, 1.01),
            (tx - 0.08, 0.7),
            (tx - 0.03, 0.62),
            (tx + 0.05, 0.62),
            (tx + 0.1, 0.74),
            (tx + 0.2, 1.01),
        ],
        rock,
    )
    c.poly(
        [(tx + 0.05, 0.62), (tx + 0.1, 0.74), (tx + 0.2, 1.01), (tx + 0.06, 1.01)],
        scale(rock, 0.75),
    )
    wall, dark = c.land((186, 176, 164)), c.land((132, 122, 116))
    c.poly([(tx - 0.045, 0.63), (tx + 0.045, 0.63), (tx + 0.035, 0.2), (tx - 0.035, 0.2)], wall)
    c.poly([(tx + 0.01, 0.63), (tx + 0.045, 0.63), (tx + 0.035, 0.2), (tx + 0.01, 0.2)], dark)
    c.rect(tx - 0.05, 0.17, tx + 0.05, 0.21, dark)
    c.poly([(tx - 0.06, 0.17), (tx + 0.06, 0.17), (tx, 0.04)], c.land((88, 64, 150)))
    window = (255, 220, 110) if c.time in ("night", "dusk") else c.land((50, 50, 70))
    for y in (0.27, 0.4, 0.52):
        c.rect(tx - 0.01, y, tx + 0.01, y + 0.04, window)
    if c.night:
        c.glow(tx, 0.29, 0.06, (255, 210, 120), 0.6)
    c.clouds(3, 0.85, 0.98, cloud)
    # birds
    for _ in range(3):
        x, y = c.rng.uniform(0.55, 0.9), c.rng.uniform(0.3, 0.5)
        c.line([(x - 0.02, y - 0.01), (x, y), (x + 0.02, y - 0.01)], c.land((40, 40, 50)), 0.004)


SCENE_PAINTERS: dict[str, Callable[[Canvas], None]] = {
    "mountains": mountains,
    "sea": sea,
    "forest": forest,
    "desert": desert,
    "snowfield": snowfield,
    "cave": cave,
    "castle": castle,
    "village": village,
    "ruins": ruins,
    "swamp": swamp,
    "volcano": volcano,
    "lake": lake,
    "canyon": canyon,
    "waterfall": waterfall,
    "island": island,
    "tower": tower,
}


def card_seed(card_id: str) -> int:
    return int.from_bytes(hashlib.sha256(f"area:{card_id}".encode()).digest()[:8], "big")


def render_area(card_id: str, size: tuple[int, int] = (960, 640)) -> Image.Image:
    """The illustration of a built-in area card as an RGB image of ``size``."""
    scene, variant, time = area_scene(card_id)
    rng = random.Random(card_seed(card_id))
    accent = NIGHT_ACCENTS.get(scene) if time == "night" else None
    canvas = Canvas(size, rng, time, accent)
    SCENE_PAINTERS[scene](canvas)
    img = canvas.finish(mirror=variant == 1)
    # The canvas is SUPERSAMPLE times the size each way: each pixel is the mean of its block
    # (supersampling's own filter; Lanczos took half of a card's time for a picture whose
    # pixels differ by under one level in 255 on average).
    return img.reduce(SUPERSAMPLE)


def contact_sheet(
    size: tuple[int, int] = (240, 160), columns: int = 8, ids: Sequence[str] = AREA_IDS
) -> Image.Image:
    """Cards in a grid (for checking the art by eye)."""
    gap = 6
    rows = math.ceil(len(ids) / columns)
    sheet = Image.new(
        "RGB", (columns * (size[0] + gap) + gap, rows * (size[1] + gap) + gap), (30, 30, 30)
    )
    for i, card_id in enumerate(ids):
        x = gap + (i % columns) * (size[0] + gap)
        y = gap + (i // columns) * (size[1] + gap)
        sheet.paste(render_area(card_id, size), (x, y))
    return sheet
