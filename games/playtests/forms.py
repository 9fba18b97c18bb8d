"""Forms of the playtest pages: rulesets, impressions, the public report and its honeypot."""

from __future__ import annotations

import time
from typing import Any

from django import forms
from django.core import signing
from django.core.exceptions import NON_FIELD_ERRORS
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import registry
from games.messages import referee_message
from games.models import Ruleset, Table
from games.playtests.models import FREE_TEXTS, RATINGS, ExternalReport, Impression
from games.rules import BadScript, get_game
from games.rules.script import parse_setup
from games.rulesets import full_options

RATING_CHOICES = [(n, str(n)) for n in range(1, 6)]
# A human takes longer than this to fill the public form; a script posting at once does not.
MIN_FILL_SECONDS = 3
STARTED_SALT = "playtests.public-form"


# -- rulesets ---------------------------------------------------------------------------------
def add_option_fields(form: forms.Form, game: str, initial: dict[str, Any]) -> list[str]:
    """One field per rule option of the game (as on the new-table form), named ``opt_<key>``."""
    rules = get_game(game)
    kit = registry.kit(game)
    labels = kit.option_labels
    names = []
    for key, opt in rules.options.items():
        label = labels.get(key, opt.help or key)
        value = initial.get(key, opt.default)
        if isinstance(opt.default, bool):
            field = forms.BooleanField(label=label, required=False, initial=value)
        elif opt.choices is not None:
            field = forms.ChoiceField(
                label=label,
                choices=[(c, kit.value_label(key, c)) for c in opt.choices],
                initial=value,
            )
        else:
            field = forms.IntegerField(
                label=label, min_value=opt.min, max_value=opt.max, initial=value
            )
        form.fields[f"opt_{key}"] = field
        names.append(f"opt_{key}")
    return names


class RulesetForm(forms.Form):
    """A new ruleset, or the next version of one (then the name is fixed)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    changelog = forms.CharField(
        label=_("Changelog: what this version changes, and why"),
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        max_length=5000,
    )

    def __init__(self, *args, game: str, base: Ruleset | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.base = base
        if base is not None:
            del self.fields["name"]
        self.option_names = add_option_fields(self, game, base.options if base else {})

    def option_fields(self):
        return [self[name] for name in self.option_names]

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if Ruleset.objects.filter(game=self.game, name__iexact=name).exists():
            raise forms.ValidationError(
                _("A ruleset of this game already has that name: edit it to add a version.")
            )
        return name

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        rules = get_game(self.game)
        players = [f"Player {i + 1}" for i in range(rules.min_players)]
        try:
            parse_setup({"game": self.game, "players": players, "options": self.options()})
        except BadScript as exc:
            raise forms.ValidationError(referee_message(exc)) from exc
        if self.base is not None and full_options(self.game, self.base.options) == self.options():
            if cleaned.get("changelog", "").strip() == self.base.changelog.strip():
                raise forms.ValidationError(_("Nothing changed: no new version was made."))
        return cleaned

    def options(self) -> dict[str, Any]:
        return full_options(
            self.game, {name[4:]: self.cleaned_data[name] for name in self.option_names}
        )


# -- impressions ------------------------------------------------------------------------------
class RatingWidget(forms.RadioSelect):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, attrs={"class": "rating"}, **kwargs)


class ImpressionForm(forms.ModelForm):
    class Meta:
        model = Impression
        fields = [key for key, _label in RATINGS] + [key for key, _label in FREE_TEXTS]
        labels = dict(RATINGS) | dict(FREE_TEXTS)
        widgets = {key: RatingWidget(choices=RATING_CHOICES) for key, _label in RATINGS} | {
            key: forms.Textarea(attrs={"rows": 2}) for key, _label in FREE_TEXTS
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for key, _label in RATINGS:
            field = self.fields[key]
            field.widget.choices = RATING_CHOICES
            # Each rating is optional, as on the public form: a player who has no view on
            # one (or no time for six) still gives the others and says what stayed with them.
            field.required = False
            field.help_text = _("1 (poor) to 5 (great)")
        for key, _label in FREE_TEXTS:
            self.fields[key].required = False


class ExternalImpressionForm(forms.Form):
    """One player's answers on the public form; a row left empty is skipped. Every answer is
    optional, the name too (a row without one is "Player N", after its box)."""

    player = forms.CharField(
        label=_("Player (a first name or initials)"), max_length=60, required=False
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for key, label in RATINGS:
            self.fields[key] = forms.TypedChoiceField(
                label=label,
                choices=[("", _("– (no answer)"))] + RATING_CHOICES,
                coerce=int,
                required=False,
                empty_value=None,
            )
        for key, label in FREE_TEXTS:
            self.fields[key] = forms.CharField(
                label=label,
                required=False,
                max_length=2000,
                widget=forms.Textarea(attrs={"rows": 2}),
            )

    def rating_fields(self):
        return [self[key] for key, _label in RATINGS]

    def text_fields(self):
        return [self[key] for key, _label in FREE_TEXTS]


class BaseExternalImpressions(forms.BaseFormSet):
    def clean(self):
        super().clean()
        names = []
        for number, form in enumerate(self.forms, start=1):
            if not (form.has_changed() and form.is_valid()):
                continue
            name = form.cleaned_data.get("player", "").strip()
            if not name:
                name = _("Player %(n)s") % {"n": number}
                form.cleaned_data["player"] = name
            names.append(name.lower())
        if len(set(names)) != len(names):
            raise forms.ValidationError(_("Each player needs a different name."))


ExternalImpressions = forms.formset_factory(
    ExternalImpressionForm,
    formset=BaseExternalImpressions,
    extra=4,
    max_num=8,
    absolute_max=8,
    validate_max=True,
)


class ExternalReportForm(forms.ModelForm):
    # The honeypot: hidden from people (and from screen readers), irresistible to a bot.
    website = forms.CharField(required=False, label=_("Leave this empty"))
    started = forms.CharField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = ExternalReport
        fields = [
            "ruleset",
            "draft",
            "played_on",
            "place",
            "players",
            "duration_minutes",
            "outcome",
            "publish_consent",
        ]
        widgets = {
            "publish_consent": forms.RadioSelect,
            "played_on": forms.DateInput(attrs={"type": "date"}),
            "outcome": forms.Textarea(
                attrs={"rows": 3, "placeholder": _("Who won, by how much, how it ended")}
            ),
        }

    def __init__(self, *args, game: str, ruleset: Ruleset | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        field = self.fields["ruleset"]
        field.queryset = Ruleset.objects.filter(game=game).order_by("name", "-version")
        field.label_from_instance = lambda r: r.label
        field.empty_label = _("Another draft (name it below)")
        field.required = False
        if ruleset is not None:
            field.initial = ruleset.pk
        else:
            # The newest draft, not "another draft": a form sent as it opens is then a
            # report on a named draft, never an error (the empty choice asks for a name).
            newest = Ruleset.objects.filter(game=game).order_by("-pk").first()
            field.initial = newest.pk if newest is not None else None
        self.fields["played_on"].initial = timezone.localdate
        self.fields["publish_consent"].required = False
        self.fields["publish_consent"].help_text = _(
            "The designers may show some reports on a public page of the game. Yours only if "
            "you say yes here, and then only if they choose it; the players’ names only if "
            "you allow them."
        )
        if not self.is_bound:
            self.fields["started"].initial = signing.dumps(int(time.time()), salt=STARTED_SALT)

    def clean_publish_consent(self) -> str:
        # No answer (a client that sent none) is a no: publication is only ever asked for.
        return self.cleaned_data.get("publish_consent") or ExternalReport.Consent.NO

    def looks_like_a_bot(self) -> bool:
        """A filled honeypot, or a form posted faster than a person could (or never shown)."""
        if (self.data.get("website") or "").strip():
            return True
        try:
            shown = signing.loads(self.data.get("started", ""), salt=STARTED_SALT, max_age=86400)
        except (signing.BadSignature, TypeError):
            return True
        return time.time() - int(shown) < MIN_FILL_SECONDS

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("ruleset") and not (cleaned.get("draft") or "").strip():
            self.add_error("draft", _("Choose the draft you played, or name it."))
        return cleaned


class PlaceForm(forms.Form):
    place = forms.CharField(label=_("Place"), max_length=120, required=False)


class SharingForm(forms.ModelForm):
    """The owner's choice of whether the table's report goes to its designers."""

    class Meta:
        model = Table
        fields = ["report_sharing"]
        widgets = {"report_sharing": forms.RadioSelect}


def error_summary(*forms_: forms.Form | forms.BaseFormSet) -> list[dict[str, str]]:
    """Every error of the forms (a formset's rows included) as ``{"href", "text"}``: the
    summary at the top of a page links each one to its field."""
    out: list[dict[str, str]] = []

    def add(form: forms.Form, prefix: str = "") -> None:
        for error in form.non_field_errors():
            out.append({"href": "#" + _first_id(form), "text": prefix + error})
        # In the order the fields stand on the page, not the order the checks ran in.
        for name in form.fields:
            if name == NON_FIELD_ERRORS or name not in form.errors:
                continue
            bound = form[name]
            for error in form.errors[name]:
                out.append(
                    {"href": "#" + _field_id(bound), "text": f"{prefix}{bound.label}: {error}"}
                )

    for item in forms_:
        if isinstance(item, forms.BaseFormSet):
            for error in item.non_form_errors():
                out.append({"href": f"#{item.prefix}-rows", "text": error})
            for number, row in enumerate(item.forms, start=1):
                add(row, _("Player %(n)s") % {"n": number} + " · ")
        else:
            add(item)
    return out


def _field_id(bound: forms.BoundField) -> str:
    # A group of radio buttons has no element of its own to focus: its first button.
    if isinstance(bound.field.widget, forms.RadioSelect):
        return f"{bound.auto_id}_0"
    return bound.auto_id


def _first_id(form: forms.Form) -> str:
    visible = form.visible_fields()
    return _field_id(visible[0]) if visible else ""
