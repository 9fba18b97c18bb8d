"""Take out of stored moves the keys their verb does not read, and drop the state caches.

Until now the write path stored any extra key a client sent with a move (``{"by": "Ana",
"do": "continue", "junk": "..."}``); it now refuses them, and this migration takes the old
ones out of the log. Safe by construction:

- only a key that is neither ``by``/``do``/``text``/``at`` nor declared by the referee for
  that move's verb (``Game.fields[verb]``) is taken out; a move of a game or verb the site
  does not know is left as it is;
- a table is changed only when its live moves, replayed with and without those keys, give
  the same state (the keys never affected the rules); otherwise it is left as it was.

The state caches are dropped (``Table.state`` is droppable by design: the next read replays
the log): the contest's state now counts the narrator's turns (``control_turn``), which an
old cache lacks and a replay gives.
"""

from django.db import migrations

from games.rules import BadScript, IllegalMove, available_games, get_game
from games.rules.script import replay
from games.rules.setup import Setup

COMMON = {"by", "do", "text", "at"}


def _extra_keys(referee, payload):
    if not isinstance(payload, dict):
        return []
    verb = payload.get("do")
    if not isinstance(verb, str) or verb not in referee.moves:
        return []
    declared = referee.fields.get(verb, {})
    return [key for key in payload if key not in COMMON and key not in declared]


def _live(rows):
    stack = []
    for row in rows:
        if row.kind == "undo":
            if stack:
                stack.pop()
        else:
            stack.append(row)
    return stack


def _same_state(table, referee, live, cleaned):
    setup = Setup(
        game=table.game,
        players=list(table.seats.order_by("position").values_list("name", flat=True)),
        start=table.start_player,
        options=dict(table.options),
        deck_mode=table.deck_mode,
        seed=table.seed,
        deck=list(table.deck) if table.deck is not None else None,
        extra=dict(table.extra),
    )
    try:
        before = replay(setup, [row.payload for row in live])
        after = replay(setup, [cleaned.get(row.pk, row.payload) for row in live])
    except (BadScript, IllegalMove, KeyError, TypeError, ValueError):
        return False
    return before.error is None and after.error is None and before.state == after.state


def forwards(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    Move = apps.get_model("games", "Move")
    known = set(available_games())
    touched = Move.objects.filter(kind="move", table__game__in=known)
    tables = {}
    for row in touched.select_related("table").iterator(chunk_size=2000):
        referee = get_game(row.table.game)
        extra = _extra_keys(referee, row.payload)
        if extra:
            cleaned = {k: v for k, v in row.payload.items() if k not in extra}
            tables.setdefault(row.table_id, {})[row.pk] = cleaned
    for table_id, cleaned in tables.items():
        table = Table.objects.get(pk=table_id)
        referee = get_game(table.game)
        live = _live(table.moves.order_by("seq"))
        if not _same_state(table, referee, live, cleaned):
            continue
        rows = list(Move.objects.filter(pk__in=cleaned))
        for row in rows:
            row.payload = cleaned[row.pk]
        Move.objects.bulk_update(rows, ["payload"], batch_size=500)
    Table.objects.update(state=None, state_seq=0)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_move_client_id"),
    ]

    operations = [
        # Backwards there is nothing to restore: the keys never meant anything.
        migrations.RunPython(forwards, migrations.RunPython.noop, elidable=True),
    ]
