"""Two Amnesia demo games with real narration: one finished, one in progress."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils.translation import pgettext

PLAYERS = ["Ana", "Bruno", "Caio"]


def _timed(moves: list[dict], start: datetime, step_seconds: int = 75) -> list[dict]:
    for i, move in enumerate(moves):
        move["at"] = (start + timedelta(seconds=step_seconds * i)).isoformat()
    return moves


def finished(start: datetime) -> dict:
    m = [
        {
            "by": "Ana",
            "do": "continue",
            "text": pgettext(
                "demo",
                "She opens her eyes on a carpet soaked dark. Two men lie by the bed, still. Her hands are red to the wrists. Someone hammers on the door: police, open up.",
            ),
        },
        {
            "by": "Bruno",
            "do": "suggest",
            "text": pgettext("demo", "There is a hotel key card in her pocket."),
        },
        {
            "by": "Ana",
            "do": "end_scene",
            "text": pgettext(
                "demo",
                "She finds a key card for room 714 in her jacket, steps over the bodies and slips out through the bathroom window onto the fire escape.",
            ),
        },
        {
            "by": "Bruno",
            "do": "flashback",
            "abilities": [pgettext("demo", "climbing")],
            "text": pgettext(
                "demo",
                "A gym at dawn, chalk on her palms, a coach shouting the next hold. She was good at this, once.",
            ),
        },
        {"by": "Bruno", "do": "end_scene"},
        {
            "by": "Caio",
            "do": "continue",
            "text": pgettext("demo", "Down in the alley a taxi idles with its light off."),
        },
        {"by": "Ana", "do": "insist", "text": pgettext("demo", "The driver knows her name.")},
        {"by": "Caio", "do": "refuse"},
        {
            "by": "Caio",
            "do": "stake",
            "text": pgettext("demo", "The driver is a stranger who wants cash."),
        },
        {
            "by": "Ana",
            "do": "stake",
            "text": pgettext("demo", "The driver was waiting for her all along."),
        },
        {
            "by": "Bruno",
            "do": "join",
            "text": pgettext(
                "demo", "There is no driver: the taxi is empty and the keys are in it."
            ),
        },
        {"by": "Caio", "do": "open", "card": "8D"},
        {"by": "Ana", "do": "higher", "card": "QS"},
        {"by": "Bruno", "do": "lower", "card": "4C"},
        {"by": "Caio", "do": "higher", "card": "3H"},
        {"by": "Ana", "do": "lower", "card": "2S"},
        {"by": "Bruno", "do": "quit"},
        {
            "by": "Caio",
            "do": "end_scene",
            "text": pgettext(
                "demo", "The driver turns around and says: Good evening, Doctor Lima. We are late."
            ),
        },
        {
            "by": "Ana",
            "do": "flashback",
            "abilities": [pgettext("demo", "surgery")],
            "text": pgettext(
                "demo",
                "An operating theatre, bright as noon. Her gloved hands close a wound in six neat stitches.",
            ),
        },
        {"by": "Ana", "do": "end_scene"},
        {
            "by": "Bruno",
            "do": "flashback",
            "abilities": [pgettext("demo", "speaks Russian")],
            "text": pgettext(
                "demo", "A kitchen in winter; her grandmother corrects her verbs in Russian."
            ),
        },
        {"by": "Bruno", "do": "end_scene"},
        {
            "by": "Caio",
            "do": "flashback",
            "text": pgettext(
                "demo",
                "The two men from the room, alive, laughing at a table with her. One of them slides an envelope across.",
            ),
        },
        {"by": "Caio", "do": "end_scene"},
        {
            "by": "Ana",
            "do": "room_flashback",
            "text": pgettext(
                "demo",
                "The envelope held a list of patients who never existed. When she said she would go to the police, one man drew a gun; the other stepped in front of it. She fought for both of them and lost.",
            ),
        },
        {"by": "Ana", "do": "end_scene"},
        {
            "by": "Bruno",
            "do": "continue",
            "text": pgettext(
                "demo",
                "At the station she asks for the detective who knocked on the door, and hands over the key card to room 714, where the files are.",
            ),
        },
        {
            "by": "Bruno",
            "do": "end_scene",
            "text": pgettext(
                "demo", "She does not remember her own name yet. She remembers enough."
            ),
        },
        {
            "by": "Caio",
            "do": "end_story",
            "agreed": PLAYERS,
            "text": pgettext("demo", "The end of the first night."),
        },
    ]
    return {
        "game": "amnesia",
        "players": PLAYERS,
        "options": {"finale_factor": 1},
        "deck_mode": "physical",
        "seed": 11,
        "moves": _timed(m, start),
    }


def in_progress(start: datetime) -> dict:
    m = [
        {
            "by": "Dora",
            "do": "continue",
            "text": pgettext(
                "demo",
                "Blood on her sleeves, a stranger's wedding ring on her finger, and a voice through the door: police!",
            ),
        },
        {"by": "Elio", "do": "suggest", "text": pgettext("demo", "The window is painted shut.")},
        {
            "by": "Dora",
            "do": "end_scene",
            "text": pgettext(
                "demo", "She hides the ring in her mouth and opens the door with her hands raised."
            ),
        },
        {
            "by": "Elio",
            "do": "flashback",
            "abilities": [pgettext("demo", "lying to police")],
            "text": pgettext(
                "demo",
                "Years ago, a traffic stop; she talked her way out of it with a smile and a fake name.",
            ),
        },
        {"by": "Elio", "do": "end_scene"},
        {
            "by": "Fern",
            "do": "continue",
            "text": pgettext(
                "demo", "Footsteps on the stairs: a second officer, older, who knows her name."
            ),
        },
        {"by": "Fern", "do": "end_scene"},
        {
            "by": "Dora",
            "do": "continue",
            "text": pgettext(
                "demo", "The officer is young and frightened. He has not seen the bodies yet."
            ),
        },
    ]
    return {
        "game": "amnesia",
        "players": ["Dora", "Elio", "Fern"],
        "seed": 2024,
        "moves": _timed(m, start, 90),
    }


def demos(now: datetime) -> list[tuple[str, dict]]:
    """(table name, script) for each demo table of this game."""
    return [
        (pgettext("demo", "The night of room 714"), finished(now - timedelta(days=2))),
        (pgettext("demo", "The stranger's ring"), in_progress(now - timedelta(hours=1))),
    ]
