from __future__ import annotations

from django import forms

from amnesia_site.accounts.models import Profile


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ["display_name"]

    def clean_display_name(self) -> str:
        # Runs of spaces and stray line breaks would print as gaps on a cover.
        return " ".join(self.cleaned_data["display_name"].split())
