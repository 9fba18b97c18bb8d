"""Forms for setting up a table, and the parsing of a move from a posted form."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from django import forms
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import QueryDict
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from amnesia_site.numbers import number_or_text, whole_number
from games import registry
from games import start as start_draws
from games.languages import normalise
from games.models import Ruleset, Table
from games.rules import BadScript, Field, Game, IllegalMove
from games.rules.errors import N_
from games.rules.script import load_json
from games.rulesets import full_options, match_ruleset

# Form fields (and keys of a JSON request) that steer the write path and are never part of a
# move: where the page saw the table, and the id of this submission (``games.services``).
CONTROL_FIELDS = {"csrfmiddlewaretoken", "expected_seq", "expected_turn", "client_id", "shortcut"}
MAX_TURN_MARKER = 100
# Checkboxes and yes/no buttons: these are true, anything else false.
TRUE_WORDS = ("true", "on", "1", "yes")
JAPANESE_COMMAS = ("、", "，")


def _field_value(field: Field | None, values: list[str]) -> Any:
    """A posted field's value as the move holds it, by the kind the referee declares.

    A value that does not parse (a word in a number box) is passed on as it was typed, so
    the referee (not the view) decides what is malformed and says why; a field the game
    does not declare is passed as text.
    """
    if field is None:
        return values[-1]
    if field.is_list:
        if field.separator is not None:
            joined = ",".join(values)
            # A comma-separated box takes the Japanese list marks too (、 and ，).
            for mark in JAPANESE_COMMAS if field.separator == "," else ():
                joined = joined.replace(mark, ",")
            values = [v.strip() for v in joined.split(field.separator)]
        if field.item_kind == "int":
            return [number_or_text(v) for v in values if v.strip() != ""]
        return [v for v in values if v != ""]
    if field.kind == "int":
        return number_or_text(values[-1])
    if field.kind == "bool":
        return values[-1].strip().lower() in TRUE_WORDS
    return values[-1]


def move_from_post(data: QueryDict, game: Game, verb: str | None = None) -> dict[str, Any]:
    """The move a form posted, its fields parsed as ``game`` declares them for the posted
    verb (or ``verb``, for a form that does not post it). A ``move`` field holding JSON
    wins over separate fields."""
    if data.get("move"):
        move = _json_move(data["move"])
        if "text" in data and "text" not in move:
            move["text"] = data["text"]
        return move
    verb = verb if verb is not None else data.get("do")
    move: dict[str, Any] = {}
    for key in data:
        if key in CONTROL_FIELDS:
            continue
        field = game.field(verb, key)
        value = _field_value(field, data.getlist(key))
        if field is not None and value == "" and field.blank != "keep":
            if field.blank == "null":
                move[key] = None
            continue  # "omit": an empty optional card means "draw one" in a virtual deck
        move[key] = value
    return move


def declared_fields(data: QueryDict, game: Game, verb: Any) -> dict[str, Any]:
    """The posted fields that ``verb`` itself declares, each parsed by its declared kind (a
    form that adds to a move it carries whole: a move built card by card). One left empty is
    left out, or None where its declaration says ``blank="null"``; any other field is not
    read."""
    declared = game.fields.get(verb, {}) if isinstance(verb, str) else {}
    fields: dict[str, Any] = {}
    for key, field in declared.items():
        values = data.getlist(key)
        value = _field_value(field, values) if values else ""
        if value in ("", []):
            if values and field.blank == "null":
                fields[key] = None
            continue
        fields[key] = value
    return fields


def _json_move(raw: str | bytes) -> dict[str, Any]:
    """A move written as JSON; IllegalMove (never another exception) when it is not one."""
    try:
        move = load_json(raw)
    except BadScript as exc:
        raise IllegalMove("bad_argument", exc.template, **exc.params) from None
    if not isinstance(move, dict):
        raise IllegalMove("bad_argument", N_("A move must be an object."))
    return move


def new_client_id() -> str:
    """A fresh id for one form's move: the fallback for a page without JavaScript, which
    makes a new one on each submission (``static/js/moves.js``). ``{% moveform %}``
    (``games/templatetags/moves.py``) puts one in each form it draws. The sixteen random
    bytes a version 4 UUID holds, in hex, without building the UUID object (most of uuid4's
    cost, paid for every form of every page)."""
    return os.urandom(16).hex()


def parse_expected_seq(data: QueryDict) -> int | None:
    raw = data.get("expected_seq")
    if raw in (None, ""):
        return None
    seq = whole_number(raw)
    return -1 if seq is None else seq  # -1 never matches: a 409, not a silently applied move


def parse_expected_turn(raw: Any) -> str | None:
    """The turn marker a page was drawn at (``Game.turn_marker``), for independent moves."""
    if raw in (None, ""):
        return None
    if not isinstance(raw, str) or len(raw) > MAX_TURN_MARKER:
        raise IllegalMove("bad_argument", N_("'expected_turn' is not a turn of this table."))
    return raw


@dataclass
class Posted:
    """A move as a request sent it, with what steers its writing (``writing.play_many``)."""

    move: dict[str, Any]
    expected_seq: int | None = None
    expected_turn: str | None = None
    client_id: Any = None  # checked by the write path

    def play_kwargs(self) -> dict[str, Any]:
        return {"expected_turn": self.expected_turn, "client_id": self.client_id}


def posted_move(request, game: Game, verb: str | None = None) -> Posted:
    """The move a request carries: a JSON body (``{"move": {...}, "expected_seq": n,
    "expected_turn": "...", "client_id": "..."}``, or the bare move with those keys beside
    its fields) or a form (``move_from_post``). Raises IllegalMove for one that cannot be
    read, so the view answers it like any refused move."""
    if request.content_type != "application/json":
        data = request.POST
        return Posted(
            move_from_post(data, game, verb),
            parse_expected_seq(data),
            parse_expected_turn(data.get("expected_turn")),
            data.get("client_id"),
        )
    try:
        body = request.body
    except RequestDataTooBig:
        raise IllegalMove("bad_argument", N_("The move is too large to read.")) from None
    sent = _json_move(body or b"{}")
    move = sent.get("move", sent)
    if not isinstance(move, dict):
        raise IllegalMove("bad_argument", N_("A move must be an object."))
    move = {k: v for k, v in move.items() if k not in CONTROL_FIELDS}
    expected = sent.get("expected_seq")
    if expected is not None and (isinstance(expected, bool) or not isinstance(expected, int)):
        raise IllegalMove("bad_argument", N_("'expected_seq' must be a whole number."))
    return Posted(
        move, expected, parse_expected_turn(sent.get("expected_turn")), sent.get("client_id")
    )


class NewTableForm(forms.Form):
    name = forms.CharField(
        label=_("Table name"),
        max_length=120,
        required=False,
        help_text=_("Leave empty to name it after the players."),
    )
    players = forms.CharField(
        label=_("Players, in seat order (clockwise), one per line"),
        widget=forms.Textarea(attrs={"rows": 5, "autocomplete": "off"}),
    )
    # A seat number (the dropdown follows the names typed above it, static/js/table_new.js;
    # without JavaScript it lists the seats by line and the form checks the number). A name
    # is accepted too, for clients that post one.
    start = forms.CharField(
        label=_("Start player"),
        max_length=60,
        required=False,
        widget=forms.Select(attrs={"data-start-seats": ""}),
    )
    deck_mode = forms.ChoiceField(
        label=_("Cards"),
        choices=Table.DeckMode.choices,
        initial=Table.DeckMode.VIRTUAL,
        widget=forms.RadioSelect,
    )
    # The projector's, the seat pages' and the story's language; at first the maker's own
    # (a callable initial is read when the form is drawn, in the request's language).
    language = forms.ChoiceField(
        label=_("Language of the table"),
        choices=settings.LANGUAGES,
        initial=get_language,
        help_text=Table._meta.get_field("language").help_text,
        required=False,  # a client that sends none: the language it is being read in
    )

    def __init__(
        self,
        *args,
        game: str,
        user=None,
        preset: str | None = None,
        ruleset: str | None = None,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.kit = registry.kit(game)
        self.rules = self.kit.referee
        labels = self.kit.option_labels
        # Named option sets (earlier drafts of a game), offered as one-click links.
        self.presets = {
            key: {**value, "json": json.dumps(value["options"])}
            for key, value in self.kit.presets.items()
        }
        self.preset = preset if preset in self.presets else None
        self.preset_label = self.presets[self.preset]["label"] if self.preset else ""
        preset_values = self.presets[self.preset]["options"] if self.preset else {}
        chosen = self._add_ruleset_field(game, preset_values, ruleset)
        if chosen is not None and not self.preset:
            preset_values = chosen.options
        self.option_names = []
        for key, opt in self.rules.options.items():
            label = labels.get(key, opt.help or key)
            field_name = f"opt_{key}"
            if isinstance(opt.default, bool):
                field = forms.BooleanField(label=label, required=False, initial=opt.default)
            elif opt.choices is not None:
                field = forms.ChoiceField(
                    label=label,
                    choices=[(c, self.kit.value_label(key, c)) for c in opt.choices],
                    initial=opt.default,
                )
            else:
                field = forms.IntegerField(
                    label=label, min_value=opt.min, max_value=opt.max, initial=opt.default
                )
            field.help_text = _("Default: %(value)s") % {
                "value": self.kit.value_label(key, opt.default)
            }
            field.widget.attrs["data-default"] = json.dumps(opt.default)
            if key in preset_values:
                field.initial = preset_values[key]
            self.fields[field_name] = field
            self.option_names.append(field_name)
        self._add_start_fields()
        self.kit.new_table.add_fields(self, user)

    def _add_start_fields(self) -> None:
        """The start player as a dropdown of the seats, and the game's own draw if it has one."""
        names = self._typed_players()
        seats = [("", _("The first seat"))]
        for n in range(1, self.rules.max_players + 1):
            if n <= len(names):
                seats.append((str(n), f"{n}. {names[n - 1]}"))
            else:
                seats.append((str(n), _("Seat %(n)s (line %(n)s of the players)") % {"n": n}))
        self.fields["start"].widget.choices = seats
        self.fields["start"].help_text = _(
            "The names follow the players as you type them; without a choice, the first seat."
        )
        self.start_method = self.kit.start_method
        if self.start_method is None:
            return
        field = forms.ChoiceField(
            label=_("Who starts"),
            choices=[
                ("choose", _("Choose below")),
                (self.start_method.key, self.start_method.label),
            ],
            initial="choose",
            required=False,
            widget=forms.RadioSelect(attrs={"data-start-method": ""}),
            help_text=_(
                "With a virtual deck the app makes the draw and the table page shows it; with "
                "a physical deck, draw with the real cards and choose the winner below."
            ),
        )
        # Just before the start player, wherever other fields were added.
        fields = list(self.fields.items())
        at = next(i for i, (name, _f) in enumerate(fields) if name == "start")
        fields.insert(at, ("start_method", field))
        self.fields = dict(fields)

    def _typed_players(self) -> list[str]:
        if not self.is_bound:
            return []
        raw = self.data.get("players") or ""
        return [line.strip() for line in str(raw).splitlines() if line.strip()]

    def _add_ruleset_field(self, game: str, preset_values: dict, wanted: str | None):
        """The ruleset select: its options fill the option fields (in place, with JS)."""
        # The newest version of each ruleset: older ones stay for the tables that played
        # them and on the designers' pages, but a new table starts from the latest.
        # (A version asked for by its link, as a designer's page may, is offered too.)
        newest: dict[str, Ruleset] = {}
        for r in Ruleset.objects.filter(game=game).order_by("name", "-version"):
            if newest.setdefault(r.name, r) is not r and str(r.pk) == str(wanted or ""):
                newest[f"{r.name}\0{r.version}"] = r
        rulesets = list(newest.values())
        field = RulesetChoiceField(
            label=_("Ruleset"),
            queryset=Ruleset.objects.filter(pk__in=[r.pk for r in rulesets]).order_by(
                "name", "-version"
            ),
            required=False,
            empty_label=_("Own options (no ruleset)"),
            help_text=_(
                "A named draft of the rules: its options fill the fields below. Change an "
                "option and the table plays its own options. Its designer sees the table's "
                "playtest report only if you choose to share it."
            ),
        )
        field.widget.rulesets = {r.pk: r for r in rulesets}
        self.fields["ruleset"] = field
        # Sharing the report is the owner's choice, never a side effect of the ruleset.
        sharing = Table._meta.get_field("report_sharing")
        self.fields["report_sharing"] = forms.ChoiceField(
            label=sharing.verbose_name,
            choices=Table.ReportSharing.choices,
            initial=Table.ReportSharing.PRIVATE,
            widget=forms.RadioSelect,
            help_text=sharing.help_text,
            required=False,  # no answer: not shared
        )
        by_pk = {str(r.pk): r for r in rulesets}
        chosen = by_pk.get(wanted or "")
        if chosen is None:
            target = full_options(game, preset_values)
            # newest version first; rows seeded before an option existed hold its default
            chosen = next(
                (r for r in rulesets if r.builtin and full_options(game, r.options) == target),
                None,
            )
        field.initial = chosen.pk if chosen else None
        return chosen

    def option_fields(self):
        return [self[name] for name in self.option_names]

    def clean_players(self) -> list[str]:
        names = [line.strip() for line in self.cleaned_data["players"].splitlines()]
        names = [n for n in names if n]
        if len(set(names)) != len(names):
            raise forms.ValidationError(_("Each player needs a different name."))
        if any(len(n) > 60 for n in names):
            raise forms.ValidationError(_("Names are limited to 60 characters."))
        lo, hi = self.rules.min_players, self.rules.max_players
        if not lo <= len(names) <= hi:
            raise forms.ValidationError(
                _("This game needs %(lo)s to %(hi)s players; you listed %(n)s.")
                % {"lo": lo, "hi": hi, "n": len(names)}
            )
        return names

    def clean(self):
        cleaned = super().clean()
        players = cleaned.get("players") or []
        start = self._start_name(players, (cleaned.get("start") or "").strip())
        if self.draws_start(cleaned):
            if cleaned.get("deck_mode") == Table.DeckMode.PHYSICAL:
                if players and not start and "start" not in self.errors:
                    self.add_error("start", self.start_method.physical_hint)
            else:
                start = None  # the app draws (``start_setup``): a seat chosen too is ignored
        cleaned["start_player"] = start
        self.kit.new_table.clean(self, cleaned)
        return cleaned

    def _start_name(self, players: list[str], raw: str) -> str | None:
        """The start player's name from a seat number (or a name); None for the first seat."""
        if not raw or not players:
            return None
        n = whole_number(raw)
        if n is not None:
            if 1 <= n <= len(players):
                return players[n - 1]
            self.add_error(
                "start",
                _("There is no seat %(n)s: you listed %(count)s players.")
                % {"n": n, "count": len(players)},
            )
            return None
        if raw not in players:
            self.add_error("start", _("The start player must be one of the players."))
            return None
        return raw

    def draws_start(self, cleaned: dict[str, Any] | None = None) -> bool:
        """Whether the start player comes from the game's own draw."""
        cleaned = self.cleaned_data if cleaned is None else cleaned
        method = self.start_method
        return method is not None and cleaned.get("start_method") == method.key

    def start_setup(self, seed: int) -> tuple[str | None, dict[str, Any] | None]:
        """The script's ``start`` and its ``start_draw`` record (None without a draw): the
        app's draw from the table's seed (virtual), or the winner the game master entered."""
        start = self.cleaned_data.get("start_player")
        if not self.draws_start():
            return start, None
        if self.cleaned_data.get("deck_mode") == Table.DeckMode.PHYSICAL:
            return start, start_draws.entered_draw(self.start_method, start)
        record = start_draws.virtual_draw(self.start_method, self.cleaned_data["players"], seed)
        return record["start"], record

    def options(self) -> dict[str, Any]:
        return {name[4:]: self.cleaned_data[name] for name in self.option_names}

    def extra_setup(self) -> dict[str, Any]:
        """Top-level script keys beyond the options (a custom deck's ids and texts, ...)."""
        return self.kit.new_table.extra_setup(self)

    def table_language(self) -> str:
        """The language chosen for the table, else its maker's."""
        return (
            self.cleaned_data.get("language") or normalise(get_language()) or settings.LANGUAGE_CODE
        )

    def after_create(self, table: Table, user) -> None:
        """The table records the ruleset version whose options it plays (if any); then the
        game's own first steps (a contest's seats bring saved characters)."""
        ruleset = match_ruleset(self.game, table.options, self.cleaned_data.get("ruleset"))
        table.report_sharing = self.cleaned_data.get("report_sharing") or table.report_sharing
        table.language = self.table_language()
        if ruleset is not None:
            table.ruleset = ruleset
        table.save(update_fields=["ruleset", "report_sharing", "language"])
        self.kit.new_table.after_create(self, table, user)


class RulesetSelect(forms.Select):
    """Each ruleset option carries its rule options, for the page to fill the fields."""

    rulesets: dict = {}

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        ruleset = self.rulesets.get(getattr(value, "value", value))
        if ruleset is not None:
            option["attrs"]["data-options"] = json.dumps(ruleset.options)
        return option


class RulesetChoiceField(forms.ModelChoiceField):
    widget = RulesetSelect

    def label_from_instance(self, obj: Ruleset) -> str:
        return obj.label


def game_choices() -> list[tuple[str, Any]]:
    return registry.choices()
