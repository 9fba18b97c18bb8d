"""Becoming a designer: the "designers" group made by a migration, ``manage.py designer NAME``
to put someone in it (or take them out, or list it), and a new designer's dashboard that does
not count the demo account's tables among their playtests unless they choose to."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from games.management.commands.demo import DEMO_USER
from games.models import Ruleset
from games.playtests.models import DESIGNERS_GROUP

from .conftest import builtin, many_reports

DASHBOARD = reverse("playtests:dashboard", args=["amnesia_stories"])
BEFORE = ("playtests", "0004_simulation_runs")
GROUP = ("playtests", "0005_designers_group")


def designer_command(*args: str) -> str:
    out = StringIO()
    call_command("designer", *args, stdout=out)
    return out.getvalue()


def is_designer(user) -> bool:
    return user.groups.filter(name=DESIGNERS_GROUP).exists()


# -- the group ----------------------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_the_designers_group_is_made_by_migrate_and_kept_back_while_someone_is_in_it(
    django_user_model,
):
    def migrate(target):
        MigrationExecutor(connection).migrate([target])

    try:
        Group.objects.filter(name=DESIGNERS_GROUP).delete()
        migrate(BEFORE)
        assert not Group.objects.filter(name=DESIGNERS_GROUP).exists()
        migrate(GROUP)
        group = Group.objects.get(name=DESIGNERS_GROUP)
        # Back: an empty group goes, a group with a member stays (with the member).
        migrate(BEFORE)
        assert not Group.objects.filter(name=DESIGNERS_GROUP).exists()
        migrate(GROUP)
        group = Group.objects.get(name=DESIGNERS_GROUP)
        ana = django_user_model.objects.create_user("ana", password="x-long-passphrase")
        ana.groups.add(group)
        migrate(BEFORE)
        assert is_designer(ana)
        migrate(GROUP)  # forward again: the same group, not a second one
        assert Group.objects.filter(name=DESIGNERS_GROUP).count() == 1
    finally:
        call_command("migrate", verbosity=0)


# -- the command --------------------------------------------------------------------------------
def test_the_designer_command_adds_lists_and_removes(django_user_model, db):
    ana = django_user_model.objects.create_user("ana", password="x-long-passphrase")
    bo = django_user_model.objects.create_user("bo", password="x-long-passphrase")
    assert designer_command("--list") == "Nobody is in the designers group.\n"
    assert designer_command("ana", "bo") == "ana is a designer.\nbo is a designer.\n"
    assert is_designer(ana) and is_designer(bo)
    assert designer_command("ana") == "ana is a designer.\n"  # again: nothing new, no error
    assert designer_command("--list") == "ana\nbo\n"
    assert designer_command("--remove", "bo") == "bo is no longer a designer.\n"
    assert not is_designer(bo) and is_designer(ana)
    # A designer reaches the dashboard.
    client = Client()
    client.force_login(ana)
    assert client.get(DASHBOARD).status_code == 200


def test_an_unknown_name_is_an_error_that_names_it_and_changes_nobody(django_user_model, db):
    django_user_model.objects.create_user("Ana", password="x-long-passphrase")
    bo = django_user_model.objects.create_user("bo", password="x-long-passphrase")
    with pytest.raises(CommandError) as error:
        designer_command("bo", "ana", "zed")
    said = str(error.value)
    assert "No user is named 'ana' (did you mean 'Ana'?)." in said
    assert "No user is named 'zed'." in said and "sign up" in said
    assert not is_designer(bo)
    with pytest.raises(CommandError, match="Name at least one user"):
        designer_command()


# -- the dashboard and the demo tables --------------------------------------------------------
@pytest.fixture
def demo_and_playtests(gm, django_user_model):
    """Three tables of the demo account (shared, as ``manage.py demo`` shares them) and two
    real playtests a game master shared with the designers."""
    demo = django_user_model.objects.create_user(DEMO_USER, password="demo-table")
    rulesets = [builtin("amnesia_stories", "Amnesia Stories draft 4")]
    many_reports(demo, 3, rulesets)
    many_reports(gm, 2, rulesets)
    return demo


def test_a_new_designer_counts_the_demo_tables_only_when_they_choose(
    demo_and_playtests, django_user_model
):
    newcomer = django_user_model.objects.create_user("newcomer", password="x-long-passphrase")
    designer_command("newcomer")
    client = Client()
    client.force_login(newcomer)
    page = client.get(DASHBOARD)
    assert page.context["summary"]["tables"] == 2
    html = page.content.decode()
    assert "3 tables of the demo account are left out." in html
    assert f'href="{DASHBOARD}?demo=1"' in html
    chosen = client.get(DASHBOARD, {"demo": "1"})
    assert chosen.context["summary"]["tables"] == 5
    html = chosen.content.decode()
    assert "3 tables of the demo account are counted here." in html
    assert f"{reverse('playtests:export_json', args=['amnesia_stories'])}?demo=1" in html
    # The exports follow the same choice.
    export = reverse("playtests:export_json", args=["amnesia_stories"])
    assert len(json.loads(client.get(export).content)["reports"]) == 2
    assert len(json.loads(client.get(export, {"demo": "1"}).content)["reports"]) == 5
    # In the reader's language.
    client.cookies["django_language"] = "ja"
    assert "デモアカウントの卓3件はここに数えていません。" in client.get(DASHBOARD).content.decode()


def test_the_demo_account_as_a_designer_sees_its_own_tables(demo_and_playtests):
    designer_command(DEMO_USER)
    client = Client()
    client.force_login(demo_and_playtests)
    page = client.get(DASHBOARD)
    assert page.context["summary"]["tables"] == 5
    assert 'data-testid="demo-tables"' not in page.content.decode()


def test_a_ruleset_owner_is_not_shown_the_demo_toggle_without_demo_tables(gm, other):
    Ruleset.objects.create(game="amnesia_stories", name="Mine", options={}, owner=other)
    client = Client()
    client.force_login(other)
    page = client.get(DASHBOARD)
    assert page.status_code == 200 and 'data-testid="demo-tables"' not in page.content.decode()
