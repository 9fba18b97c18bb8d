"""The changelog's question in Chromium, in Japanese: did draft 4 (a story nobody reads no
longer pays; the bard paid for being read by some, not all) change what draft 3 gave, at 3 and
at 4 players, and with a clearer or a vaguer bard? A designer starts a study from the lab with
lists only (no name typed), follows it, and reads the answer in sentences; no code name is on
screen on the way (``tests.codenames``, the detector the site-wide crawl shares). The cells'
chunks are played by this test's process (``play_chunk``, what a long-queue worker calls)."""

from __future__ import annotations

from django.contrib.auth.models import Group
from playwright.sync_api import expect

from games.playtests import lab_chunks
from games.playtests.models import DESIGNERS_GROUP, SimulationRun
from tests.codenames import code_names

from .helpers import QUICK_HTMX_POLLS, log_in

GAME = "amnesia_stories"


def no_code_names(page) -> None:
    text = page.locator("main").inner_text()
    assert not code_names(text), code_names(text)


def test_draft_4_against_draft_3_at_3_and_4_players_read_in_japanese(
    page, django_user_model, settings
) -> None:
    settings.LAB_CHUNK_GAMES = 8
    settings.LAB_YIELD_SECONDS = 0
    designer = log_in(page, django_user_model, username="designer")
    page.add_init_script(QUICK_HTMX_POLLS)  # the study's page asks every 0.4 s, not 1 s
    designer.groups.add(Group.objects.get_or_create(name=DESIGNERS_GROUP)[0])
    page.goto("/")
    page.get_by_label("Language").select_option("ja")
    page.locator(".language-form button[type=submit]").click()
    expect(page.locator("html")).to_have_attribute("lang", "ja")

    page.goto(f"/playtests/lab/{GAME}/")
    no_code_names(page)
    page.get_by_test_id("new-study").click()
    expect(page.get_by_test_id("study-form")).to_be_visible()
    no_code_names(page)
    # What a study sweeps is listed with its words and range: the bard's clarity among them.
    expect(page.get_by_test_id("sweepables")).to_contain_text("吟遊詩人の明快さ")

    page.get_by_label("比べる基準のルールセット").select_option(
        label="Amnesia Stories 草案3、バージョン2"
    )
    page.get_by_label("Amnesia Stories 草案4、バージョン1").check()
    page.get_by_label("プレイヤー数（から）").fill("3")
    page.locator("[name=players_to]").fill("4")
    # Eight games a cell (one chunk): past the handful an interval needs (figures.HANDFUL), at
    # each clarity and the two pooled; sixteen played twice the games for the same sentences.
    page.get_by_label("組み合わせごとのゲーム数").fill("8")
    page.get_by_label("もしもこれを変えたら").select_option(label="吟遊詩人の明快さ（0〜1）")
    page.locator("[name=values1]").fill("0.2, 0.8")
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.get_by_role("button", name="検証を始める").click()

    progress = page.get_by_test_id("study-progress")
    expect(progress).to_have_attribute("data-status", "queued")
    no_code_names(page)
    study = SimulationRun.objects.get(parent__isnull=True)
    assert study.children.count() == 2 * 2 * 2  # rulesets × player counts × clarities
    cells = list(study.children.order_by("pk"))
    lab_chunks.play_chunk(cells[0].pk, 0)
    expect(progress).to_have_attribute("data-done", "8")  # the bar moves on its own
    lab_chunks.run_everything(study)
    # Settled, the page comes again on its own with the answer.
    expect(progress).to_have_attribute("data-status", "done")

    answer = page.get_by_test_id("study-answer")
    # The direction in words, draft 4 read against draft 3, at each player count.
    lead = "Amnesia Stories 草案4、バージョン1はAmnesia Stories 草案3、バージョン2に比べて、"
    expect(answer).to_contain_text(lead + "3人、試した値すべてをまとめて：吟遊詩人の得点の割合")
    expect(answer).to_contain_text(lead + "4人、試した値すべてをまとめて：吟遊詩人の得点の割合")
    expect(answer).to_contain_text("ポイント")
    # And at each clarity of the bard.
    expect(answer).to_contain_text("3人、吟遊詩人の明快さ 0.8")
    expect(page.get_by_test_id("study-charts").locator("svg").first).to_be_visible()
    expect(page.get_by_test_id("study-histograms")).to_contain_text("各席の最終VP")
    no_code_names(page)
