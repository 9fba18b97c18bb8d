"""What an import brought in: the :class:`Summary` it fills, and the sentences the command and
the upload page print from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from amnesia_site.lists import listing


@dataclass
class Summary:
    tables: list[str] = field(default_factory=list)  # the names of the tables added
    already_there: list[str] = field(default_factory=list)  # here, the same log: left as is
    extended: list[str] = field(default_factory=list)  # here, given the moves the bundle adds
    others: list[str] = field(default_factory=list)  # someone else's here: left alone
    stories: int = 0
    edits: int = 0
    reports: int = 0
    impressions: int = 0
    # The people the bundle names, kept as names ("Name (username)"), and those linked to an
    # account of the same username (``link_accounts``).
    names: list[str] = field(default_factory=list)
    linked: list[str] = field(default_factory=list)
    # Secret answers a partial export left out (pending_left_out), not restored.
    left_out: int = 0
    decks: int = 0  # custom decks made (an identical one already here is used instead)
    characters: int = 0  # contest characters made (one its owner has here already is linked)
    # The covers written to storage (taken away again if the import is refused).
    files: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.tables or self.extended)


def summary_lines(summary: Summary) -> list[str]:
    """What came in, in a few sentences (the command and the upload page say the same)."""
    lines = [
        ngettext("%(n)d table came in.", "%(n)d tables came in.", len(summary.tables))
        % {"n": len(summary.tables)}
    ]
    if summary.already_there:
        count = len(summary.already_there)
        lines.append(
            ngettext(
                "%(n)d table was here already and was left as it was.",
                "%(n)d tables were here already and were left as they were.",
                count,
            )
            % {"n": count}
        )
    if summary.extended:
        lines.append(
            _("Here already, now given the moves the bundle adds: %(names)s.")
            % {"names": listing(summary.extended)}
        )
    if summary.others:
        lines.append(
            _("Left alone, because someone else has them on this site: %(names)s.")
            % {"names": listing(summary.others)}
        )
    if summary.left_out:
        lines.append(
            ngettext(
                "The bundle left out %(n)d secret answer of a turn not judged yet: it was not "
                "restored, and that player answers again.",
                "The bundle left out %(n)d secret answers of a turn not judged yet: they were "
                "not restored, and those players answer again.",
                summary.left_out,
            )
            % {"n": summary.left_out}
        )
    if summary.changed:
        lines.append(
            _(
                "Stories: %(stories)d (%(edits)d edits of their narration); playtest reports: "
                "%(reports)d (%(impressions)d impressions)."
            )
            % {
                "stories": summary.stories,
                "edits": summary.edits,
                "reports": summary.reports,
                "impressions": summary.impressions,
            }
        )
    if summary.decks or summary.characters:
        lines.append(
            _("Custom decks: %(decks)d; Contest characters: %(characters)d.")
            % {"decks": summary.decks, "characters": summary.characters}
        )
    if summary.names:
        lines.append(
            _(
                "The people the bundle names are kept as names, linked to no account here: "
                "%(names)s."
            )
            % {"names": listing(summary.names)}
        )
    if summary.linked:
        lines.append(
            _("Linked to the accounts of the same username on this site: %(names)s.")
            % {"names": listing(summary.linked)}
        )
    return lines
