# The referee contract of 2026-11-30 refuses a pass by a player at or above the token cap
# (option pass_at_cap, default "refuse"). Tables stored before it were played under the first
# version's reading, so each stored Amnesia table gets the option written out: "allow" where
# its log passes at the cap (so it replays exactly), "refuse" otherwise. The cached state was
# made without the option: it is dropped, to be rebuilt from the log.

from django.db import migrations

from games.rules.script import replay
from games.rules.setup import Setup


def live_payloads(Move, table):
    stack = []
    for row in Move.objects.filter(table=table).order_by("seq"):
        if row.kind == "undo":
            if stack:
                stack.pop()
        else:
            stack.append(row.payload)
    return stack


def replays(table, players, options, payloads):
    setup = Setup(
        game="amnesia",
        players=players,
        start=table.start_player,
        options=options,
        deck_mode=table.deck_mode,
        seed=table.seed,
        deck=list(table.deck) if table.deck is not None else None,
        extra=dict(table.extra),
    )
    return replay(setup, payloads).error is None


def write_pass_at_cap(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    Seat = apps.get_model("games", "Seat")
    Move = apps.get_model("games", "Move")
    for table in Table.objects.filter(game="amnesia"):
        if "pass_at_cap" in (table.options or {}):
            continue
        players = list(
            Seat.objects.filter(table=table).order_by("position").values_list("name", flat=True)
        )
        payloads = live_payloads(Move, table)
        options = dict(table.options or {})
        refused = {**options, "pass_at_cap": "refuse"}
        options["pass_at_cap"] = "refuse" if replays(table, players, refused, payloads) else "allow"
        table.options = options
        table.state = None
        table.state_seq = 0
        table.save(update_fields=["options", "state", "state_seq"])


def forget_pass_at_cap(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    for table in Table.objects.filter(game="amnesia"):
        options = dict(table.options or {})
        if options.pop("pass_at_cap", None) is not None:
            table.options = options
            table.state = None
            table.state_seq = 0
            table.save(update_fields=["options", "state", "state_seq"])


class Migration(migrations.Migration):
    dependencies = [("games", "0005_models_live_in_their_apps")]

    operations = [migrations.RunPython(write_pass_at_cap, forget_pass_at_cap)]
