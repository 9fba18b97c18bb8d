"""Rulesets: built in per game, made and versioned by designers, chosen on the new-table form."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import registry
from games.models import Ruleset, Table
from games.rulesets import full_options, seed_builtin_rulesets

from .conftest import builtin

pytestmark = pytest.mark.django_db


DRAFT3_V1 = {"choices": 6, "questions": 4, "bard_points": 1, "red_card_on_all_wrong": False}
DRAFT3_V2 = {**DRAFT3_V1, "all_matched": "zero_at_climax"}


def test_builtin_rulesets_are_seeded_by_migrate_and_made_once():
    # migrate's post_migrate made them (the test database is migrated); seeding again adds none.
    # Six since issue #13: Amnesia and Contest one each; Amnesia Stories draft 3 versions 1
    # and 2 (the climax exception), draft 4, and Heroic Saga draft 6 (partial).
    assert Ruleset.objects.filter(builtin=True).count() == 6
    seed_builtin_rulesets()
    names = set(Ruleset.objects.values_list("game", "name", "version"))
    assert ("amnesia_stories", "Amnesia Stories draft 3", 1) in names
    assert ("amnesia_stories", "Amnesia Stories draft 3", 2) in names
    assert ("amnesia_stories", "Amnesia Stories draft 4", 1) in names
    assert ("amnesia_stories", "Heroic Saga draft 6 (partial)", 1) in names
    assert {g for g, _n, _v in names} == {k.slug for k in registry.kits() if k.rulesets}
    assert Ruleset.objects.count() == 6
    draft3 = Ruleset.objects.filter(name="Amnesia Stories draft 3")
    assert draft3.get(version=1).options == full_options("amnesia_stories", DRAFT3_V1)
    assert draft3.get(version=2).options == full_options("amnesia_stories", DRAFT3_V2)
    assert draft3.get(version=2).options["all_matched"] == "zero_at_climax"
    saga = Ruleset.objects.get(name="Heroic Saga draft 6 (partial)")
    assert saga.options == full_options(
        "amnesia_stories", {"starting_vp": 5, "red_card_on_all_wrong": False}
    )


def test_seeding_adds_the_corrected_draft_3_as_version_2_and_keeps_version_1():
    # a database seeded before the correction: draft 3 version 1 only, as it was stored then
    # (before the all_matched option existed), with a table that played it
    Ruleset.objects.filter(name="Amnesia Stories draft 3", version=2).delete()
    v1 = Ruleset.objects.get(name="Amnesia Stories draft 3", version=1)
    old_options = {k: v for k, v in v1.options.items() if k != "all_matched"}
    Ruleset.objects.filter(pk=v1.pk).update(options=old_options)
    seed_builtin_rulesets()
    v1.refresh_from_db()
    assert v1.options == old_options  # never edited in place
    v2 = Ruleset.objects.get(name="Amnesia Stories draft 3", version=2)
    assert v2.builtin and v2.options == full_options("amnesia_stories", DRAFT3_V2)
    assert "climax" in v2.changelog
    seed_builtin_rulesets()
    assert Ruleset.objects.filter(name="Amnesia Stories draft 3").count() == 2


def test_a_designers_version_2_pushes_the_builtin_correction_to_version_3():
    Ruleset.objects.filter(name="Amnesia Stories draft 3", version=2).delete()
    Ruleset.objects.create(
        game="amnesia_stories",
        name="Amnesia Stories draft 3",
        version=2,
        options=full_options("amnesia_stories", {**DRAFT3_V1, "rounds": 1}),
    )
    seed_builtin_rulesets()
    v3 = Ruleset.objects.get(name="Amnesia Stories draft 3", version=3)
    assert v3.builtin and v3.options == full_options("amnesia_stories", DRAFT3_V2)
    seed_builtin_rulesets()  # and it is not made again
    assert Ruleset.objects.filter(name="Amnesia Stories draft 3").count() == 3


def new_table(client, game="amnesia_stories", **options):
    url = reverse("games:table_new")
    data = {"game": game, "players": "Ana\nBruno\nCaio", "deck_mode": "virtual"}
    data.update({f"opt_{k}": v for k, v in options.items()})
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Table.objects.latest("pk")


DRAFT4 = {"choices": 5, "questions": 3, "rounds": 2, "bard_points": 2, "audience_points": 1}
DRAFT4 |= {"set_bonus": 2, "red_card_on_all_wrong": "on", "starting_vp": 0, "all_matched": "zero"}


def test_a_table_records_the_ruleset_version_it_plays(gm_client):
    draft4 = builtin("amnesia_stories", "Amnesia Stories draft 4")
    table = new_table(gm_client, ruleset=draft4.pk, **DRAFT4)
    assert table.ruleset == draft4
    # the draft 3 values without choosing it: the options say which ruleset this is
    draft3 = {**DRAFT4, "choices": 6, "questions": 4, "bard_points": 1}
    del draft3["red_card_on_all_wrong"]
    table = new_table(gm_client, ruleset=draft4.pk, **draft3)
    assert table.ruleset == builtin("amnesia_stories", "Amnesia Stories draft 3")
    # options of its own: no ruleset
    table = new_table(gm_client, ruleset=draft4.pk, **{**DRAFT4, "rounds": 1})
    assert table.ruleset is None and table.options["rounds"] == 1


def test_new_table_form_offers_rulesets_and_fills_options(gm_client):
    draft3 = builtin("amnesia_stories", "Amnesia Stories draft 3")
    url = reverse("games:table_new") + f"?game=amnesia_stories&ruleset={draft3.pk}"
    page = gm_client.get(url).content.decode()
    assert re.search(rf'<option value="{draft3.pk}" [^>]*selected[^>]*data-options', page)
    assert re.search(r'name="opt_choices"[^>]*value="6"', page)
    # by default the game's current defaults are the chosen ruleset
    page = gm_client.get(reverse("games:table_new") + "?game=amnesia_stories").content.decode()
    draft4 = builtin("amnesia_stories", "Amnesia Stories draft 4")
    assert re.search(rf'<option value="{draft4.pk}" [^>]*selected[^>]*data-options', page)


def test_anyone_may_make_a_ruleset_and_becomes_its_designer(gm, gm_client, other_client):
    url = reverse("playtests:rulesets", args=["amnesia"])
    assert gm_client.get(reverse("playtests:dashboard", args=["amnesia"])).status_code == 403
    data = {
        "name": "Amnesia: short night",
        "changelog": "Fewer tokens for a shorter game.",
        "opt_start_tokens": 5,
        "opt_token_cap": 5,
        "opt_pass_at_cap": "refuse",
        "opt_finale_factor": 1,
        "opt_tie_loses": "on",
    }
    assert gm_client.post(url, data).status_code == 302
    mine = Ruleset.objects.get(name="Amnesia: short night")
    assert (mine.owner, mine.version, mine.options["start_tokens"]) == (gm, 1, 5)
    assert gm_client.get(reverse("playtests:dashboard", args=["amnesia"])).status_code == 200
    # the name is taken; another user may not edit it
    assert gm_client.post(url, data).status_code == 400
    edit = reverse("playtests:ruleset_edit", args=[mine.pk])
    assert other_client.get(edit).status_code == 403
    # nor may a non-designer edit a built-in one
    builtin_pk = builtin("amnesia", "Amnesia: second version").pk
    assert gm_client.get(reverse("playtests:ruleset_edit", args=[builtin_pk])).status_code == 403


def test_ruleset_options_are_checked_by_the_referee(gm_client):
    url = reverse("playtests:rulesets", args=["amnesia_stories"])
    data = {"name": "Too many questions", **{k: v for k, v in DRAFT4.items()}}
    data = {("opt_" + k if k in DRAFT4 else k): v for k, v in data.items()}
    data["opt_questions"] = 6  # more steps than the 5 choices
    response = gm_client.post(url, data)
    assert response.status_code == 400
    assert not Ruleset.objects.filter(name="Too many questions").exists()


def test_an_edit_with_no_change_makes_no_version(designer_client):
    draft4 = builtin("amnesia_stories", "Amnesia Stories draft 4")
    data = {f"opt_{k}": v for k, v in DRAFT4.items()} | {"changelog": draft4.changelog}
    response = designer_client.post(reverse("playtests:ruleset_edit", args=[draft4.pk]), data)
    assert response.status_code == 400
    assert Ruleset.objects.filter(name=draft4.name).count() == 1


def test_the_draft_4_changelog_lists_every_change_its_designer_made():
    """Each change the seed's changelog lists (draft 3 to draft 4), in the app's words."""
    text = Ruleset.objects.get(name="Amnesia Stories draft 4", version=1).changelog
    for change in (
        "play more smoothly",  # the aim
        "five choices (was 6)",
        "three questions (was 4)",
        "2 VP",  # the bard's base points, was 1
        "climax exception is gone",
        "nothing and a red card",  # everyone wrong: no VP and a penalty
        "better off making everyone miss",  # why the penalty
        "lose that many VP",  # the red cards at the end
    ):
        assert change in text, change


def test_a_builtin_changelog_completed_later_reaches_a_database_seeded_before():
    draft4 = Ruleset.objects.get(name="Amnesia Stories draft 4", version=1)
    Ruleset.objects.filter(pk=draft4.pk).update(changelog="Draft 4.")
    seed_builtin_rulesets()
    draft4.refresh_from_db()
    assert "climax exception is gone" in draft4.changelog
    assert Ruleset.objects.filter(name="Amnesia Stories draft 4").count() == 1
    # a designer's own version is theirs: never rewritten
    mine = Ruleset.objects.create(
        game="amnesia_stories", name="Amnesia Stories draft 4", version=2, changelog="Mine."
    )
    seed_builtin_rulesets()
    mine.refresh_from_db()
    assert mine.changelog == "Mine."


def test_each_preset_says_what_it_changes_from_draft_4(gm_client):
    page = gm_client.get(reverse("games:table_new") + "?game=amnesia_stories").content.decode()
    changes = re.search(r'data-testid="preset-changes">(.*?)</ul>', page, re.S).group(1)
    assert "<strong>Draft 3</strong>" in changes
    assert "From draft 4: 6 choices instead of 5; 4 questions instead of 3" in changes
    assert "except at the climax" in changes
    assert "<strong>Heroic Saga (draft 6, partial)</strong>" in changes
    assert "everyone starts with 5 VP instead of 0" in changes
    page = gm_client.get(
        reverse("games:table_new") + "?game=amnesia_stories&preset=draft3"
    ).content.decode()
    assert "Draft 3 values filled in below." in page
    rules = gm_client.get(reverse("games:rules", args=["amnesia_stories"])).content.decode()
    assert "changes from draft 4" in rules


def test_new_table_form_offers_only_the_newest_version_of_each_ruleset(gm_client):
    """Draft 3 version 1 lacks the climax exception: a new table gets version 2. The old
    version stays for its tables and on the designers' page."""
    draft3_v1 = builtin("amnesia_stories", "Amnesia Stories draft 3")
    draft3_v2 = Ruleset.objects.get(game="amnesia_stories", name=draft3_v1.name, version=2)
    page = gm_client.get(reverse("games:table_new") + "?game=amnesia_stories").content.decode()
    offered = set(re.findall(r'<option value="(\d+)"[^>]*data-options', page))
    assert str(draft3_v2.pk) in offered and str(draft3_v1.pk) not in offered
    newest: dict[str, int] = {}
    for r in Ruleset.objects.filter(game="amnesia_stories").order_by("name", "-version"):
        newest.setdefault(r.name, r.pk)
    assert offered == {str(pk) for pk in newest.values()}
    # the old version is still there for the designers, and a table may still record it
    assert Ruleset.objects.filter(pk=draft3_v1.pk).exists()
