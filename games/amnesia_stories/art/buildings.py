"""The painters of the scenes with something built in them (castle, village, ruins, tower):
each paints one scene on a :class:`Canvas`.
"""

from __future__ import annotations

import math

from games.amnesia_stories.art.canvas import Canvas, mix, scale


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
