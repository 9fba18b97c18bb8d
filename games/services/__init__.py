"""The write path and what it reads and checks: every move, undo, new table and import.

Four rooms, one way through (each says more):

- ``writing``: the one write path. Lock the table, check the move, have the referee judge
  it, store it, and advance what is kept from the log (state, story, version), in one
  transaction. Resends are answered with what was stored.
- ``reading``: the set-up, the moves in force, the state, the script. Never writes.
- ``validating``: what a move may hold, a client's move id, the position a move is judged
  against; and the refusals (``StaleMove``, ``StaleTurn``, ``NothingToUndo``), kept as data
  until ``games.answers`` puts them into the reader's language.
- ``new_tables`` (a table from a set-up or a script) and ``table_writes`` (a seat's new
  link, the narration being typed): writes that go through ``writing``'s lock.

Callers import the room they need (``from games.services import reading, writing``, then
``reading.state_of(table)``, ``writing.play_many(table, [move], seq)``); this package
re-exports nothing.
"""
