"""A study's charts on a phone: no label drawn over another, none off the chart.

Walked at 390 px wide in Portuguese, a histogram's ten bins ran their labels into one another
("147–222223–298…"), two rulesets' bars their values ("0%0%"), and a figure's long name on
the y axis ran off the chart. The charts are drawn alone (``set_content``: no server, no
database), each text's box measured by Chromium."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.playtests import charts

BINS = ["147–222", "223–298", "299–374", "375–450", "451–526"]
BINS += ["527–602", "603–678", "679–754", "755–830", "831–906"]
DRAFTS = ("Amnesia Stories, rascunho 3, versão 2", "Amnesia Stories, rascunho 4, versão 1")

# Every pair of texts of each chart that overlap (by more than half a pixel each way), and
# every text outside its chart's box.
CLASHES = """() => [...document.querySelectorAll("svg.chart")].flatMap((svg, n) => {
  const box = svg.getBoundingClientRect();
  const texts = [...svg.querySelectorAll("text")].map((t) => [t.textContent, t.getBoundingClientRect()]);
  const out = texts.filter(([, r]) => r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5
      || r.left < box.left - 0.5 || r.right > box.right + 0.5).map(([t]) => `${n}: ${t} off`);
  texts.forEach(([a, r], i) => texts.slice(i + 1).forEach(([b, q]) => {
    if (Math.min(r.right, q.right) - Math.max(r.left, q.left) > 0.5
        && Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top) > 0.5) out.push(`${n}: ${a} / ${b}`);
  }));
  return out;
})"""


@pytest.mark.parametrize("language", ["pt-br", "ja"])
def test_a_studys_charts_keep_their_labels_apart_on_a_phone(browser, language) -> None:
    with translation.override(language):
        drawn = [
            charts.bar_chart(
                "",
                BINS,
                {DRAFTS[0]: [0.05, 0.04, 0.36, 0.21, 0.15, 0.06, 0.08, 0.02, 0.01, 0.01]},
                percent=True,
                y_label="Proporção",
            ),
            charts.bar_chart(
                "",
                BINS,
                {d: [0.0, 0.04, 0.1, 0.22, 0.22, 0.25, 0.13, 0.04, 0.01, 0.0] for d in DRAFTS},
                percent=True,
                y_label="割合" if language == "ja" else "Proporção",
            ),
            # A bot's edge at one player count, in signed points: a bar going down from 0
            # has its value under its whisker, over the player count's label.
            charts.bar_chart(
                "",
                ["3"],
                {DRAFTS[0]: [-12.5], DRAFTS[1]: [4.2]},
                ranges={DRAFTS[0]: [(-20.3, -4.7)], DRAFTS[1]: [(-2.5, 10.9)]},
                y_label="ボットの優位（ポイント）" if language == "ja" else "Vantagem (pontos)",
                signed=True,
            ),
            # Bars too narrow for their values, which are turned along them, below 0 too.
            charts.bar_chart(
                "",
                BINS[:6],
                {d: [-45.5, -30.25, 12.5, -1.5, -60.75, 8.25] for d in DRAFTS},
                y_label="Proporção",
                signed=True,
            ),
            # A bot's edge over the player counts: signed ticks ("+40", "−60") beside the y
            # axis's label, a zero line across.
            charts.line_chart(
                "",
                {DRAFTS[0]: [-12.5, 4.0, 31.5], DRAFTS[1]: [-45.0, -8.25, 2.5]},
                bands={DRAFTS[0]: ([-20.3, -2.5, 22.0], [-4.7, 10.5, 41.0])},
                x=[3, 4, 5],
                x_label="Jogadores",
                y_label="ボットの優位（ポイント）" if language == "ja" else "Vantagem (pontos)",
                signed=True,
            ),
            charts.line_chart(
                "",
                {d: [45.0, 66.0] for d in DRAFTS},
                x=[3, 4],
                x_label="Jogadores",
                y_label="一部だけが当てた設問（%）、聴衆の一部"
                if language == "ja"
                else "Etapas lidas por alguns, não todos (%)",
            ),
        ]
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.set_content(
            '<body style="margin:0;padding:12px;font-family:sans-serif">'
            + "".join(f'<div style="width:330px">{svg}</div>' for svg in drawn)
            + "<style>svg.chart{display:block;width:100%;height:auto}</style></body>"
        )
        assert page.evaluate(CLASHES) == []
    finally:
        context.close()


def test_a_runs_figures_table_keeps_its_headers_whole_on_a_phone(
    page, django_user_model, settings, live_server
) -> None:
    """At 390 px in Japanese the figures table's "Games" column broke its header in two
    ("ゲー" / "ム"): a word's letters are kept together."""
    from django.contrib.auth.models import Group

    from games.models import Ruleset
    from games.playtests import lab_chunks, lab_start
    from games.playtests.models import DESIGNERS_GROUP

    from .helpers import log_in

    settings.LAB_CHUNK_GAMES = 3
    settings.LAB_YIELD_SECONDS = 0
    designer = log_in(page, django_user_model, username="designer")
    designer.groups.add(Group.objects.get_or_create(name=DESIGNERS_GROUP)[0])
    ruleset = Ruleset.objects.get(game="amnesia_stories", name="Amnesia Stories draft 4", version=1)
    run = lab_start.start(
        designer, "amnesia_stories", ruleset, players=3, games=3, bots=["sensible"]
    )
    lab_chunks.run_everything(run)
    page.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/playtests/runs/{run.pk}/")
    header = page.get_by_test_id("run-figures").locator("thead th").last
    assert header.inner_text() == "ゲーム"
    lines = header.evaluate(
        "(th) => { const r = document.createRange(); r.selectNodeContents(th);"
        " return new Set([...r.getClientRects()].map((q) => Math.round(q.top))).size; }"
    )
    assert lines == 1


def test_a_bots_edge_keeps_its_unit_whole_on_a_phone(
    page, django_user_model, settings, live_server
) -> None:
    """A bot's edge is said in points ("−50.0（−56.7〜−43.3）ポイント"): at 390 px in Japanese
    the figures table broke the unit in two ("ポイン" / "ト"); a number cell breaks only
    between its parts."""
    from django.contrib.auth.models import Group

    from games.models import Ruleset
    from games.playtests import lab_chunks, lab_start
    from games.playtests.models import DESIGNERS_GROUP

    from .helpers import log_in

    settings.LAB_CHUNK_GAMES = 10
    settings.LAB_YIELD_SECONDS = 0
    designer = log_in(page, django_user_model, username="designer")
    designer.groups.add(Group.objects.get_or_create(name=DESIGNERS_GROUP)[0])
    ruleset = Ruleset.objects.filter(game="contest").order_by("pk").first()
    run = lab_start.start(
        designer, "contest", ruleset, players=3, games=20, bots=["sensible", "random"]
    )
    lab_chunks.run_everything(run)
    page.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/playtests/runs/{run.pk}/")
    cell = page.locator('tr[data-figure="bot.random.win_edge"] td').first
    assert cell.inner_text().replace("\n", "").endswith("ポイント"), cell.inner_text()
    lines = cell.evaluate(
        "(td) => { const t = td.firstChild, r = document.createRange();"
        " r.setStart(t, t.length - 4); r.setEnd(t, t.length);"
        " return new Set([...r.getClientRects()].map((q) => Math.round(q.top))).size; }"
    )
    assert lines == 1
