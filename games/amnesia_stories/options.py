"""The options an Amnesia Stories table is set up with, as the site shows them: their labels
on the new-table form (the referee's own help is English only), the earlier drafts one click
away (``PRESETS``), and the built-in rulesets seeded after migrate.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

# Labels the new-table form shows for the options (the referee's own help is English only).
OPTION_LABELS = {
    "choices": _("Selection slots (and journey cards, and number cards each)"),
    "questions": _("Steps in each bard's story"),
    "rounds": _("Rounds (each player is the bard this many times)"),
    "bard_points": _("Bard VP for a step some (not all) of the audience matched"),
    "audience_points": _("Audience VP for each step matching the bard"),
    "set_bonus": _("Audience bonus VP for the bard's numbers in any order"),
    "red_card_on_all_wrong": _("A step nobody matched gives the bard a red card"),
    "starting_vp": _("VP everyone starts with"),
    "all_matched": _("A step the whole audience matched"),
}
VALUE_LABELS = {
    "all_matched": {
        "zero": _("gives the bard nothing"),
        "zero_at_climax": _("gives the bard VP, except on the story’s last step"),
    },
}

# Earlier (and later) drafts, one click away on the new-table form; draft 4, the seed's own
# rules, is the defaults. Each says in words (``changes``) what it changes from draft 4; the
# form lists them under the links.
DRAFT3_OPTIONS = {
    "choices": 6,
    "questions": 4,
    "bard_points": 1,
    "red_card_on_all_wrong": False,
    "all_matched": "zero_at_climax",
}
HEROIC_SAGA_OPTIONS = {"starting_vp": 5, "red_card_on_all_wrong": False}
PRESETS = {
    "draft3": {
        "label": _("Draft 3"),
        "changes": _(
            "From draft 4: 6 choices instead of 5; 4 questions instead of 3; the bard scores "
            "1 VP instead of 2 for a step some of the audience matched; a step everyone matched "
            "still pays the bard, except at the climax (the story's last step); no red card "
            "when nobody matches."
        ),
        "options": DRAFT3_OPTIONS,
    },
    "heroic_saga": {
        "label": _("Heroic Saga (draft 6, partial)"),
        "changes": _(
            "From draft 4: everyone starts with 5 VP instead of 0, and no red card when nobody "
            "matches. Only what its public changelog says; the rest is draft 4."
        ),
        "options": HEROIC_SAGA_OPTIONS,
    },
}


# The built-in rulesets, each (name, version) seeded once after migrate. A correction is a
# new version, never an edit in place: the reports of tables that played an earlier version
# keep comparing version against version. Draft 3 version 1 missed the climax exception
# (all_matched), which draft 4 removed; version 2 has it.
DRAFT3_V1_OPTIONS = {"choices": 6, "questions": 4, "bard_points": 1, "red_card_on_all_wrong": False}
RULESETS = (
    {
        "name": "Amnesia Stories draft 3",
        "label": _("Amnesia Stories draft 3"),
        "version": 1,
        "options": DRAFT3_V1_OPTIONS,
        "changelog": "Draft 3: six choices, four questions, the bard scores 1 VP, "
        "no red card for a step nobody matched.",
        "changelog_label": _(
            "Draft 3: six choices, four questions, the bard scores 1 VP, "
            "no red card for a step nobody matched."
        ),
    },
    {
        "name": "Amnesia Stories draft 3",
        "label": _("Amnesia Stories draft 3"),
        "version": 2,
        "options": DRAFT3_OPTIONS,
        "changelog": "Draft 3, corrected: six choices, four questions, the bard scores 1 VP, "
        "no red card for a step nobody matched, and the climax exception: a step the whole "
        "audience matched still gives the bard 1 VP, except on the story's last step. "
        "Version 1 left the climax exception out.",
        "changelog_label": _(
            "Draft 3, corrected: six choices, four questions, the bard scores 1 VP, "
            "no red card for a step nobody matched, and the climax exception: a step the whole "
            "audience matched still gives the bard 1 VP, except on the story's last step. "
            "Version 1 left the climax exception out."
        ),
    },
    {
        "name": "Amnesia Stories draft 4",
        "label": _("Amnesia Stories draft 4"),
        "version": 1,
        "options": {},
        "changelog": "Draft 4, the seed's own rules; what changed from draft 3, as its "
        "designer lists it, aimed at making it play more smoothly: five choices (was 6) and "
        "three questions (was 4); the bard scores 2 VP for a step some but not all of the "
        "audience matched (was 1); the climax exception is gone, so a step the whole audience "
        "matched gives the bard nothing on every step (draft 3 paid the bard for it except on "
        "the last step); a step nobody in the audience matched gives the bard nothing and a "
        "red card (draft 3 had no red cards), because a bard who could not be sure of "
        "splitting the audience was better off making everyone miss than letting everyone "
        "match, so choosing an impossible picture now costs; at the end the players holding "
        "the most red cards lose that many VP.",
        "changelog_label": _(
            "Draft 4, the seed's own rules; what changed from draft 3, as its "
            "designer lists it, aimed at making it play more smoothly: five choices (was 6) and "
            "three questions (was 4); the bard scores 2 VP for a step some but not all of the "
            "audience matched (was 1); the climax exception is gone, so a step the whole audience "
            "matched gives the bard nothing on every step (draft 3 paid the bard for it except on "
            "the last step); a step nobody in the audience matched gives the bard nothing and a "
            "red card (draft 3 had no red cards), because a bard who could not be sure of "
            "splitting the audience was better off making everyone miss than letting everyone "
            "match, so choosing an impossible picture now costs; at the end the players holding "
            "the most red cards lose that many VP."
        ),
    },
    {
        "name": "Heroic Saga draft 6 (partial)",
        "label": _("Heroic Saga draft 6 (partial)"),
        "version": 1,
        "options": HEROIC_SAGA_OPTIONS,
        "changelog": "Heroic Saga, draft 6, partial (only what its public changelog says): "
        "everyone starts with 5 VP (was 0), and no red card for a step nobody matched.",
        "changelog_label": _(
            "Heroic Saga, draft 6, partial (only what its public changelog says): "
            "everyone starts with 5 VP (was 0), and no red card for a step nobody matched."
        ),
    },
)
