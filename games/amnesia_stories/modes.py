"""How a table's players answer: pass the laptop (the default; number cards are entered on
the same table page), or each on their own phone at the same time (their seat pages).

The choice is made on the new-table form and kept in the table's set-up (``Table.extra``):
the referee ignores the key, and an exported script keeps it.
"""

from __future__ import annotations

from games.models import Table

ANSWER_MODE = "answer_mode"
LAPTOP = "laptop"
PHONES = "phones"


def answers_on_phones(table: Table) -> bool:
    return table.extra.get(ANSWER_MODE) == PHONES
