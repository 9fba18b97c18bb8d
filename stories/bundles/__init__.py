"""Bundles: a game master's tables carried from one site (a laptop at a playtest) to another.

A bundle is a zip holding ``bundle.json`` and, under ``files/``, the stories' covers and the
pictures the games carry. For each table it carries the game script (the set-up and the moves
in force, with their times and text: ``games.services.reading.script_of``), the seats (their
aliases and users), the ruleset version played, the story with its whole edit history, the playtest
report's place and impressions, and the game's own part (``"carried"``, from its kit's
``carry``: an Amnesia Stories table's custom deck with its pictures, the contest's saved
characters). The playtest figures are not carried: they are a cache, recomputed on arrival.

Importing goes through the one write path (``games.services.new_tables.import_script``: every
move is judged again by the referee), and is keyed by the table's stable UUID, so importing the same
bundle twice changes nothing.

What a bundle brings in belongs to the person who imports it (the uploader on the page, the
command's ``--owner``): its tables, their stories (which arrive private, whatever the bundle
says), the contest's characters (with their points) and its rulesets (matched only to a ruleset
that person owns here). The people a bundle names (game masters, seat users, authors of
narration edits, owners of characters and rulesets) are kept as names (the story's game
master, each edit's author) and listed in the summary: never linked to an account here, and no
account is made. Only the command's ``--link-accounts`` (moving one's own site) links a name
to the account of the same username that exists here already.

A table that is here already (the same UUID) and belongs to the importer is extended through
the write path when its log is the start of the bundle's (a later bundle with more moves, or
the secret answers a partial export left out), and left as it is when the logs are the same
(or the bundle's is the start of the one kept: an earlier bundle);
a log that disagrees refuses the bundle. A table someone else has here is left alone and named
in the summary.

An export leaves out the answers of a turn not judged yet, as ``referee export`` does
(``games.exports``: ``"pending_left_out": N`` at the top of that table's script) unless asked
for the whole log (``with_pending``). While a table with a virtual deck is in play, its seed and
stacked deck are left out too (``"deck_left_out": true``, as ``referee export`` writes) unless
asked for it (``with_deck``; the command's ``--with-secrets`` writes the whole script); such a table
cannot be rebuilt, so a bundle holding one of the importer's is refused with a sentence.

A bundle is refused whole, with a message and nothing written (one transaction), when it is not
a zip or is cut short, is larger than the limits, names a file outside its own folders (an
absolute path, ``..``, a link), expands far beyond its size (a zip bomb), or holds JSON that is
broken or not the shape described here. Entries are read into memory by name, never extracted
to disk. A bundle too large once unpacked is refused for that, whatever else is wrong with it.

Its rooms: ``format`` (the name, version, file names and limits; ``BundleError``),
``export`` (making a bundle), ``reading`` (unpacking one safely), ``schema`` (the shape of
``bundle.json``), ``importing`` (bringing one in through the write path), ``people`` (the
people a bundle names, as an import treats them) and ``summary`` (what came in, in
sentences). Callers import the room they need.
"""
