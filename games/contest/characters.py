"""Contest characters kept between games: bringing one to a table, the point a win earns,
and the sheet's history.

The tables stay the only truth about what a character did: its history is read back from
the tables its seats played (their narrative and state), never stored a second time. The
one thing written outside a table is the point a win earns, credited once when the table
ends (``SeatCharacter.credited``) and taken back if that end is undone.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from django import forms
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.contest.models import Character, SeatCharacter
from games.contest.rules import GAME
from games.models import Table
from games.rules import IllegalMove
from games.services import reading, writing
from games.snapshot import Snapshot

ATTRIBUTES = ("brains", "muscle", "moves", "coolness")
# How the table shows the drinks it counts (a display setting, kept in Table.extra).
DRINK_WORDS = ("drinks", "sips", "penalty_points")
DRINKS_KEY = "drinks_as"


def creation_bounds() -> dict[str, int]:
    """The bounds a new character is made within: the contest's default options."""
    o = GAME.options
    return {
        "min": o["attribute_min"].default,
        "max": o["attribute_max"].default,
        "points": o["attribute_points"].default,
    }


def drinks_as(table: Table) -> str:
    value = (table.extra or {}).get(DRINKS_KEY, "drinks")
    return value if value in DRINK_WORDS else "drinks"


def set_drinks_as(table: Table, value: str) -> None:
    if value not in DRINK_WORDS:
        raise ValueError(value)
    extra = dict(table.extra or {})
    if value == "drinks":
        extra.pop(DRINKS_KEY, None)
    else:
        extra[DRINKS_KEY] = value
    table.extra = extra
    table.save(update_fields=["extra"])


# -- bringing a character to a table ------------------------------------------------------
def character_move(character: Character, seat_name: str) -> dict[str, Any]:
    """The ``character`` move that brings a saved character to a seat."""
    move: dict[str, Any] = {"by": seat_name, "do": "character", "name": character.name}
    for attr in ATTRIBUTES:
        move[attr] = getattr(character, attr)
    move["extra_points"] = character.extra_points
    move["bfa"] = character.bfa
    return move


def bring(
    table: Table,
    seat_name: str,
    character: Character,
    expected_seq: int | None,
    user=None,
    *,
    client_id: str | None = None,
) -> writing.Played:
    """Play a saved character at a seat and remember the link (for its history and points)."""
    if character.owner_id != table.owner_id:
        raise IllegalMove("rule_violation", gettext("That character is not yours to bring."))
    with transaction.atomic():
        move = character_move(character, seat_name)
        played = writing.play_many(table, [move], expected_seq, user, client_id=client_id)[0]
        if not played.resent:  # a resend: the link was made with the move
            seat = table.seats.get(name=seat_name)
            SeatCharacter.objects.create(seat=seat, character=character)
    return played


def create_at_table(
    table: Table,
    move: dict[str, Any],
    keep: bool,
    expected_seq: int | None,
    user=None,
    *,
    client_id: str | None = None,
) -> writing.Played:
    """A character made at the table; with ``keep``, saved for the owner's later games."""
    with transaction.atomic():
        played = writing.play_many(table, [move], expected_seq, user, client_id=client_id)[0]
        if keep and not played.resent:  # a resend: it was kept with the move
            name = played.state["players"][move["by"]]["character"]
            if Character.objects.filter(owner=table.owner, name__iexact=name).exists():
                raise IllegalMove(
                    "rule_violation",
                    gettext(
                        "You already keep a character called %(name)s: bring that one, "
                        "or give this one another name."
                    )
                    % {"name": name},
                )
            p = played.state["players"][move["by"]]
            character = Character.objects.create(
                owner=table.owner,
                name=name,
                extra_points=p["extra_points"],
                bfa=p["bfa"],
                **p["attributes"],
            )
            SeatCharacter.objects.create(seat=table.seats.get(name=move["by"]), character=character)
    return played


def available_for(table: Table) -> list[Character]:
    """The owner's saved characters not already at this table."""
    here = SeatCharacter.objects.filter(seat__table=table).values("character")
    return list(Character.objects.filter(owner=table.owner).exclude(pk__in=here))


# -- the new-table form -------------------------------------------------------------------
def _seat_choices(n: int = 8) -> list[tuple[str, str]]:
    return [("", _("— not in this game —"))] + [
        (str(i), _("Seat %(n)s (line %(n)s of the players)") % {"n": i}) for i in range(1, n + 1)
    ]


def add_table_fields(form: forms.Form, user) -> None:
    """The contest's extra fields on the new-table form: the drinks display and, for each
    saved character, the seat that brings it."""
    form.fields["drinks_as"] = forms.ChoiceField(
        label=_("Show drinks as"),
        choices=[
            ("drinks", _("drinks")),
            ("sips", _("sips")),
            ("penalty_points", _("penalty points (a table that plays sober)")),
        ],
        initial="drinks",
        required=False,
        help_text=_("Only how the page names them; the rules count them the same."),
    )
    form.bring_names = []
    if user is None or not user.is_authenticated:
        return
    for character in Character.objects.filter(owner=user):
        key = f"bring_{character.pk}"
        stats = " ".join(
            f"{label} {getattr(character, attr)}" for attr, label in ATTRIBUTE_LABELS.items()
        )
        form.fields[key] = forms.ChoiceField(
            label=_("Who plays %(name)s?") % {"name": character.name},
            choices=_seat_choices(GAME.max_players),
            required=False,
            help_text=stats,
        )
        form.fields[key].character = character
        form.bring_names.append(key)


def clean_table_fields(form: forms.Form, cleaned: dict[str, Any]) -> None:
    players = cleaned.get("players") or []
    taken: dict[str, str] = {}
    for key in getattr(form, "bring_names", []):
        raw = cleaned.get(key)
        if not raw:
            continue
        seat = int(raw)
        if seat > len(players):
            form.add_error(key, _("There are only %(n)s players.") % {"n": len(players)})
        elif raw in taken:
            form.add_error(
                key,
                _("Seat %(n)s already brings %(name)s.") % {"n": seat, "name": taken[raw]},
            )
        else:
            taken[raw] = form.fields[key].character.name


def table_extra(cleaned: dict[str, Any]) -> dict[str, Any]:
    value = cleaned.get("drinks_as") or "drinks"
    return {DRINKS_KEY: value} if value != "drinks" else {}


def bring_from_form(form: forms.Form, table: Table, user) -> None:
    players = form.cleaned_data["players"]
    picks = []
    for key in getattr(form, "bring_names", []):
        raw = form.cleaned_data.get(key)
        if raw:
            picks.append((int(raw), form.fields[key].character))
    for seat, character in sorted(picks, key=lambda pick: pick[0]):
        bring(table, players[seat - 1], character, None, user)


# -- the point a win earns ------------------------------------------------------------------
def finished_changed(
    sender: Any, table: Table, before: dict[str, Any], after: dict[str, Any], **_signal: Any
) -> None:
    """A contest table ended or un-ended (``games.signals``, in the move's transaction)."""
    if after.get("finished"):
        credit(table, after)
    else:
        revoke(table, before)


def credit(table: Table, state: dict[str, Any] | None = None) -> int:
    """Add each seat's earned points to its saved character, once. Returns points added."""
    state = state if state is not None else reading.state_of(table)
    if not state.get("finished"):
        return 0
    added = 0
    with transaction.atomic():
        links = SeatCharacter.objects.select_for_update().filter(seat__table=table, credited=False)
        for link in links.select_related("seat"):
            points = int(state.get("earned_points", {}).get(link.seat.name, 0))
            if points:
                Character.objects.filter(pk=link.character_id).update(
                    unspent_points=F("unspent_points") + points
                )
                added += points
            link.credited = True
            link.save(update_fields=["credited"])
    return added


def revoke(table: Table, before: dict[str, Any]) -> None:
    """The table's end was undone: take back the points it credited (those still unspent)."""
    with transaction.atomic():
        links = SeatCharacter.objects.select_for_update().filter(seat__table=table, credited=True)
        for link in links.select_related("seat", "character"):
            points = int(before.get("earned_points", {}).get(link.seat.name, 0))
            character = Character.objects.select_for_update().get(pk=link.character_id)
            character.unspent_points = max(0, character.unspent_points - points)
            character.save(update_fields=["unspent_points"])
            link.credited = False
            link.save(update_fields=["credited"])


def spend_point(character: Character, attribute: str) -> bool:
    """Spend one unspent point on an attribute; False when there is none to spend."""
    if attribute not in ATTRIBUTES:
        raise ValueError(attribute)
    done = Character.objects.filter(pk=character.pk, unspent_points__gt=0).update(
        **{
            attribute: F(attribute) + 1,
            "extra_points": F("extra_points") + 1,
            "unspent_points": F("unspent_points") - 1,
        }
    )
    character.refresh_from_db()
    return bool(done)


# -- the sheet's history ------------------------------------------------------------------
# Lazy: each is put into the reader's language when it is said. Made once (a page says them
# for every player and every contest on each render); read-only, as it is shared.
ATTRIBUTE_LABELS: Mapping[str, Any] = MappingProxyType(
    {
        "brains": _("Brains"),
        "muscle": _("Muscle"),
        # the attribute, not the game's moves: its own word in each language
        "moves": pgettext_lazy("contest attribute", "Moves"),
        "coolness": _("Coolness"),
    }
)


def _side_of(record: dict[str, Any], name: str) -> str | None:
    """The leader whose side ``name`` played on in a contest record, if any."""
    for leader in (record.get("challenger"), record.get("defender")):
        if leader == name:
            return leader
    for leader, members in (record.get("teams") or {}).items():
        if name in members:
            return leader
    return None


def game_record(link: SeatCharacter) -> dict[str, Any]:
    """One game of a character, read back from its table."""

    snap = Snapshot(link.seat.table)
    table, state = snap.table, snap.state
    name = link.seat.name
    won = lost = 0
    contests = []
    for entry in snap.narrative():
        if entry.get("type") != "contest" or not entry.get("contest"):
            continue
        record = entry["contest"]
        side = _side_of(record, name)
        if side is None or not record.get("winner"):
            continue
        win = side == record["winner"]
        won += win
        lost += not win
        rival = record["defender"] if side == record["challenger"] else record["challenger"]
        contests.append(
            {
                "kind": record.get("kind", ""),
                "won": win,
                "rival": rival,
                "rival_character": state["players"].get(rival, {}).get("character") or "",
                "attribute": (record.get("attributes") or {}).get(side, ""),
                "how": record.get("how", ""),
            }
        )
    player = state["players"].get(name, {})
    finished = bool(state.get("finished"))
    return {
        "table": table,
        "seat": name,
        "finished": finished,
        "won": finished and name in state.get("winners", []),
        "out": bool(player.get("out")),
        "earned": int(state.get("earned_points", {}).get(name, 0)),
        "credited": link.credited,
        "contests_won": won,
        "contests_lost": lost,
        "contests": contests,
    }


def history(character: Character) -> dict[str, Any]:
    links = character.seats.select_related("seat__table").order_by("-seat__table__created_at")
    games = [game_record(link) for link in links]
    return {
        "games": games,
        "played": len(games),
        "finished": sum(g["finished"] for g in games),
        "wins": sum(g["won"] for g in games),
        "contests_won": sum(g["contests_won"] for g in games),
        "contests_lost": sum(g["contests_lost"] for g in games),
    }
