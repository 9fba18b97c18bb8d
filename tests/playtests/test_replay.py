"""One simulated game opened by its number: played again from the run's seed, stepped
through move by move, each seat's view, the bot's choice and the game's figures."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.playtests import lab_chunks, lab_start, replay
from games.rules import cards
from tests.playtests.conftest import builtin

GAME = "amnesia_stories"


@pytest.fixture
def run(designer, settings):
    settings.LAB_CHUNK_GAMES = 3
    settings.LAB_YIELD_SECONDS = 0
    draft4 = builtin(GAME, "Amnesia Stories draft 4")
    run = lab_start.start(designer, GAME, draft4, players=3, games=4, bots=["sensible", "random"])
    lab_chunks.run_everything(run)
    run.refresh_from_db()
    return run


def test_a_game_played_again_is_the_one_the_run_recorded(run):
    for index in range(4):
        game = replay.open_game(run, index)
        kept = replay.recorded(run, index)
        assert game.record["figures"] == kept["figures"] and not game.differs
        assert len(game.states) == len(game.moves) + 1 and game.states[-1]["finished"]
    ends = replay.extremes(run)
    lengths = {i + 1: replay.recorded(run, i)["moves"] for i in range(4)}
    assert lengths[ends["longest"]] == max(lengths.values())
    assert lengths[ends["shortest"]] == min(lengths.values())


def test_the_game_page_steps_through_with_each_seats_view(run, designer, client):
    client.force_login(designer)
    url = reverse("playtests:run_game", args=[run.pk, 2])
    end = client.get(url).content.decode()
    game = replay.open_game(run, 1)
    last = len(game.moves)
    assert f'data-step="{last}"' in end and "The game is over; won by" in end
    assert "Length in moves" in end  # the game's figures, by their names
    # The first move: who made it, which bot, among how many legal moves.
    first = client.get(url, {"step": 1}).content.decode()
    assert 'data-step="1"' in first
    by = game.moves[0]["by"]
    bot = game.record["seat_bots"][by]
    move = re.search(r'data-testid="step-move">(.*?)</p>', first, re.S).group(1)
    assert f"The {bot} bot chose it" in move
    # Each seat's view is the referee's for that seat, in words: at a step where two seats
    # see different things (one has answered, its picks hidden from the other), so do the
    # pages; and no raw dump of the view is left.
    from games import registry
    from tests.crawl_reading import visible

    referee = registry.kit(GAME).referee
    seats = list(game.setup.players)
    step = next(
        i
        for i, state in enumerate(game.states)
        if referee.view(state, seats[0]) != referee.view(state, seats[1])
    )

    def shown(seat: str) -> str:
        page = client.get(url, {"step": step, "seat": seat}).content.decode()
        assert "<pre" not in page
        part = page.split('data-testid="replay-view"', 1)[1].split("</section>", 1)[0]
        return " ".join(visible("<div " + part))

    texts = {seat: shown(seat) for seat in seats[:2]}
    for seat, text in texts.items():
        rows = replay.view_rows(GAME, referee.view(game.states[step], seat))
        labels = [r["label"] for r in rows]
        assert "Phase" in labels and "Victory points" in labels
        assert f"What {seat} sees" in text
        assert all(label in text for label in labels)
    assert "Picks given this turn" in texts[seats[0]] + texts[seats[1]]
    assert texts[seats[0]].replace(seats[0], "") != texts[seats[1]].replace(seats[1], "")
    # The number form opens a game; out of range is brought within; the run page links it.
    opened = client.get(reverse("playtests:run_game_open", args=[run.pk]), {"number": "99"})
    assert opened.status_code == 302 and opened["Location"].endswith(f"/games/{4}/")
    assert client.get(reverse("playtests:run_game", args=[run.pk, 5])).status_code == 404
    page = client.get(reverse("playtests:run_detail", args=[run.pk])).content.decode()
    assert reverse("playtests:run_game_open", args=[run.pk]) in page


def test_only_those_who_see_the_run_open_its_games(run, client, django_user_model):
    url = reverse("playtests:run_game", args=[run.pk, 1])
    assert client.get(url).status_code == 302  # to log in
    stranger = django_user_model.objects.create_user(username="stranger")
    client.force_login(stranger)
    assert client.get(url).status_code == 404


def test_the_game_page_in_japanese_says_it_in_the_readers_words(run, designer, client):
    from tests.codenames import code_names
    from tests.crawl_reading import visible

    client.force_login(designer)
    url = reverse("playtests:run_game", args=[run.pk, 1])
    page = client.get(url, {"step": 1}, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    # The view too is in words: nothing is left as the program holds it.
    assert "<pre" not in page and "局面" in page  # "Phase", in Japanese
    assert code_names(" ".join(visible(page)), allowed=["P1", "P2", "P3"]) == []
    # The ruleset as the rulesets page names it, not its stored label ("…draft 4@1").
    shown = " ".join(visible(page))
    assert "Amnesia Stories 草案4、バージョン1" in shown and "@" not in shown, shown


def test_a_studys_cells_open_their_games(designer, client, settings):
    from games.playtests import study_start

    settings.LAB_CHUNK_GAMES = 5
    settings.LAB_YIELD_SECONDS = 0
    top = study_start.start(
        designer,
        GAME,
        [builtin(GAME, "Amnesia Stories draft 4"), builtin(GAME, "Amnesia Stories draft 3")],
        players=[3],
        games=3,
        bots=["sensible"],
        grid=None,
        seed=4,
    )
    lab_chunks.run_everything(top)
    client.force_login(designer)
    page = client.get(reverse("playtests:study", args=[top.pk])).content.decode()
    part = page.split('data-testid="study-games"', 1)[1].split("</section>", 1)[0]
    cells = list(top.children.order_by("pk"))
    for cell in cells:
        assert reverse("playtests:run_game", args=[cell.pk, 1]) in part
    assert "Amnesia Stories draft 3" in part and "3 players" in part
    # A cell's game opens, with its longest and shortest offered; the study's own row has
    # no game of its own.
    game = client.get(reverse("playtests:run_game", args=[cells[1].pk, 1])).content.decode()
    assert 'data-testid="open-longest"' in game and 'data-testid="open-shortest"' in game
    assert client.get(reverse("playtests:run_game", args=[top.pk, 1])).status_code == 404


@pytest.mark.parametrize("game", ["amnesia", "contest"])
def test_every_games_view_reads_in_words_each_seat_its_own(game):
    """The view of each game in its own words: the phase coded for scripts read in words,
    cards as the cards, a seat's hidden hand only in that seat's view, nothing unnamed."""
    from games import registry
    from games.rules.script import parse_setup
    from games.simulate.engine import Spec, play_game

    kit = registry.kit(game)
    options = {name: option.default for name, option in kit.referee.options.items()}
    spec = Spec(
        referee=kit.referee,
        classes=dict(kit.bots),
        figures=kit.bot_figures,
        options=options,
        players=3,
        bots=["sensible"],
        params={},
        seed=1,
        games=1,
    )
    spec.keep_scripts = 1
    script = play_game(spec, 0)["script"]
    state = kit.referee.initial_state(parse_setup(script))
    for move in script["moves"][:60]:
        state = kit.referee.apply(state, dict(move))

    def text(rows) -> str:
        return " ".join(
            f"{r['label']} {r.get('text', '')} {text(r.get('rows') or r.get('pairs') or [])}"
            for r in rows
        )

    table, p1, p2 = (
        text(replay.view_rows(game, kit.referee.view(state, seat))) for seat in (None, "P1", "P2")
    )
    phase = str(kit.view_values["phase"][state["phase"]])
    assert table.startswith(f"Phase {phase} ")
    assert "'" not in table and "{" not in table  # no program's dict or list left as it is
    if game == "contest":
        hand = [cards.label(c) for c in state["players"]["P1"]["hand"]]
        assert hand and all(c in p1 for c in hand) and " Hand " in p1
        assert " Hand " not in table and " Hand " not in p2.split("P1", 1)[1].split("P2", 1)[0]
        assert "Cards in hand" in table
    else:
        assert "Tokens  P1 " in table and "Cards drawn" in table
