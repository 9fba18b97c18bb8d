"""Amnesia's registration: where the generic code finds each of its parts."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.amnesia import (
    book,
    bots,
    components,
    cover,
    demo,
    lab_figures,
    page,
    playtest,
    questions,
    views,
)
from games.amnesia.rules import GAME
from games.registry import Credit, GameKit, PlaytestParts

KIT = GameKit(
    slug="amnesia",
    title=_("Amnesia"),
    summary=_(
        "An amnesiac heroine wakes in a strange room; the players tell her scenes and "
        "memories, pay tokens for suggestions and settle disputes with a higher-or-lower duel."
    ),
    referee=GAME,
    page_context=page.context,
    story_template="amnesia/_story.html",
    story_part=page.story_part,
    table_template="amnesia/table.html",
    rules_template="amnesia/rules.html",
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
    option_labels=page.OPTION_LABELS,
    value_labels=page.VALUE_LABELS,
    rulesets=page.RULESETS,
    credit=Credit(work=_("the second version of its rules, written in Portuguese")),
    emblem="amnesia/emblem.svg",
    describe_move=page.describe_move,
    urls="games.amnesia.urls",
    seat_page="amnesia:seat",
    seat_template="amnesia/seat.html",
    seat_context=views.seat_context,
    bots=bots.BOTS,
    bot_figures=bots.figures,
    figures=lab_figures.FIGURES + questions.FIGURES,
    bot_param_labels=lab_figures.PARAMS,
    view_labels=lab_figures.VIEW,
    view_values={"phase": page.PHASES},
    bot_trace=bots.trace,
    bot_value=bots.value,
    bot_depth=8,
)
