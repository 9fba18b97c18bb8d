"""The lab's form of a run (``games.playtests.lab_views``): the ruleset, players, games, bots
and seed, each setting a run may change in its own field (chosen by its label, never typed by
name), a sweep's name and values; what a designer types read as JSON within ``load_json``'s
bounds, or as the text typed."""

from __future__ import annotations

import json
import re

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from amnesia_site import lists, numbers
from amnesia_site.numbers import WholeNumberField
from games import registry
from games.messages import referee_message
from games.models import Ruleset
from games.playtests import figures as F
from games.playtests import (
    lab_bounds,
    lab_words,
)
from games.rules.errors import BadScript
from games.rules.script import NotJSON, load_json


def _value(raw: str):
    """A value typed in the lab's form: JSON (within ``load_json``'s bounds of depth,
    numbers and text) when it is written as JSON, the text as typed when it is no JSON at
    all (a bot's name, a word); JSON past those bounds is refused in a sentence."""
    try:
        return load_json(raw)
    except NotJSON:
        return raw
    except BadScript as exc:
        raise forms.ValidationError(referee_message(exc)) from None


def parse_pairs(text: str) -> dict:
    out = {}
    for line in (text or "").replace(",", "\n").splitlines():
        name, sep, raw = line.partition("=")
        if not line.strip():
            continue
        if not sep or not name.strip():
            raise forms.ValidationError(_("Write one NAME=VALUE a line."))
        out[name.strip()] = _value(raw.strip())
    return out


def _values(text: str) -> list:
    return [_value(raw.strip()) for raw in (text or "").split(",") if raw.strip()]


# What a designer types in a field is a few names and values: a bound on its size, as on its
# JSON's depth (``load_json``), keeps a pasted megabyte from reaching the parser.
MAX_PAIRS_TEXT = 2000
MAX_VALUES_TEXT = 1000


# The settings a run may change, one field each (``option_<name>``, ``param_<name>``): chosen
# by their labels, with their meaning and range beside, never typed by name
# (``lab_words.sweepable``).
def setting_field_name(each: dict) -> str:
    return f"{each['kind']}_{each['name']}"


class RunForm(forms.Form):
    ruleset = forms.ModelChoiceField(
        label=gettext_lazy("Ruleset version"),
        queryset=Ruleset.objects.none(),
        required=False,
        empty_label=gettext_lazy("The game's defaults"),
    )
    players = WholeNumberField(label=gettext_lazy("Players"), initial=4)
    games = WholeNumberField(
        label=gettext_lazy("Games"), initial=200, min_value=1, max_value=lab_bounds.MAX_GAMES
    )
    bots = forms.CharField(
        label=gettext_lazy("Bots"),
        initial="sensible",
        help_text=gettext_lazy("One a seat in turn, separated by commas."),
    )
    # For scripts and links: name=value lines, over the fields of each setting (not shown).
    params = forms.CharField(required=False, max_length=MAX_PAIRS_TEXT, widget=forms.HiddenInput)
    changed = forms.CharField(required=False, max_length=MAX_PAIRS_TEXT, widget=forms.HiddenInput)
    seed = WholeNumberField(
        label=gettext_lazy("Seed"), initial=1, min_value=0, max_value=numbers.MAX_WHOLE
    )
    sweep_name = forms.CharField(
        label=gettext_lazy("What-if: sweep this option or parameter"),
        required=False,
        widget=forms.Select,
    )
    sweep_values = forms.CharField(
        label=gettext_lazy("over these values"),
        required=False,
        max_length=MAX_VALUES_TEXT,
        help_text=gettext_lazy("Separated by commas, e.g. 6,8,10,12,14."),
    )

    def __init__(self, game: str, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        self.fields["ruleset"].queryset = Ruleset.objects.filter(game=game).order_by(
            "name", "-version"
        )
        self.fields["ruleset"].label_from_instance = lab_words.ruleset_words
        kit = registry.kit(game)
        # Bots are typed by their names in the reader's words ("sensato", "堅実") or by their
        # code names, which scripts and links use.
        bots = list(kit.bots or {})
        self.bot_names = {F.bot_label(b).casefold(): b for b in bots} | {b: b for b in bots}
        if "sensible" in bots:
            self.fields["bots"].initial = F.bot_label("sensible")
        self.fields["bots"].help_text = _("One a seat in turn, separated by commas: %(bots)s.") % {
            "bots": lists.listing(F.bot_label(b) for b in bots)
        }
        if "search" in bots:
            budget = next(
                (s["label"] for s in lab_words.sweepable(game) if s["name"] == "budget"), ""
            )
            self.fields["bots"].help_text += " " + _(
                "%(search)s tries each of its moves in games played on from what its seat can "
                "see, and makes the one that does best for it (%(budget)s: games tried a move)."
            ) % {"search": F.bot_label("search"), "budget": budget}
        self.settings = lab_words.sweepable(game)
        options = [(s["name"], s["label"]) for s in self.settings if s["kind"] == "option"]
        params = [(s["name"], s["label"]) for s in self.settings if s["kind"] == "param"]
        self.fields["sweep_name"].widget.choices = [
            ("", _("Nothing: one run")),
            (_("Rule options"), options),
            (_("Bot parameters"), params),
        ]
        for each in self.settings:
            self.fields[setting_field_name(each)] = self._setting_field(kit, each)

    def _setting_field(self, kit, each: dict) -> forms.Field:
        help_text = _("%(meaning)s From %(range)s; usually %(default)s.") % each
        if each["kind"] == "option":
            spec = kit.referee.options[each["name"]]
            values = None
            if isinstance(spec.default, bool):
                values = [True, False]
            elif spec.choices is not None:
                values = list(spec.choices)
            if values is not None:
                choices = [("", _("as the ruleset says"))] + [
                    (json.dumps(v), lab_words.value_words(self.game, "option", each["name"], v))
                    for v in values
                ]
                return forms.ChoiceField(
                    label=each["label"], required=False, choices=choices, help_text=help_text
                )
        return forms.CharField(
            label=each["label"], required=False, max_length=40, help_text=help_text
        )

    def main_fields(self) -> list:
        return [
            self[name]
            for name in ("ruleset", "players", "games", "bots", "seed")
            + ("sweep_name", "sweep_values")
        ]

    def changed_settings(self) -> bool:
        """Whether a setting's field holds a value (its part of the form is opened)."""
        return any(f.value() for f in self.setting_fields())

    def setting_fields(self) -> list:
        return [self[setting_field_name(s)] for s in self.settings]

    def clean(self):
        data = super().clean()
        try:
            params = parse_pairs(data.get("params", ""))
            changed = parse_pairs(data.get("changed", ""))
            values = _values(data.get("sweep_values", ""))
            for each in self.settings:
                raw = (data.get(setting_field_name(each)) or "").strip()
                if raw:
                    into = changed if each["kind"] == "option" else params
                    into[each["name"]] = _value(raw)
        except forms.ValidationError as exc:
            raise forms.ValidationError(exc.messages) from None
        data["params_dict"] = params
        data["changed_dict"] = changed
        typed = re.split(r"[,、，]", data.get("bots", ""))
        data["bot_list"] = [self.bot_names.get(b.strip().casefold(), b.strip()) for b in typed]
        data["bot_list"] = [b for b in data["bot_list"] if b]
        name = (data.get("sweep_name") or "").strip()
        data["sweep"] = None
        if name:
            kinds = {s["name"]: s["kind"] for s in self.settings}
            if name not in kinds:
                raise forms.ValidationError(lab_words.unknown_setting(self.game, name))
            data["sweep"] = {"kind": kinds[name], "name": name, "values": values}
        return data
