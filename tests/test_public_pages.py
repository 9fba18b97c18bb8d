"""What anyone may read without an account: the rules of each game (with the set-up and the
advice to the storytellers), a table's or a seat's own rules for those who may see it, and the
home page that presents the games and leads into the demo."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games import registry
from games.management.commands.demo import DEMO_USER
from games.services import new_tables

pytestmark = pytest.mark.django_db

GAMES = [kit.slug for kit in registry.kits()]

# For each game, words of its set-up and of the advice its seed gives, as these pages say them.
SECTIONS = {
    "amnesia": {
        "setup": ["Shuffle the deck", "bank and of the discard"],
        "advice": [
            "Keep to what has been told",
            "Keep the story on her",
            "A scene ends when its action does",
            "The others play the side characters",
            "a memory can also explain",
        ],
    },
    "contest": {
        "setup": ["Everyone makes a character", "the highest starts"],
        "advice": [
            "The first scene must get to a challenge",
            "try to carry on the story the last narrator was telling",
        ],
    },
    "amnesia_stories": {
        "setup": ["Shuffle the area cards", "whoever gets the S starts"],
        "advice": ["stopping after about a minute", "some listeners seeing it your way"],
    },
}


def section(html: str, name: str) -> str:
    """The text of one ``<section id=name>`` of the page (up to the next top-level section)."""
    found = re.search(rf'<section id="{name}"[^>]*>(.*?)</section>', html, re.S)
    assert found, f"no {name} section"
    return re.sub(r"\s+", " ", found.group(1))


@pytest.mark.parametrize("game", sorted(SECTIONS))
def test_anyone_reads_the_rules_with_set_up_and_advice(game: str) -> None:
    response = Client().get(reverse("games:rules", args=[game]))
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("components", "setup", "players", "turn", "advice", "rulings", "options"):
        assert f'<section id="{name}"' in html
    for words in SECTIONS[game]["setup"]:
        assert words in section(html, "setup")
    for words in SECTIONS[game]["advice"]:
        assert words in section(html, "advice")
    # The defaults, not a table's.
    assert "changed at this table" not in html


def test_the_contest_rules_say_the_scale_and_that_there_are_no_skills() -> None:
    html = Client().get(reverse("games:rules", args=["contest"])).content.decode()
    components = section(html, "components")
    assert "1 is hopeless" in components and "5 is superhuman" in components
    assert "There are no skills" in components
    # What the text lost is said openly, with the app's ruling.
    rulings = section(html, "rulings")
    assert "lost some of its lists" in rulings and "Pretzels that put you out: 5" in rulings


def test_an_unknown_game_has_no_rules() -> None:
    assert Client().get("/rules/chess/").status_code == 404


@pytest.fixture
def contest_table(gm):
    return new_tables.create_table(
        gm,
        "contest",
        ["Ada", "Bea", "Cy"],
        seed=7,
        options={"pretzel_limit": 7, "hand_size": 6},
    )


def test_a_tables_rules_show_its_own_options_to_its_owner(gm_client: Client, contest_table) -> None:
    response = gm_client.get(reverse("games:table_rules", args=[contest_table.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert contest_table.name in html
    assert "This table seats 3 players: Ada, Bea, Cy." in html
    assert "Pretzels that put you out: 7" in section(html, "rulings")
    assert "deal everyone 6 cards" in section(html, "setup")
    options = section(html, "options")
    assert options.count("changed at this table") == 2
    assert "default: 5" in options and "default: 8" in options
    assert reverse("games:table", args=[contest_table.pk]) in html


def test_a_tables_rules_are_not_found_for_another_user(other_client: Client, contest_table) -> None:
    response = other_client.get(reverse("games:table_rules", args=[contest_table.pk]))
    assert response.status_code == 404


def test_a_tables_rules_ask_a_visitor_to_log_in(contest_table) -> None:
    response = Client().get(reverse("games:table_rules", args=[contest_table.pk]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_seat_link_opens_its_tables_rules(contest_table) -> None:
    seat = contest_table.seats.get(name="Bea")
    response = Client().get(reverse("games:seat_rules", args=[seat.token]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Pretzels that put you out: 7" in html
    assert reverse("contest:seat", args=[seat.token]) in html  # the way back to the seat
    assert '<meta name="referrer" content="origin">' in html  # the token in no Referer


def test_a_wrong_seat_token_is_not_found(contest_table) -> None:
    response = Client().get(reverse("games:seat_rules", args=["x" * 32]))
    assert response.status_code == 404


def test_seat_rules_work_for_any_games_seat(gm) -> None:
    """The URL reads the Seat model, not the contest: an Amnesia seat's token works too."""
    table = new_tables.create_table(
        gm, "amnesia", ["Ana", "Bruno"], seed=7, options={"token_cap": 8}
    )
    seat = table.seats.first()
    response = Client().get(reverse("games:seat_rules", args=[seat.token]))
    assert response.status_code == 200
    assert "fewer than 8" in section(response.content.decode(), "turn")


@pytest.mark.parametrize("game", GAMES)
def test_every_table_page_links_its_rules(gm, gm_client: Client, game: str) -> None:
    players = ["Ana", "Bruno", "Caio"]
    table = new_tables.create_table(gm, game, players, seed=7)
    html = gm_client.get(table.get_absolute_url()).content.decode()
    assert reverse("games:table_rules", args=[table.pk]) in html


def test_the_seat_page_links_its_rules(contest_table) -> None:
    seat = contest_table.seats.first()
    html = Client().get(reverse("contest:seat", args=[seat.token])).content.decode()
    assert reverse("games:seat_rules", args=[seat.token]) in html


# -- the home page -------------------------------------------------------------------------
def test_the_home_page_presents_each_game_in_a_sentence_and_a_picture(client: Client) -> None:
    html = client.get("/").content.decode()
    for kit in registry.kits():
        assert str(kit.title) in html
        assert str(kit.summary) in html
        assert f"/static/{kit.emblem}" in html
        assert reverse("games:rules", args=[kit.slug]) in html


@pytest.mark.parametrize("kit", registry.kits(), ids=lambda k: k.slug)
def test_each_games_picture_is_a_local_svg(kit) -> None:
    from django.contrib.staticfiles import finders

    found = finders.find(kit.emblem)
    assert found, kit.emblem
    with open(found, encoding="utf-8") as handle:
        svg = handle.read()
    assert svg.lstrip().startswith("<svg") and "http://www.w3.org/2000/svg" in svg
    assert "href=" not in svg  # nothing fetched from elsewhere


def test_no_demo_account_no_demo_button(client: Client) -> None:
    html = client.get("/").content.decode()
    assert reverse("demo_login") not in html
    assert client.post(reverse("demo_login")).status_code == 404


@pytest.fixture
def demo_account(db):
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115 - the command's chatter
    return get_user_model().objects.get(username=DEMO_USER)


def test_one_click_logs_in_as_the_demo_account(demo_account) -> None:
    client = Client(enforce_csrf_checks=True)
    home = client.get("/")
    html = home.content.decode()
    assert f'action="{reverse("demo_login")}"' in html
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    response = client.post(reverse("demo_login"), {"csrfmiddlewaretoken": token})
    assert response.status_code == 302 and response["Location"] == "/"
    tables = client.get("/").content.decode()
    assert 'data-testid="current-user"' in tables
    assert demo_account.tables.first().name in tables


def test_the_demo_login_needs_the_csrf_token(demo_account) -> None:
    client = Client(enforce_csrf_checks=True)
    assert client.post(reverse("demo_login")).status_code == 403
    assert "_auth_user_id" not in client.session


def test_the_demo_login_is_a_post(demo_account, client: Client) -> None:
    assert client.get(reverse("demo_login")).status_code == 405
    assert "_auth_user_id" not in client.session


def test_an_inactive_demo_account_hides_the_button(demo_account, client: Client) -> None:
    demo_account.is_active = False
    demo_account.save()
    assert reverse("demo_login") not in client.get("/").content.decode()
    assert client.post(reverse("demo_login")).status_code == 404


@pytest.mark.parametrize(
    "rights",
    [{"is_staff": True}, {"is_superuser": True}, {"group": "designers"}],
    ids=["staff", "superuser", "designer"],
)
def test_a_demo_account_with_rights_beyond_its_tables_is_never_offered(
    demo_account, client: Client, rights: dict
) -> None:
    """One click logs anyone in as the demo: not when that account could see others' data."""
    if "group" in rights:
        demo_account.groups.add(Group.objects.get_or_create(name=rights["group"])[0])
    else:
        for name, value in rights.items():
            setattr(demo_account, name, value)
        demo_account.save()
    assert reverse("demo_login") not in client.get("/").content.decode()
    assert client.post(reverse("demo_login")).status_code == 404
    assert "_auth_user_id" not in client.session


def test_demo_logins_are_throttled_per_address(demo_account, settings) -> None:
    settings.LOGIN_FAILURES_PER_ADDRESS = 3
    client = Client()
    for _ in range(3):
        assert client.post(reverse("demo_login")).status_code == 302
        client.logout()
    refused = client.post(reverse("demo_login"))
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many demo logins" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_an_address_locked_out_of_logging_in_cannot_use_the_demo(demo_account, settings) -> None:
    """Guessing other accounts' passwords from an address pauses its demo button too."""
    settings.LOGIN_FAILURES_PER_ADDRESS = 6
    client = Client()
    for n in range(6):
        client.post(reverse("login"), {"username": f"guess{n}", "password": "wrong"})
    refused = client.post(reverse("demo_login"))
    assert refused.status_code == 429
    assert "_auth_user_id" not in client.session
