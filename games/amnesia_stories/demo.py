"""Two Amnesia Stories demo games with the bards' narration: one finished, one in progress.

Both use a stacked deck, so each bard's story is told from cards whose texts the narration
follows (a seeded shuffle would deal other cards).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils.translation import pgettext

from games.amnesia_stories.area_texts import AREA_IDS


def _timed(moves: list[dict], start: datetime, step_seconds: int = 50) -> list[dict]:
    for i, move in enumerate(moves):
        move["at"] = (start + timedelta(seconds=step_seconds * i)).isoformat()
    return moves


def _answers(picks: dict[str, list[int]]) -> list[dict]:
    return [{"by": name, "do": "answer", "picks": p} for name, p in picks.items()]


def _deck(first: list[str], size: int) -> list[str]:
    rest = [c for c in AREA_IDS if c not in first]
    return (first + rest)[:size]


def finished(start: datetime) -> dict:
    # Turn 1's slots, then each turn's journey (which becomes the next turn's slots).
    deck = [
        *("A01", "A02", "A03", "A04", "A05"),
        *("A17", "A34", "A35", "A36", "A37"),
        *("A06", "A07", "A08", "A09", "A10"),
        *("A11", "A12", "A13", "A14", "A15"),
        *("A16", "A18", "A19", "A20", "A21"),
        *("A22", "A23", "A24", "A25", "A26"),
        *("A27", "A28", "A29", "A30", "A31"),
    ]
    m: list[dict] = [
        {
            "by": "Ana",
            "do": "tell",
            "story": ["A34", "A36", "A17"],
            "text": pgettext(
                "demo",
                "Our hero spent a whole night lashed to the mast while the sea tried to swallow the ship. Washed up on a coast of sand, they walked until the water ran out, and a caravan found them half dead. Months later, from a snowy summit, they looked back at the land they had fled.",
            ),
        },
        *_answers({"Ana": [2, 4, 1], "Bruno": [2, 4, 1], "Caio": [2, 3, 1]}),
        {
            "by": "Bruno",
            "do": "tell",
            "story": ["A10", "A08", "A07"],
            "text": pgettext(
                "demo",
                "The marsh took their boots, so they went on barefoot. In a village at night the people laughed: the hero of their songs looked just like this muddy stranger. By dusk the next day they were kneeling at a castle gate, being knighted for a deed nobody could remember.",
            ),
        },
        *_answers({"Bruno": [3, 5, 1], "Ana": [3, 1, 5], "Caio": [4, 2, 1]}),
        {
            "by": "Caio",
            "do": "tell",
            "story": ["A15", "A13", "A11"],
            "text": pgettext(
                "demo",
                "With nothing but a compass they washed ashore on a tiny island. Then, who knows how, a red canyon whose echo answered every question. The last answer sent them to the mountain of fire, where the cursed ring finally fell.",
            ),
        },
        *_answers({"Caio": [5, 4, 1], "Ana": [1, 4, 2], "Bruno": [3, 2, 5]}),
        {
            "by": "Ana",
            "do": "tell",
            "story": ["A18", "A20", "A16"],
            "text": pgettext(
                "demo",
                "Second round. The harbour vanished behind them at sunset. In the desert they dug out a pyramid and carved their name on its door, as if to be remembered somewhere. At night they climbed the wizard's tower and read in the stars where to go next.",
            ),
        },
        *_answers({"Ana": [5, 3, 1], "Bruno": [5, 3, 1], "Caio": [2, 3, 1]}),
        {
            "by": "Bruno",
            "do": "tell",
            "story": ["A26", "A25", "A23"],
            "text": pgettext(
                "demo",
                "The marsh witch wanted a memory as payment; they gave her the face of their mother. Her price bought a rusty key, dug up in the ruins of a temple, and the key opened a cell at the top of the castle wall at midnight.",
            ),
        },
        *_answers({"Bruno": [3, 4, 1], "Ana": [3, 4, 1], "Caio": [3, 4, 1]}),
        {
            "by": "Caio",
            "do": "tell",
            "story": ["A29", "A30", "A28"],
            "text": pgettext(
                "demo",
                "The rope bridge snapped under the last step. Falling into the river, they were swept behind the curtain of a waterfall, into a hidden passage. It led to a still lake at dawn, where at last they washed off the blood of every battle and remembered nothing else.",
            ),
        },
        *_answers({"Caio": [4, 1, 5], "Ana": [4, 2, 5], "Bruno": [2, 1, 3]}),
    ]
    return {
        "game": "amnesia_stories",
        "players": ["Ana", "Bruno", "Caio"],
        "seed": 1,
        "deck": deck,
        "moves": _timed(m, start),
    }


def in_progress(start: datetime) -> dict:
    first = [
        *("A38", "A39", "A40", "A41", "A42"),
        *("A43", "A44", "A45", "A46", "A47"),
        *("A48", "A01", "A02", "A03", "A04"),
    ]
    m: list[dict] = [
        {
            "by": "Dora",
            "do": "tell",
            "story": ["A45", "A46", "A43"],
            "text": pgettext(
                "demo",
                "Bandits took every coin in the red canyon. Chased to the edge of the falls, the hero jumped. Broke and unarmed, they forged a new blade in the heat of the lava.",
            ),
        },
        *_answers({"Dora": [4, 5, 1], "Elio": [4, 5, 1], "Fern": [2, 5, 1], "Gil": [4, 1, 3]}),
        {
            "by": "Elio",
            "do": "tell",
            "story": ["A02", "A04", "A48"],
            "text": pgettext(
                "demo",
                "A borrowed boat and no plan. The wind left them on a shore of dunes they crossed by starlight, straight into the arms of a sorcerer who kept them in his tower for a year.",
            ),
        },
        *_answers({"Fern": [5, 4, 1], "Gil": [2, 3, 4]}),
    ]
    return {
        "game": "amnesia_stories",
        "players": ["Dora", "Elio", "Fern", "Gil"],
        "seed": 7,
        "deck": _deck(first, 45),
        "moves": _timed(m, start, 70),
    }


def demos(now: datetime) -> list[tuple[str, dict]]:
    """(table name, script) for each demo table of this game."""
    return [
        (pgettext("demo", "The hero who forgot"), finished(now - timedelta(days=1))),
        (pgettext("demo", "Footprints in the sand"), in_progress(now - timedelta(minutes=40))),
    ]
