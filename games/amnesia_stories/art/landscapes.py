"""The painters of the wild scenes (mountains, sea, forest, desert, snowfield, cave, swamp,
volcano, lake, canyon, waterfall, island): each paints one scene on a :class:`Canvas`.
"""

from __future__ import annotations

import math

from PIL import Image, ImageOps

from games.amnesia_stories.art.canvas import Canvas, Point, mix, scale


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
