"""A whole evening of Amnesia in Brazilian Portuguese, the seed's language, in Chromium: the game
master's laptop and three phones, each in a browser context of its own, seated through the
join screen's links; played to its end from the phones (a challenge whose stake and join are
sent from two phones at the same moment, a memory, the memory of the room) while the laptop
types the narration; one refusal on a phone and one on the laptop, one undo, a reload on every
device; the story ended by everyone's agreement, the impressions sent from the phones, the
report read and the book downloaded and read."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Table
from games.services import new_tables

from .journeys2 import (
    at_once,
    caught_up,
    download_book,
    laptop,
    path_of,
    phone,
    refused,
    seat_links,
    tap,
    verb,
)

PLAYERS = ["Ana", "Bruno", "Caio"]
LOCALE = "pt-BR"
FIRST_HALF = "Ela acorda com sangue nas mãos."
SECOND_HALF = " A polícia bate na porta."
KNOCK = "Um gato preto no corredor."
WINDOW = "Ela pula pela janela."
STAKE = "Ela foge e nunca volta."
JOIN = "Ela se esconde no armário."
MEMORY = "Uma sala de cirurgia, clara como o meio-dia."
ROOM = "No quarto, antes de acordar, ela mesma abriu a porta para eles."
EPILOGUE = "E ninguém nunca soube o nome dela."


@pytest.fixture(autouse=True)
def book_folder(settings, tmp_path):
    settings.STORY_CACHE_DIR = str(tmp_path / "story-cache")


@pytest.mark.long
def test_an_evening_of_amnesia_in_portuguese(
    browser, transactional_db, live_server, django_user_model, settings, tmp_path
) -> None:
    # The phones reach the site at the address the site is told it has (PUBLIC_URL).
    settings.PUBLIC_URL = live_server.url
    # Served as `make run` serves it (DEBUG=1): django-htmx adds its debug script to every
    # page, which must leave the refusals to the pages they belong to.
    settings.DEBUG = True
    contexts = []
    try:
        context, gm_page, gm = laptop(browser, live_server, django_user_model, LOCALE)
        contexts.append(context)
        # The memory of the room may be told once the discard holds a token: one memory.
        table = new_tables.create_table(
            gm, "amnesia", PLAYERS, name="Quarto 714", options={"finale_factor": 0}, seed=5
        )
        Table.objects.filter(pk=table.pk).update(language="pt-br")

        # Seated through the join screen: each link opens that player's page on their phone.
        links = seat_links(gm_page, table)
        phones = {}
        for name, url in zip(PLAYERS, links, strict=True):
            context, page = phone(browser, url, LOCALE)
            contexts.append(context)
            phones[name] = page
            expect(page.locator("h1")).to_contain_text(name)
            expect(page.locator("html")).to_have_attribute("lang", "pt-br")
        ana, bruno, caio = (phones[name] for name in PLAYERS)
        tokens = {
            name: path_of(url).split("/")[2] for name, url in zip(PLAYERS, links, strict=True)
        }

        gm_page.goto(f"/tables/{table.pk}/")
        panel = gm_page.locator("#table-panel")
        heading = panel.locator(".actions h2")
        expect(heading).to_have_text("Vez de Ana")

        # Ana continues the story from her phone; the laptop follows and takes the narration.
        tap(ana, table, "continue")
        expect(ana.get_by_test_id("my-tokens")).to_have_text("Você tem 9 fichas")
        expect(heading).to_have_text("Ana narra")
        box = gm_page.locator("#narration")
        box.click()
        gm_page.keyboard.type(FIRST_HALF)
        # Caio suggests from his phone while the laptop types: the laptop follows the table,
        # the box keeps what was typed and the keyboard, and the typing goes on.
        caio.locator("#seat-suggestion").fill(KNOCK)
        tap(caio, table, "suggest")
        expect(gm_page.locator(".story")).to_contain_text(KNOCK)
        expect(box).to_have_value(FIRST_HALF)
        expect(box).to_be_focused()
        with gm_page.expect_response(
            lambda r: r.url.endswith("/draft/") and r.ok and "porta" in (r.request.post_data or "")
        ):
            gm_page.keyboard.type(SECOND_HALF)

        # Bruno pays to insist; Ana refuses from her phone: a challenge.
        bruno.locator("#seat-suggestion").fill(WINDOW)
        tap(bruno, table, "insist")
        tap(ana, table, "refuse")
        expect(heading).to_have_text("Desafio: Ana contra Bruno")

        # Before the first card, Bruno states his stakes and Caio joins, from two phones at
        # the same moment (both drawn at one version, both sent before either answer): both
        # count.
        caught_up(bruno, table)
        caught_up(caio, table)
        bruno.locator('input[name="text"]').fill(STAKE)
        caio.locator('input[name="text"]').fill(JOIN)
        seq = bruno.locator("#seat-panel").get_attribute("data-seq")
        answers = at_once((bruno, verb(bruno, "stake")), (caio, verb(caio, "join")))
        assert [answer.status for answer in answers] == [200, 200]
        for page in (bruno, caio):
            expect(page.locator("#seat-panel")).not_to_have_attribute("data-seq", seq)
            expect(page.get_by_role("alert")).to_have_count(0)
        said = {
            m.payload["do"]: (m.payload["by"], m.text)
            for m in Table.objects.get(pk=table.pk).moves.filter(payload__do__in=["stake", "join"])
        }
        assert said == {"stake": ("Bruno", STAKE), "join": ("Caio", JOIN)}

        # Ana turns the first card; Bruno and Caio each quit on their go: Ana takes the pot.
        tap(ana, table, "open")
        tap(bruno, table, "quit")
        tap(caio, table, "quit")
        # Ana's phone, reloaded, shows the scene resumed; the laptop says who won and gives
        # back the narration it was typing when the challenge began.
        ana.reload()
        expect(verb(ana, "end_scene")).to_be_visible()
        expect(panel.locator(".result")).to_contain_text("Ana venceu o desafio")
        expect(box).to_have_value(FIRST_HALF + SECOND_HALF)
        caught_up(gm_page, table)
        verb(panel, "end_scene").click()
        expect(heading).to_have_text("Vez de Bruno")
        expect(gm_page.locator(".story")).to_contain_text(FIRST_HALF + SECOND_HALF)

        # A refusal on a phone: Bruno's memory awakens an ability too long to write down. The
        # answer is drawn in his page, in Portuguese, with what he typed still there.
        caught_up(bruno, table)
        too_long = "cirurgia " * 10
        bruno.locator('input[name="abilities"]').fill(too_long)
        sentence = refused(bruno, lambda: verb(bruno, "flashback").tap(), 400)
        assert "Cada habilidade deve ter entre 1 e 80 caracteres" in sentence, sentence
        expect(bruno.locator('input[name="abilities"]')).to_have_value(too_long)
        bruno.reload()
        bruno.locator('input[name="abilities"]').fill("cirurgia")
        tap(bruno, table, "flashback")
        bruno.locator("#seat-narration").fill(MEMORY)
        tap(bruno, table, "end_scene")
        expect(gm_page.locator(".memory")).to_contain_text("cirurgia")
        expect(heading).to_have_text("Vez de Caio")

        # Caio remembers the room from his phone (reloaded first); the laptop types it, ends
        # the scene too soon, undoes, and the narration comes back (a reload keeps it).
        caio.reload()
        tap(caio, table, "room_flashback")
        expect(heading).to_have_text("Caio conta a lembrança do quarto")
        box.fill(ROOM)
        caught_up(gm_page, table)
        verb(panel, "end_scene").click()
        expect(heading).to_have_text("Vez de Ana")
        gm_page.once("dialog", lambda dialog: dialog.accept())  # "Undo the last move?"
        panel.locator('form[action$="/undo/"] button').click()
        expect(heading).to_have_text("Caio conta a lembrança do quarto")
        expect(box).to_have_value(ROOM)
        gm_page.reload()
        expect(box).to_have_value(ROOM)
        caught_up(gm_page, table)
        verb(panel, "end_scene").click()
        expect(heading).to_have_text("Vez de Ana")

        # A refusal on the laptop: the story ended before anyone has said they agree. One
        # sentence in Portuguese (no field names), the epilogue typed still there.
        epilogue = panel.locator('.end-story textarea[name="text"]')
        epilogue.fill(EPILOGUE)
        sentence = refused(gm_page, lambda: verb(panel, "end_story").click(), 400)
        assert "agreed" not in sentence and "'" not in sentence, sentence
        expect(epilogue).to_have_value(EPILOGUE)
        for name in PLAYERS:
            panel.locator(f'.end-story input[name="agreed"][value="{name}"]').check()
        verb(panel, "end_story").click()
        expect(heading).to_have_text("A história acabou")

        # Each phone, at the end, leads to its player's impressions; the ratings may be left.
        for name, page in phones.items():
            expect(page.locator(".seat-moves h2")).to_have_text("A história acabou")
            link = page.locator(f'a[href$="/playtests/seat/{tokens[name]}/impression/"]')
            link.tap()
            expect(page.locator("h1")).to_have_text(f"{name}, como foi a partida?")
            page.locator('textarea[name="best_moment"]').fill(f"{name}: o quarto, no fim.")
            if name == "Ana":
                page.locator('input[name="fun"][value="5"]').check()
            page.locator("main form button[type=submit]").first.tap()
            expect(page.locator(".flash").first).to_have_text(
                f"Obrigado, {name}: suas impressões foram salvas."
            )
        table.refresh_from_db()
        assert table.status == Table.Status.FINISHED

        # The report, read on the laptop: every player's words, and a code per seat's link.
        gm_page.get_by_test_id("playtest-link").click()
        expect(gm_page.locator("h1")).to_be_visible()
        report = gm_page.locator("main")
        for name in PLAYERS:
            expect(report).to_contain_text(f"{name}: o quarto, no fim.")
        # A move of the log is a "jogada" everywhere, the game's figures included.
        expect(report).to_contain_text("Duração dos desafios (jogadas)")
        expect(report).to_contain_text("na jogada")
        expect(report).not_to_contain_text("movimento")
        expect(gm_page.locator(".pt-links-box img")).to_have_count(len(PLAYERS))

        # The book, in Portuguese: every scene, the dispute and its sides, the room, the end.
        gm_page.goto(f"/tables/{table.pk}/")
        with gm_page.expect_navigation():
            gm_page.get_by_test_id("story-link").click()
        text = download_book(gm_page, gm_page.url, tmp_path)
        for words in (
            "Capítulo 1",
            FIRST_HALF + SECOND_HALF,
            f"Caio sugeriu “{KNOCK}”",
            f"Bruno insistiu: “{WINDOW}”",
            f"Em jogo para Bruno {STAKE}",
            f"Caio entrou: “{JOIN}”",
            "Bruno desistiu",
            "Ana ganha o pote de 3: vale a sua versão da história.",
            "Lembrança 1",
            "cirurgia",
            MEMORY,
            "A lembrança do quarto",
            ROOM,
            "O desfecho",
            EPILOGUE,
            "Ana, Bruno, Caio concordaram que a história termina aqui.",
        ):
            assert words in text, (words, text)
    finally:
        for context in contexts:
            context.close()
