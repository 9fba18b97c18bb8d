"""Options, their values and the built-in rulesets are shown in the reader's words: a code
(``refuse``, ``zero_at_climax``) or a name stored as data in English never reaches a person;
a ruleset a designer made keeps the name they typed."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Ruleset
from tests.crawl_reading import visible


def form_text(client, game: str, language: str) -> str:
    url = reverse("games:table_new") + f"?game={game}"
    return " | ".join(visible(client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()))


def option_labels(client, game: str, language: str) -> list[str]:
    url = reverse("games:table_new") + f"?game={game}"
    html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    return re.findall(r"<option value=\"[^\"]*\"[^>]*>([^<]*)</option>", html)


@pytest.mark.django_db
def test_the_new_table_form_shows_option_values_in_words(gm_client) -> None:
    text = form_text(gm_client, "amnesia", "pt-br")
    assert "Padrão: recusar a passada" in text and "Padrão: refuse" not in text
    assert "permitir, sem pegar nada" in option_labels(gm_client, "amnesia", "pt-br")
    assert "既定値：やり直す" in form_text(gm_client, "contest", "ja")
    labels = option_labels(gm_client, "amnesia_stories", "ja")
    assert "吟遊詩人の得点なし" in labels and "zero" not in labels
    assert "zero_at_climax" not in labels


@pytest.mark.django_db
def test_built_in_rulesets_are_named_in_the_readers_language(gm_client, gm) -> None:
    Ruleset.objects.create(
        game="amnesia_stories", name="Minha variante", options={"rounds": 1}, owner=gm
    )
    labels = option_labels(gm_client, "amnesia_stories", "pt-br")
    assert "Amnesia Stories, rascunho 3 · v2" in labels
    assert "Minha variante · v1" in labels  # as typed
    assert not [label for label in labels if "draft" in label]
    built_in = Ruleset.objects.get(game="contest", builtin=True)
    assert built_in.name == "Contest: default rulings"  # the stable key, stored as it was
    from django.utils import translation

    with translation.override("ja"):
        assert built_in.label == "コンテスト：既定の裁定 · v1"
        assert built_in.shown_changelog.startswith("英語の原典")
    with translation.override("en"):
        assert built_in.label == "Contest: default rulings · v1"


@pytest.mark.django_db
def test_the_move_log_says_each_move_in_words(gm, gm_client) -> None:
    from games.services.new_tables import import_script

    script = {
        "game": "contest",
        "players": ["Ana", "Bo"],
        "moves": [
            {
                "by": "Ana",
                "do": "character",
                "name": "Zed",
                "brains": 3,
                "muscle": 3,
                "moves": 3,
                "coolness": 3,
            },
        ],
        "language": "pt-br",
    }
    table = import_script(script, gm)
    text = " | ".join(
        visible(
            gm_client.get(
                reverse("games:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="pt-br"
            ).content.decode()
        )
    )
    assert "Ana cria um personagem." in text
    assert "brains=3" not in text


@pytest.mark.django_db
def test_the_designers_page_names_a_versions_options_in_words(client, django_user_model) -> None:
    from django.contrib.auth.models import Group

    from games.playtests.models import DESIGNERS_GROUP

    designer = django_user_model.objects.create_user(username="designer", password="pw-d-1")
    designer.groups.add(Group.objects.get_or_create(name=DESIGNERS_GROUP)[0])
    client.force_login(designer)
    designer_client = client
    url = reverse("playtests:rulesets", args=["amnesia_stories"])
    text = " | ".join(
        visible(designer_client.get(url, HTTP_ACCEPT_LANGUAGE="pt-br").content.decode())
    )
    assert "Casas de escolha" in text  # the choices option, by its label
    assert "choices=" not in text and "red_card_on_all_wrong" not in text
    assert "Amnesia Stories, rascunho 3" in text  # the family, in the reader's words


@pytest.mark.django_db
def test_a_tables_rules_page_prints_the_components_for_its_seats(gm_client, make_table) -> None:
    table = make_table("amnesia_stories", ["Ana", "Bruno", "Caio"])
    html = gm_client.get(reverse("games:table_rules", args=[table.pk])).content.decode()
    assert "components.pdf?size=a4&amp;language=en&amp;players=3" in html
