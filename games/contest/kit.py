"""The contest's registration: where the generic code finds each of its parts."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.contest import (
    book,
    bots,
    carry,
    components,
    cover,
    demo,
    lab_figures,
    minute,
    options,
    page,
    playtest,
    questions,
    views,
)
from games.contest.forms import NewTable
from games.contest.rules import GAME
from games.contest.start import START
from games.registry import Credit, GameKit, PlaytestParts

KIT = GameKit(
    slug="contest",
    title=_("Contest"),
    summary=_(
        "Characters with four attributes challenge each other with cards, drinks and "
        "pretzels for control of the story; the last player still in wins."
    ),
    referee=GAME,
    carry=carry.CARRY,
    page_context=page.context,
    story_template="contest/_story.html",
    story_part=page.story_part,
    table_template="contest/table.html",
    rules_template="contest/rules.html",
    book=book.build,
    demos=demo.demos,
    cover=cover.draw,
    components=components.components,
    playtest=PlaytestParts(
        figures=playtest.figures,
        balance=playtest.balance,
        figure_rows=playtest.figure_rows,
        charts=playtest.charts,
        questions=questions.questions,
        bot_params=questions.bot_params,
    ),
    option_labels=options.OPTION_LABELS,
    value_labels=options.VALUE_LABELS,
    rulesets=options.RULESETS,
    describe_move=page.describe_move,
    new_table=NewTable(),
    start_method=START,
    urls="games.contest.urls",
    nav=(("contest:characters", _("Characters")),),
    # The rules text is signed: its author gives his name in its opening lines, and the
    # address he asks comments to be sent to.
    credit=Credit(designer="Phillip Foster", address="phillipfallon@yahoo.com"),
    emblem="contest/emblem.svg",
    seat_page="contest:seat",
    seat_template="contest/seat.html",
    seat_context=views.seat_context,
    seat_move=views.seat_move,
    bots=bots.BOTS,
    bot_figures=bots.figures,
    figures=lab_figures.FIGURES + questions.FIGURES,
    bot_param_labels=lab_figures.PARAMS,
    view_labels=lab_figures.VIEW,
    view_values={"phase": page.PHASES, "attributes": playtest.ATTRIBUTE_NAMES},
    bot_trace=bots.trace,
    bot_value=bots.value,
    bot_judged=frozenset({"extra_point", "bribe"}),
    bot_depth=15,
    table_guard=minute.guard,
    guarded=minute.is_strict,
)
