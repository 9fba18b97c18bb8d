"""Amnesia Stories' registration: where the generic code finds each of its parts."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.amnesia_stories import (
    book,
    bots,
    carry,
    components,
    cover,
    decks,
    demo,
    lab_figures,
    options,
    page,
    playtest,
    questions,
    seat,
)
from games.amnesia_stories.area_store import BOOK_PICTURES
from games.amnesia_stories.area_texts import printed_texts
from games.amnesia_stories.forms import NewTable
from games.amnesia_stories.rules import GAME
from games.amnesia_stories.start import START
from games.registry import Credit, GameKit, PlaytestParts

KIT = GameKit(
    slug="amnesia_stories",
    title=_("Amnesia Stories"),
    summary=_(
        "A bard tells a three-step journey from adventure cards while everyone secretly "
        "matches each step to an illustration; matches score victory points."
    ),
    referee=GAME,
    carry=carry.CARRY,
    page_context=page.context,
    story_template="amnesia_stories/_tales.html",
    story_part=page.story_part,
    table_template="amnesia_stories/table.html",
    rules_template="amnesia_stories/rules.html",
    book=book.build,
    demos=demo.demos,
    cover=cover.draw,
    pictures=BOOK_PICTURES,
    printed_texts=printed_texts,
    components=components.components,
    playtest=PlaytestParts(
        figures=playtest.figures,
        balance=playtest.balance,
        figure_rows=playtest.figure_rows,
        bot_params=playtest.bot_params,
        charts=playtest.charts,
    ),
    option_labels=options.OPTION_LABELS,
    value_labels=options.VALUE_LABELS,
    presets=options.PRESETS,
    rulesets=options.RULESETS,
    new_table=NewTable(),
    start_method=START,
    urls="games.amnesia_stories.urls",
    seat_page="amnesia_stories:seat",
    seat_template="amnesia_stories/seat.html",
    seat_context=seat.seat_context,
    seat_move=seat.seat_move,
    picture=decks.table_picture,
    credit=Credit(work=_("draft 4 of its rules, written in Japanese")),
    emblem="amnesia_stories/emblem.svg",
    describe_move=page.describe_move,
    table_related=("answer_timer",),
    bots=bots.BOTS,
    bot_figures=bots.figures,
    figures=lab_figures.FIGURES + questions.FIGURES,
    bot_param_labels=lab_figures.PARAMS,
    view_labels=lab_figures.VIEW,
    view_values={"phase": lab_figures.PHASES},
    bot_trace=bots.trace,
    bot_value=bots.value,
    bot_judged=frozenset({"answer"}),
    bot_depth=5,
)
