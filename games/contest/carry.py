"""The contest's characters in a bundle (``stories.bundles``; the kit's ``carry``).

A seat that brought a saved character links to it (``SeatCharacter``); the bundle carries
each such character with its owner's name, attributes and points, and whether this table's
win was already credited to it. On arrival the character belongs to whoever imports the bundle
(``people`` says who owns here what a name owned there): one of theirs of the same name is
linked as it is, its points untouched; any other is made with the bundle's figures, which
already hold this table's credit when it was given. A table finished in the bundle is
therefore never credited twice.
"""

from __future__ import annotations

from typing import Any

from games.contest.models import Character, SeatCharacter
from games.registry import Brought, Carry

FIGURES = ("brains", "muscle", "moves", "coolness", "extra_points", "unspent_points")
MAX_FIGURE = 999
NAME_LENGTH = Character._meta.get_field("name").max_length


def export(table, add_file, person) -> dict[str, Any] | None:
    links = SeatCharacter.objects.filter(seat__table=table).select_related(
        "seat", "character__owner"
    )
    out = [
        {
            "seat": link.seat.position,
            "owner": person(link.character.owner),
            "name": link.character.name,
            **{key: getattr(link.character, key) for key in FIGURES},
            "bfa": link.character.bfa,
            "credited": link.credited,
        }
        for link in links.order_by("seat__position")
    ]
    return {"characters": out} if out else None


def check(part, files: dict[str, bytes], people: set[str]) -> None:
    if not isinstance(part, dict) or not isinstance(part.get("characters"), list):
        raise ValueError("characters")
    seats = set()
    for i, character in enumerate(part["characters"]):
        where = f"characters[{i}]"
        if not isinstance(character, dict):
            raise ValueError(where)
        seat = character.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0 or seat in seats:
            raise ValueError(f"{where}.seat")
        seats.add(seat)
        if character.get("owner") not in people:
            raise ValueError(f"{where}.owner")
        name = character.get("name")
        if not isinstance(name, str) or not 0 < len(name.strip()) <= NAME_LENGTH:
            raise ValueError(f"{where}.name")
        for key in FIGURES:
            value = character.get(key)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"{where}.{key}")
            if not 0 <= value <= MAX_FIGURE:
                raise ValueError(f"{where}.{key}")
        for key in ("bfa", "credited"):
            if not isinstance(character.get(key), bool):
                raise ValueError(f"{where}.{key}")


def bring(table, part, files: dict[str, bytes], people) -> Brought:
    brought = Brought()
    if part is None:
        return brought
    seats = {seat.position: seat for seat in table.seats.all()}
    for data in part["characters"]:
        seat = seats.get(data["seat"])
        if seat is None:
            raise ValueError(f"characters: seat {data['seat']}")
        owner = people[data["owner"]]
        character = Character.objects.filter(owner=owner, name=data["name"]).first()
        if character is None:
            character = Character.objects.create(
                owner=owner,
                name=data["name"],
                bfa=data["bfa"],
                **{key: data[key] for key in FIGURES},
            )
            brought.characters += 1
        SeatCharacter.objects.update_or_create(
            seat=seat, defaults={"character": character, "credited": data["credited"]}
        )
    return brought


CARRY = Carry(export=export, check=check, bring=bring)
