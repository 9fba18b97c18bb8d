from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games import registry
from stories.covers import clean_cover
from stories.models import MAX_TAGS, Story, Tag
from stories.services import MAX_NARRATION


def parse_tags(raw: str) -> list[str]:
    """Comma-separated tags, trimmed, without duplicates (case-insensitive), in order."""
    seen: dict[str, str] = {}
    for part in raw.replace("、", ",").split(","):
        name = " ".join(part.split())[:40]
        if name and name.casefold() not in seen:
            seen[name.casefold()] = name
    return list(seen.values())


class StoryForm(forms.ModelForm):
    tags_text = forms.CharField(
        label=_("Tags"),
        required=False,
        max_length=400,
        help_text=_("Separated by commas, e.g. noir, hospital, one-shot."),
    )
    cover_upload = forms.FileField(
        label=_("Cover image"),
        required=False,
        help_text=_("JPEG, PNG or WebP, up to 8 MB. Without one, a cover is drawn from the story."),
        widget=forms.ClearableFileInput(attrs={"accept": "image/jpeg,image/png,image/webp"}),
    )
    remove_cover = forms.BooleanField(
        label=_("Use the generated cover instead of the uploaded one"), required=False
    )

    class Meta:
        model = Story
        fields = ["title", "subtitle", "language", "blurb", "visibility"]
        widgets = {"blurb": forms.Textarea(attrs={"rows": 4})}
        help_texts = {
            "blurb": _("A few lines for the back cover and the archive."),
            "visibility": _(
                "Anyone can read a public or unlisted story only once it is published."
            ),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["tags_text"].initial = ", ".join(self.instance.tag_names())
        if not self.instance.cover:
            del self.fields["remove_cover"]

    def clean_tags_text(self) -> list[str]:
        names = parse_tags(self.cleaned_data.get("tags_text", ""))
        if len(names) > MAX_TAGS:
            raise forms.ValidationError(_("At most %(n)s tags.") % {"n": MAX_TAGS})
        return names

    def clean_cover_upload(self):
        upload = self.cleaned_data.get("cover_upload")
        return clean_cover(upload) if upload else None

    def save(self, commit: bool = True) -> Story:
        story = super().save(commit=False)
        cover = self.cleaned_data.get("cover_upload")
        old = story.cover.name if story.cover else ""
        if cover is not None:
            story.cover.save(cover.name, cover, save=False)
        elif self.cleaned_data.get("remove_cover"):
            story.cover = ""
        if commit:
            story.save()
            story.tags.set(Tag.for_names(self.cleaned_data["tags_text"]))
            if old and old != (story.cover.name if story.cover else ""):
                story.cover.storage.delete(old)
        return story


class NarrationForm(forms.Form):
    text = forms.CharField(
        label=_("Narration"),
        required=False,
        max_length=MAX_NARRATION,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 10}),
        help_text=_("Plain text; a blank line starts a new paragraph."),
    )


SORTS = {"new": "-published_at", "old": "published_at", "title": "title"}


class ArchiveForm(forms.Form):
    q = forms.CharField(label=_("Search"), required=False, max_length=100)
    game = forms.ChoiceField(
        label=_("Game"), required=False, choices=[("", _("All games")), *registry.choices()]
    )
    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=[("", _("All languages")), *Story.Language.choices],
    )
    tag = forms.CharField(label=_("Tag"), required=False, max_length=60)
    sort = forms.ChoiceField(
        label=_("Sort"),
        required=False,
        choices=[("new", _("Newest first")), ("old", _("Oldest first")), ("title", _("Title"))],
    )
