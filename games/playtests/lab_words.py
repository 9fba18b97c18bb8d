"""The lab in the reader's words: rulesets as the rulesets page names them, options and bot
parameters by their labels, what a what-if can sweep (label, meaning, range), and two runs
compared with the direction named.

The figures' own words are ``games.playtests.figures``; this module names everything else a
run shows, so no page, sentence or file made for people shows a key.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from amnesia_site import lists
from games import registry
from games.models import Ruleset
from games.playtests import figures as F


# -- rulesets ---------------------------------------------------------------------------------
def ruleset_words(ruleset: Ruleset | None) -> str:
    """A ruleset version as the rulesets page names it: "Amnesia Stories draft 4, version 1"."""
    if ruleset is None:
        return _("The game's defaults")
    return _("%(name)s, version %(version)s") % {
        "name": ruleset.shown_name,
        "version": ruleset.version,
    }


def run_ruleset(run: Any) -> str:
    """The ruleset a run played, in words (its stored label when the ruleset is gone)."""
    if run.ruleset_id and run.ruleset is not None:
        return ruleset_words(run.ruleset)
    if run.ruleset_label:
        name, _sep, version = run.ruleset_label.rpartition("@")
        if name and version.isdigit():
            return _("%(name)s, version %(version)s") % {"name": name, "version": version}
        return run.ruleset_label
    return _("The game's defaults")


# -- options and bot parameters ---------------------------------------------------------------
def bots_words(bots: list[str]) -> str:
    return lists.listing(F.bot_label(b) for b in bots)


def _kit(game: str) -> Any:
    return registry.kit(game)


def option_label(game: str, name: str) -> str:
    labels = _kit(game).option_labels
    return str(labels[name]) if name in labels else name.replace("_", " ")


def param_label(game: str, name: str) -> str:
    words = _kit(game).bot_param_labels
    return str(words[name][0]) if name in words else name.replace("_", " ")


def param_meaning(game: str, name: str) -> str:
    words = _kit(game).bot_param_labels
    return str(words[name][1]) if name in words else ""


def value_words(game: str, kind: str, name: str, value: Any) -> str:
    """An option's or parameter's value as a person reads it."""
    if kind == "option":
        shown = _kit(game).value_label(name, value)
        if shown is not value:
            return str(shown)
    if isinstance(value, bool):
        return str(_kit(game).value_label(name, value))
    if isinstance(value, int | float):
        # As many places as the value was given with (0.2, not 0.20), at most three.
        places = (
            0 if float(value).is_integer() else min(3, len(repr(float(value)).partition(".")[2]))
        )
        return F.number(value, places)
    return str(value)


def setting_label(game: str, kind: str, name: str) -> str:
    return option_label(game, name) if kind == "option" else param_label(game, name)


def settings_words(game: str, changed: dict[str, Any], params: dict[str, Any]) -> list[str]:
    """ "Label: value" for each changed option and each bot parameter of a run."""
    out = [
        f"{option_label(game, k)}: {value_words(game, 'option', k, v)}"
        for k, v in sorted(changed.items())
    ]
    out += [
        f"{param_label(game, k)}: {value_words(game, 'param', k, v)}"
        for k, v in sorted(params.items())
    ]
    return out


def _range(game: str, kind: str, name: str, spec: Any) -> str:
    if kind == "option":
        if isinstance(spec.default, bool):
            return _("on or off")
        if spec.choices is not None:
            return lists.separator().join(value_words(game, kind, name, c) for c in spec.choices)
        low = "…" if spec.min is None else value_words(game, kind, name, spec.min)
        high = "…" if spec.max is None else value_words(game, kind, name, spec.max)
    else:
        low, high = F.number(spec.min, None), F.number(spec.max, None)
    return _("%(low)s to %(high)s") % {"low": low, "high": high}


def sweepable(game: str) -> list[dict[str, Any]]:
    """Every option and bot parameter a what-if may change: kind, name (for the form's
    value), label, meaning, range and default, options first."""
    kit = _kit(game)
    out = []
    for name, spec in kit.referee.options.items():
        out.append(
            {
                "kind": "option",
                "name": name,
                "label": option_label(game, name),
                "meaning": _("A rule option."),
                "range": _range(game, "option", name, spec),
                "default": value_words(game, "option", name, spec.default),
            }
        )
    params: dict[str, Any] = {}
    for bot in (kit.bots or {}).values():
        params.update(getattr(bot, "params", {}))
    for name, spec in sorted(params.items()):
        out.append(
            {
                "kind": "param",
                "name": name,
                "label": param_label(game, name),
                "meaning": param_meaning(game, name),
                "range": _range(game, "param", name, spec),
                "default": value_words(game, "param", name, spec.default),
            }
        )
    return out


def unknown_setting(game: str, name: str, kind: str = "") -> str:
    """A sentence for a name nothing answers to, listing what may be changed instead."""
    choices = [s for s in sweepable(game) if not kind or s["kind"] == kind]
    return _("Nothing of this game is called “%(name)s”. It can change: %(list)s.") % {
        "name": name,
        "list": "; ".join(s["label"] for s in choices),
    }


def sweep_words(game: str, sweep: dict[str, Any]) -> str:
    return setting_label(game, sweep.get("kind", ""), sweep.get("name", ""))


def swept_value_words(game: str, sweep: dict[str, Any], value: Any) -> str:
    return value_words(game, sweep.get("kind", ""), sweep.get("name", ""), value)


def run_words(run: Any) -> str:
    """A run in one line, as the compare list shows it: its ruleset, players, what-if."""
    text = _("%(ruleset)s, %(players)s players") % {
        "ruleset": run_ruleset(run),
        "players": run.players,
    }
    if run.sweep:
        text += " · " + _("what-if: %(what)s") % {"what": sweep_words(run.game, run.sweep)}
    extra = settings_words(run.game, run.changed, {})
    if extra:
        text += " · " + "; ".join(extra)
    return text


def changelog(run: Any) -> str:
    """A saved what-if's changelog in words: each option changed, with what it was."""
    game = run.game
    parts = []
    for key, value in sorted(run.changed.items()):
        words = {
            "option": option_label(game, key),
            "value": value_words(game, "option", key, value),
        }
        if run.ruleset and key in run.ruleset.options:
            words["was"] = value_words(game, "option", key, run.ruleset.options.get(key))
            parts.append(_("%(option)s: %(value)s (was %(was)s)") % words)
        else:
            parts.append(_("%(option)s: %(value)s") % words)
    top = run.parent or run
    return _("From %(source)s: %(changes)s (a what-if of the lab, run %(run)s).") % {
        "source": run_ruleset(run),
        "changes": "; ".join(parts),
        "run": top.pk,
    }


# -- restricted play ---------------------------------------------------------------------------
# The choices a study may forbid one seat (restricted play, ``games.simulate.restrict``), each
# game's: the rule as ``restrict.parse`` reads it, then its label (what the restricted seat
# does, after "one seat that") and its one-line meaning. A game whose choices are all one
# move at their point (Amnesia Stories: the story told is the bard's only move) has none.
RESTRICTABLE: dict[str, tuple[tuple[str, Any, Any], ...]] = {
    "amnesia": (
        (
            "refuse",
            gettext_lazy("never refuses a paid suggestion"),
            gettext_lazy("The narrator always takes the suggestion a listener paid for."),
        ),
        (
            "insist",
            gettext_lazy("never insists"),
            gettext_lazy("A listener never pays a token to insist on a suggestion."),
        ),
        (
            "join",
            gettext_lazy("never joins a challenge"),
            gettext_lazy("An onlooker always stays out of other players' challenges."),
        ),
        (
            "flashback",
            gettext_lazy("never tells a memory"),
            gettext_lazy("The narrator always tells a scene, never a flashback."),
        ),
    ),
    "contest": (
        (
            "take_control",
            gettext_lazy("never takes control"),
            gettext_lazy(
                "The player never takes control of the story, with a card or with drinks."
            ),
        ),
        (
            "take_control:with=drinks",
            gettext_lazy("never takes control with drinks"),
            gettext_lazy("The player takes control only with a card, never by taking two drinks."),
        ),
        (
            "refuse",
            gettext_lazy("never refuses"),
            gettext_lazy("The player never refuses a response and its penalty."),
        ),
        (
            "throw_pretzel",
            gettext_lazy("never throws a pretzel"),
            gettext_lazy("The player never throws a pretzel at the narrator."),
        ),
    ),
}


# What a seat plays for in a game nobody wins (its kit's ``bot_value``), named in the sentences
# that say a bot's edge in it; a game not listed here is said to be played for "what the game
# counts for a seat".
PLAYS_FOR: dict[str, Any] = {
    "amnesia": gettext_lazy("its share of the tokens the players hold"),
}


def plays_for(game: str) -> str:
    """What a seat plays for in a game nobody wins, in the reader's words."""
    return str(PLAYS_FOR.get(game) or _("what the game counts for a seat"))


def restrictions(game: str) -> list[dict[str, Any]]:
    """The choices a study may forbid one seat of this game: key (for the form's value),
    label and meaning."""
    return [
        {"key": key, "label": str(label), "meaning": str(meaning)}
        for key, label, meaning in RESTRICTABLE.get(game, ())
    ]


def restriction_label(game: str, key: str) -> str:
    """A restriction in words ("never takes control with drinks"); an unknown one as its verb."""
    for found, label, _meaning in RESTRICTABLE.get(game, ()):
        if found == key:
            return str(label)
    return key.partition(":")[0].replace("_", " ")


# -- two runs compared ------------------------------------------------------------------------
def compared_rows(game: str, a: Any, b: Any, diffs: dict[str, dict]) -> list[dict[str, Any]]:
    """Each figure of ``b`` against ``a`` in its unit; the difference is b less a."""
    rows = []
    for key in F.ordered(game, diffs):
        diff = diffs[key]
        differs = "low" in diff and not diff["low"] <= 0 <= diff["high"]
        rows.append(
            {
                "key": key,
                "label": F.label(game, key),
                "meaning": F.meaning(game, key),
                "headline": F.headline(game, key),
                "a": F.show_figure(game, key, a.figures.get(key)),
                "b": F.show_figure(game, key, b.figures.get(key)),
                "diff": F.show_difference(game, key, diff),
                "differs": differs,
                "sentence": said(game, key, diff) if differs else "",
            }
        )
    return rows


def said(game: str, key: str, diff: dict[str, Any]) -> str:
    """ "The bard’s share of the points: 2.3 points higher (1.4 to 3.1)." """
    higher = diff["value"] > 0
    words = {
        "figure": F.label(game, key),
        "size": F.size_of_difference(game, key, diff["value"]),
        "low": F.size_of_difference(game, key, diff["low"] if higher else diff["high"]),
        "high": F.size_of_difference(game, key, diff["high"] if higher else diff["low"]),
    }
    if higher:
        return _("%(figure)s: %(size)s higher (%(low)s to %(high)s).") % words
    return _("%(figure)s: %(size)s lower (%(low)s to %(high)s).") % words


def direction(a: Any, b: Any) -> str:
    """Which way the differences read: "Draft 3, version 1 against draft 4, version 1, at
    3 players" (b against a)."""
    if a.players == b.players:
        return _("%(b)s against %(a)s, at %(players)s players") % {
            "a": run_ruleset(a),
            "b": run_ruleset(b),
            "players": a.players,
        }
    return _("%(b)s at %(pb)s players against %(a)s at %(pa)s players") % {
        "a": run_ruleset(a),
        "b": run_ruleset(b),
        "pa": a.players,
        "pb": b.players,
    }


def export_value(value: Any) -> str:
    return json.dumps(value)
