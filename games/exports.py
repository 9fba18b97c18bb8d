"""A table as a script to take away, and a script brought back (shared/referee/README.md).

Two things keep an export from being the log as it is:

- **secrets**: while the game keeps some moves secret (the answers to an Amnesia Stories turn
  not judged yet; the referee's ``pending_secrets`` says which), the export leaves them out
  and says how many with ``"pending_left_out": N`` at the top. The script replays to the
  state before them. Once the game reveals them, the export is whole again.
  ``with_pending=True`` (``referee export --with-pending``, for the server's operator) writes
  the whole log.
- **the deck**: while a table with a virtual deck is in play, its seed and its stacked deck
  (``deck``) would show every hand and every card to come: the export leaves them out and
  says so with ``"deck_left_out": true`` at the top. Such a script cannot replay to the state
  the table shows, so ``referee replay`` and every import refuse it with a sentence
  (``games.rules.script.DECK_LEFT_OUT``). A finished table's export carries them, as does a
  physical-deck table's (its cards are entered by people). ``with_deck=True`` writes them;
  ``referee export --with-secrets`` (the server's operator) writes the whole script: the deck
  and the secret answers.
- **names**: a player who asked to be left out is written as their label (``games.aliases``);
  ``real_names=True`` (``referee export --real-names``) writes the names as seated.

An imported script with ``pending_left_out`` says how many answers it did not restore; the key
describes the file, not the new table, so the table does not keep it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import registry
from games.aliases import aliases_of
from games.models import Table
from games.rules import BadScript
from games.rules.errors import N_
from games.rules.script import DECK_LEFT_OUT, rules_part
from games.services import new_tables, reading

PENDING_KEY = "pending_left_out"
# What a virtual deck's script holds that shows the cards (the contract's "seed" and "deck").
DECK_SECRETS = ("seed", "deck")


def export_script(
    table: Table,
    *,
    with_pending: bool = False,
    with_deck: bool = False,
    real_names: bool = False,
) -> dict[str, Any]:
    """The table's script as an export shows it (see the module's docstring)."""
    script = reading.script_head(table)
    script.pop(PENDING_KEY, None)  # a table made before imports dropped it
    script.pop(DECK_LEFT_OUT, None)
    moves = [m.as_script_move() for m in reading.live_moves(table)]
    # What was left out, said at the top of the script.
    marks: dict[str, Any] = {}
    if not with_pending:
        hidden = secret_indexes(table, moves)
        if hidden:
            moves = [m for i, m in enumerate(moves) if i not in hidden]
            marks[PENDING_KEY] = len(hidden)
    if not with_deck and deck_is_secret(table):
        script = {k: v for k, v in script.items() if k not in DECK_SECRETS}
        marks[DECK_LEFT_OUT] = True
    script = {**marks, **script, "moves": moves}
    if not real_names:
        script = aliases_of(table).script(script)
    return script


def deck_is_secret(table: Table) -> bool:
    """Whether the table's seed and stacked deck are secret: a virtual deck (the referee holds
    the cards) in a game not over yet."""
    if table.deck_mode != Table.DeckMode.VIRTUAL:
        return False
    return not reading.state_of(table).get("finished")


def secret_indexes(table: Table, moves: list[dict[str, Any]]) -> set[int]:
    """The indexes in ``moves`` (the table's moves in force, as a script writes them) of those
    the game keeps secret for now (the referee's ``pending_secrets``)."""
    referee = registry.kit(table.game).referee
    state = reading.state_of(table)
    return set(referee.pending_secrets(state, [rules_part(m) for m in moves]))


@dataclass
class Imported:
    table: Table
    # The secret answers the exported table had and this script left out (not restored).
    left_out: int = 0


def import_script(script: Any, owner, name: str = "") -> Imported:
    """``new_tables.import_script``, telling how many answers a partial export left out."""
    left_out = 0
    if isinstance(script, dict) and PENDING_KEY in script:
        left_out = script[PENDING_KEY]
        if isinstance(left_out, bool) or not isinstance(left_out, int) or left_out < 0:
            raise BadScript(N_("'pending_left_out' must be a whole number, 0 or more."))
        script = {k: v for k, v in script.items() if k != PENDING_KEY}
    return Imported(new_tables.import_script(script, owner, name), left_out)
