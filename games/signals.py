"""What the write path announces, for features outside it to listen to.

``finished_changed`` is sent inside the move's transaction when a move (or an undo) ends a
game or takes its end back. ``sender`` is the game's kit (``games.registry``), so a game's
app listens to its own tables only (a contest credits its saved characters with a win's point,
and takes it back).
"""

from django.dispatch import Signal

# kwargs: table, before (the state before the move), after (the state after it)
finished_changed = Signal()

# Sent (sender=Table) inside the transaction that gives a seat a label or takes it away
# (games.aliases). kwargs: table, renamed ({name: label} just replaced; {} when a name is
# shown again). What is computed from the names (a report's figures, a story's search text)
# is recomputed; free text that named the player is rewritten.
names_changed = Signal()
