"""Rulesets: named, versioned drafts of a game's options, chosen on the new-table form.

Each game's kit lists its built-in rulesets; they are seeded after ``migrate`` (never on a GET).
Editing a ruleset adds its next version, so the reports of tables that played an earlier one
keep comparing version against version.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games import registry
from games.models import Ruleset
from games.rules import get_game


def full_options(game: str, options: dict[str, Any] | None) -> dict[str, Any]:
    """Every option of the game, the given values over the defaults (a comparable form)."""
    rules = get_game(game)
    values = {key: opt.default for key, opt in rules.options.items()}
    values.update({k: v for k, v in (options or {}).items() if k in rules.options})
    return values


def seed_builtin_rulesets(**_signal) -> None:
    """Create each registered game's built-in ruleset versions that are missing (after
    ``migrate``: a ``post_migrate`` receiver, so no page ever writes them). Cheap once they
    exist.

    A kit lists each version as its own entry (``version`` defaults to 1), so a correction of
    a built-in ruleset arrives as its next version and the earlier one stays, with the tables
    that played it: a database seeded before the correction gains the new version, a fresh
    one gets every version. Should a designer's edit already hold that version number, the
    built-in version comes next, unless some version of that name already has its options.
    """
    rows = Ruleset.objects.values_list(
        "pk", "game", "name", "version", "builtin", "options", "changelog"
    )
    taken: dict[tuple[str, str, int], bool] = {}
    options_of: dict[tuple[str, str], list[dict[str, Any]]] = {}
    latest: dict[tuple[str, str], int] = {}
    builtin_rows: dict[tuple[str, str, int], tuple[int, dict[str, Any], str]] = {}
    for pk, game, name, version, builtin, options, changelog in rows:
        taken[(game, name, version)] = builtin
        if builtin:
            builtin_rows[(game, name, version)] = (pk, full_options(game, options), changelog)
        options_of.setdefault((game, name), []).append(full_options(game, options))
        latest[(game, name)] = max(latest.get((game, name), 0), version)
    for kit in registry.kits():
        for spec in kit.rulesets:
            version = spec.get("version", 1)
            key = (kit.slug, spec["name"])
            options = full_options(kit.slug, spec["options"])
            if taken.get((*key, version)):
                # Seeded before. Its options never change in place (a correction is a new
                # version), but the words that describe them may be completed.
                pk, seeded_options, changelog = builtin_rows[(*key, version)]
                if seeded_options == options and changelog != spec["changelog"]:
                    Ruleset.objects.filter(pk=pk).update(changelog=spec["changelog"])
                continue
            if (*key, version) in taken:
                if options in options_of.get(key, []):
                    continue
                version = latest[key] + 1
            Ruleset.objects.create(
                game=kit.slug,
                name=spec["name"],
                version=version,
                options=options,
                changelog=spec["changelog"],
                builtin=True,
            )
            taken[(*key, version)] = True
            options_of.setdefault(key, []).append(options)
            latest[key] = max(latest.get(key, 0), version)


def match_ruleset(
    game: str, options: dict[str, Any], preferred: Ruleset | None = None
) -> Ruleset | None:
    """The ruleset version a table with these options plays: the chosen one if its options
    are these, else the newest version with exactly these options, else none."""
    wanted = full_options(game, options)
    if preferred is not None and preferred.game == game:
        if full_options(game, preferred.options) == wanted:
            return preferred
    candidates = Ruleset.objects.filter(game=game).order_by("-created_at", "-pk")
    for ruleset in candidates:
        if full_options(game, ruleset.options) == wanted:
            return ruleset
    return None


def new_version(ruleset: Ruleset, options: dict[str, Any], changelog: str, user) -> Ruleset:
    """Editing a ruleset makes its next version; the old one, and its tables, stay as they were."""
    with transaction.atomic():
        latest = (
            Ruleset.objects.select_for_update()
            .filter(game=ruleset.game, name=ruleset.name)
            .order_by("-version")
            .first()
        )
        return Ruleset.objects.create(
            game=ruleset.game,
            name=ruleset.name,
            version=(latest.version if latest else 0) + 1,
            options=full_options(ruleset.game, options),
            changelog=changelog,
            created_by=user,
            owner=ruleset.owner,
            builtin=False,
        )
