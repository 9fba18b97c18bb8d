"""Your contest characters: the list, making and editing one, the sheet with its history,
and spending a won point on an attribute."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _g
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from amnesia_site.htmx import AuthenticatedHttpRequest
from games.answers import write_url
from games.contest.cards import attribute_info
from games.contest.characters import (
    ATTRIBUTE_LABELS,
    ATTRIBUTES,
    creation_bounds,
    history,
    spend_point,
)
from games.contest.models import Character


class CharacterForm(forms.ModelForm):
    """Name, the four attributes (within the contest's default bounds) and the appetite.
    Once a character has played, its attributes only grow by spending won points."""

    class Meta:
        model = Character
        fields = ["name", *ATTRIBUTES, "bfa"]

    def __init__(self, *args, owner, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.owner = owner
        self.bounds = creation_bounds()
        self.locked = bool(self.instance.pk and self.instance.seats.exists())
        extra = self.instance.extra_points if self.instance.pk else 0
        self.total = self.bounds["points"] + extra
        for attr in ATTRIBUTES:
            field = self.fields[attr]
            field.label = ATTRIBUTE_LABELS[attr]
            field.min_value = self.bounds["min"]
            field.widget.attrs.update(
                min=self.bounds["min"], max=self.bounds["max"] + extra, inputmode="numeric"
            )
            if self.locked:
                field.disabled = True
        self.fields["name"].widget.attrs["autocomplete"] = "off"

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("A character needs a name."))
        clash = Character.objects.filter(owner=self.owner, name__iexact=name)
        if self.instance.pk:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            raise forms.ValidationError(_("You already have a character with that name."))
        return name

    def clean(self):
        cleaned = super().clean()
        if self.locked:
            return cleaned
        extra = self.instance.extra_points if self.instance.pk else 0
        lo, hi, points = self.bounds["min"], self.bounds["max"] + extra, self.bounds["points"]
        values = [cleaned.get(a) for a in ATTRIBUTES]
        for attr, value in zip(ATTRIBUTES, values, strict=True):
            if value is not None and not lo <= value <= hi:
                self.add_error(attr, _("Between %(lo)s and %(hi)s, please.") % {"lo": lo, "hi": hi})
        if any(v is None for v in values):
            return cleaned
        if sum(values) != points + extra:
            raise forms.ValidationError(
                _("The four attributes must add up to %(n)s (they add up to %(m)s).")
                % {"n": points + extra, "m": sum(values)}
            )
        return cleaned

    def save(self, commit: bool = True) -> Character:
        character = super().save(commit=False)
        character.owner = self.owner
        if commit:
            character.save()
        return character


def _mine(request, pk: int) -> Character:
    return get_object_or_404(Character, pk=pk, owner=request.user)


@login_required
def character_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    characters = Character.objects.filter(owner=request.user).prefetch_related("seats")
    return render(
        request,
        "contest/character_list.html",
        {"characters": characters, "labels": ATTRIBUTE_LABELS},
    )


@login_required
@require_http_methods(["GET", "POST"])
def character_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = CharacterForm(request.POST or None, owner=request.user)
    if request.method == "POST" and form.is_valid():
        character = form.save()
        messages.success(request, _g("%(name)s is ready to play.") % {"name": character.name})
        return redirect("contest:character", pk=character.pk)
    return render(
        request,
        "contest/character_form.html",
        {"form": form, "bounds": form.bounds, "editing": False, "total_points": form.total},
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def character_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    character = _mine(request, pk)
    form = CharacterForm(request.POST or None, instance=character, owner=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        return redirect("contest:character", pk=character.pk)
    return render(
        request,
        "contest/character_form.html",
        {
            "form": form,
            "bounds": form.bounds,
            "editing": True,
            "character": character,
            "total_points": form.total,
        },
        status=400 if request.method == "POST" else 200,
    )


@login_required
def character_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    character = _mine(request, pk)
    return render(
        request,
        "contest/character_detail.html",
        {
            "character": character,
            "attributes": [attribute_info(a, getattr(character, a)) for a in ATTRIBUTES],
            "labels": ATTRIBUTE_LABELS,
            "history": history(character),
        },
    )


@login_required
@write_url(lambda pk: reverse("contest:character", args=[pk]))
def character_spend(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Spend one won point on an attribute (before the character's next game)."""
    character = _mine(request, pk)
    attribute = request.POST.get("attribute")
    if attribute not in ATTRIBUTES:
        messages.error(request, _g("Choose an attribute to raise."))
    elif spend_point(character, attribute):
        messages.success(
            request,
            _g("%(name)s’s %(attr)s is now %(n)s.")
            % {
                "name": character.name,
                "attr": ATTRIBUTE_LABELS[attribute],
                "n": getattr(character, attribute),
            },
        )
    else:
        messages.error(request, _g("There is no point left to spend."))
    return redirect("contest:character", pk=character.pk)
