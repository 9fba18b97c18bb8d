"""A whole evening of Amnesia Stories in Japanese, the seed's language, in Chromium: the game
master's laptop (and the projector beside it) and three phones, each in a browser context of
its own, seated through the join screen's links; one round, every player the bard once, the
bard's story told on the laptop and every answer sent from the phones, two of them at the same
moment; one refusal on a phone and one on the laptop, one undo, a reload on every device; the
impressions sent from the phones, the report read and the book downloaded and read."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.amnesia_stories.modes import PHONES
from games.models import Table
from games.services import new_tables, reading
from tests.pdfs import all_text

from .journeys2 import (
    BOOK_MS,
    at_once,
    caught_up,
    download_book,
    laptop,
    path_of,
    phone,
    refused,
    seat_links,
    squeeze,
)

PLAYERS = ["ハナ", "ケン", "ユキ"]
LOCALE = "ja-JP"
TALES = {
    "ハナ": "英雄は夜明け前に村を出て、二度と振り返らなかった。",
    "ケン": "英雄は嵐の海を渡り、知らない島に着いた。",
    "ユキ": "英雄は山の上で古い友に会い、剣を置いた。",
}
# Each player's numbers for the two steps of each story (three slots, two steps).
PICKS = {"ハナ": (1, 2), "ケン": (1, 3), "ユキ": (2, 1)}
# What the bard's phone says before the story is told.
BARD_PHONE = (
    "あなたが吟遊詩人です。ノートPCで物語を語ってください。このページは自動で更新されます。"
)


@pytest.fixture(autouse=True)
def folders(settings, tmp_path):
    settings.STORY_CACHE_DIR = str(tmp_path / "story-cache")
    settings.MEDIA_ROOT = tmp_path / "media"  # the card pictures are drawn on first use


def choose(page, numbers) -> None:
    for step, number in enumerate(numbers, start=1):
        page.locator(f'input[name="pick-{step}"][value="{number}"]').check()


@pytest.mark.long
def test_an_evening_of_amnesia_stories_in_japanese(
    browser, transactional_db, live_server, django_user_model, settings, tmp_path
) -> None:
    settings.PUBLIC_URL = live_server.url
    contexts = []
    try:
        context, gm_page, gm = laptop(browser, live_server, django_user_model, LOCALE)
        contexts.append(context)
        # One round (each player the bard once), three slots, two steps: the shortest game.
        table = new_tables.create_table(
            gm,
            "amnesia_stories",
            PLAYERS,
            name="足あと",
            options={"choices": 3, "questions": 2, "rounds": 1},
            seed=7,
            extra={"answer_mode": PHONES},
        )
        Table.objects.filter(pk=table.pk).update(language="ja")

        links = seat_links(gm_page, table)
        phones = {}
        for name, url in zip(PLAYERS, links, strict=True):
            context, page = phone(browser, url, LOCALE)
            contexts.append(context)
            phones[name] = page
            expect(page.locator("h1")).to_contain_text(name)
            expect(page.locator("html")).to_have_attribute("lang", "ja")
        tokens = {
            name: path_of(url).split("/")[2] for name, url in zip(PLAYERS, links, strict=True)
        }

        gm_page.goto(f"/tables/{table.pk}/")
        panel = gm_page.locator("#table-panel")
        heading = panel.locator(".actions h2")
        # The projector, a second window of the laptop, follows the table by itself.
        projector = gm_page.context.new_page()
        projector.goto(f"/tables/{table.pk}/projector/")

        for turn, bard in enumerate(PLAYERS):
            expect(heading).to_have_text(f"{bard}が吟遊詩人です")
            caught_up(gm_page, table)
            # The bard's phone sends them to the laptop, where they tell their story.
            caught_up(phones[bard], table)
            expect(phones[bard].get_by_test_id("seat-bard")).to_have_text(BARD_PHONE)
            steps = panel.locator("select[name=story]")
            box = gm_page.locator("#narration")
            box.fill(TALES[bard])
            if turn == 0:
                # A refusal on the laptop: one footprint chosen for both steps. The answer is
                # drawn in the page, in Japanese, with the telling typed still there.
                journey = reading.state_of(table)["journey"]
                steps.nth(0).select_option(journey[0])
                steps.nth(1).select_option(journey[0])
                sentence = refused(
                    gm_page, lambda: panel.locator('button[value="tell"]').click(), 400
                )
                assert sentence.strip() == "1つの物語に同じカードを2回使うことはできません。"
                expect(box).to_have_value(TALES[bard])
            steps.nth(0).select_option(index=1)
            steps.nth(1).select_option(index=2)
            panel.locator('button[value="tell"]').click()
            expect(heading).to_have_text("全員がひそかに回答")

            # Every phone answers; two of them send at the same moment.
            first, *others = [name for name in PLAYERS if name != bard] + [bard]
            for name in PLAYERS:
                caught_up(phones[name], table)
            answer = phones[first].locator(".answer-form button")
            if turn == 0:
                # A refusal on a phone: one number for both steps. The numbers stay chosen.
                page = phones[first]
                choose(page, (2, 2))
                sentence = refused(page, answer.tap, 400)
                assert "選ぶ番号はすべて違っていなければなりません" in sentence, sentence
                for step in (1, 2):
                    expect(page.locator(f'input[name="pick-{step}"][value="2"]')).to_be_checked()
                # Sent with a wrong number: the game master takes the answer back, and the
                # phone (reloaded) answers again.
                choose(page, (3, 2))
                answer.tap()
                expect(page.get_by_test_id("answer-sent")).to_be_visible()
                caught_up(gm_page, table)
                gm_page.once("dialog", lambda dialog: dialog.accept())
                panel.locator('form[action$="/undo/"] button').click()
                expect(answer).to_be_visible()
                page.reload()
                gm_page.reload()
                expect(panel.locator(".answer-status .done")).to_have_count(0)
                expect(answer).to_be_visible()
            choose(phones[first], PICKS[first])
            answer.tap()
            expect(phones[first].get_by_test_id("answer-sent")).to_be_visible()
            for name in others:
                choose(phones[name], PICKS[name])
                if turn == 1:
                    # A reload mid-answer keeps the numbers chosen on that phone.
                    phones[name].reload()
                    for step, number in enumerate(PICKS[name], start=1):
                        chosen = f'input[name="pick-{step}"][value="{number}"]'
                        expect(phones[name].locator(chosen)).to_be_checked()
            answers = at_once(
                *[(phones[name], phones[name].locator(".answer-form button")) for name in others]
            )
            assert [answer.status for answer in answers] == [200, 200]
            for name in others:
                expect(phones[name].get_by_role("alert")).to_have_count(0)

            # The laptop follows to the reveal. Until the game master opens it, no phone tells
            # the room what it holds: the scores stay as they were (all 0 after the first
            # story) and, after the last story, the game is not over yet on any phone.
            reveal_all = panel.locator(".reveal-all button")
            expect(reveal_all).to_be_visible()
            # The next bard's phone already sends them to the laptop; no phone leads to the
            # player's impressions before the end is shown.
            for name in PLAYERS:
                caught_up(phones[name], table)
                next_bard = turn + 1 < len(PLAYERS) and name == PLAYERS[turn + 1]
                expect(
                    phones[name].get_by_test_id("seat-bard" if next_bard else "seat-wait")
                ).to_be_visible()
                expect(phones[name].get_by_test_id("seat-impressions")).to_have_count(0)
                if turn == 0:
                    board = phones[name].locator(".seat-board td")
                    expect(board).to_have_text(["0"] * len(PLAYERS))
            reveal_all.click()
            expect(reveal_all).to_have_count(0)

        expect(heading).to_have_text("ゲーム終了")
        table.refresh_from_db()
        assert table.status == Table.Status.FINISHED
        state = reading.state_of(table)
        # Every turn judged the answers as the phones sent them, the one taken back excepted.
        assert [turn["bard"] for turn in state["history"]] == PLAYERS
        for turn in state["history"]:
            assert turn["picks"] == {name: list(PICKS[name]) for name in PLAYERS}
        # The laptop and the projector, by itself, say who won.
        assert len(state["winners"]) == 1
        won = f"{state['winners'][0]}の勝利！"
        expect(panel.locator(".final-result")).to_have_text(won)
        expect(projector.locator(".final-result")).to_have_text(won)

        # Each phone, by itself once the last story is revealed, says who won.
        for page in phones.values():
            expect(page.locator("#seat-panel h2")).to_have_text("ゲーム終了")
            expect(page.locator(".final-result")).to_have_text(won)

        # The game master takes the last answer back after the end: every phone follows (the
        # game is not over any more), and that player answers again on theirs.
        last = table.moves.order_by("-seq").first()
        assert last is not None
        again = last.payload["by"]
        gm_page.once("dialog", lambda dialog: dialog.accept())
        panel.locator("details.undo-after-end summary").click()
        panel.locator('form[action$="/undo/"] button').click()
        expect(heading).to_have_text("全員がひそかに回答")
        for page in phones.values():
            expect(page.locator(".final-result")).to_have_count(0)
        choose(phones[again], PICKS[again])
        phones[again].locator(".answer-form button").tap()
        # The same answers judge the turn as before: its reveal, opened already, stays open.
        expect(panel.locator(".final-result")).to_have_text(won)

        # The end again on every phone, and after a reload; then each phone leads to its
        # player's impressions (the ratings may be left out).
        for name, page in phones.items():
            expect(page.locator(".final-result")).to_have_text(won)
            page.reload()
            expect(page.locator(".final-result")).to_have_text(won)
            winner_row = page.locator(".standings tr.winner-row th")
            expect(winner_row).to_contain_text(state["winners"][0])
            page.locator(f'a[href$="/playtests/seat/{tokens[name]}/impression/"]').tap()
            expect(page.locator("h1")).to_have_text(f"{name}さん、ゲームはいかがでしたか？")
            page.locator('textarea[name="best_moment"]').fill(f"{name}：最後の物語。")
            page.locator("main form button[type=submit]").first.tap()
            expect(page.locator(".flash").first).to_have_text(
                f"{name}さん、ありがとうございました。感想を保存しました。"
            )

        # The report, read on the laptop: every player's words, and a code per seat's link.
        gm_page.get_by_test_id("playtest-link").click()
        expect(gm_page.locator("h1")).to_be_visible()
        for name in PLAYERS:
            expect(gm_page.locator("main")).to_contain_text(f"{name}：最後の物語。")
        expect(gm_page.locator(".pt-links-box img")).to_have_count(len(PLAYERS))
        # The place's 保存 stays one word beside its field (Japanese breaks between any two
        # characters: squeezed by the field, the button read 保 over 存).
        save = gm_page.locator(".pt-inline button")
        lines = "el => { const r = document.createRange(); r.selectNodeContents(el);"
        lines += " return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size; }"
        assert save.evaluate(lines) == 1
        # Its figures, and its PDF, are written with Japanese marks: 、 between the players,
        # no space after the full-width colon.
        expect(gm_page.locator("main")).to_contain_text("ハナ 1、ケン 1、ユキ 2")
        with gm_page.expect_download(timeout=BOOK_MS) as download:
            gm_page.locator(f'a[href="/playtests/tables/{table.pk}/pdf/"]').click()
        report = squeeze(all_text(Path(download.value.path()).read_bytes(), "\n"))
        assert "ハナ 1、ケン 1、ユキ 2" in report, report
        assert f"（勝者：{state['winners'][0]}）" in report, report

        # The book, in Japanese: every bard's story and its telling.
        gm_page.goto(f"/tables/{table.pk}/")
        with gm_page.expect_navigation():
            gm_page.get_by_test_id("story-link").click()
        text = download_book(gm_page, gm_page.url, tmp_path)
        # Japanese is set upright (a slanted Japanese font is a distorted one): the contents'
        # first words, the footprints under the pictures and the colophon's notes too.
        for selector in (".toc-incipit", ".journey-text", ".colophon-note"):
            shown = gm_page.locator(selector).first
            assert shown.evaluate("(el) => getComputedStyle(el).fontStyle") == "normal", selector
        # and its figures are the book's lining ones, small capitals or not (設問1, not 設問ı).
        for selector in (".chapter-title", ".journey-figure figcaption"):
            figures = gm_page.locator(selector).first.evaluate(
                "(el) => getComputedStyle(el).fontVariantNumeric"
            )
            assert "lining-nums" in figures, (selector, figures)
        for number, bard in enumerate(PLAYERS, start=1):
            assert f"第{number}の旅 語り：{bard} 吟遊詩人：{bard}・1巡目" in text, text
            assert TALES[bard] in text, (TALES[bard], text)
        assert "得点：ハナ +2 · ケン +1 · ユキ +2 — レッドカード：ハナ（1）" in text, text
        assert "奥付" in text
    finally:
        for context in contexts:
            context.close()
