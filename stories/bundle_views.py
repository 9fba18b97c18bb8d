"""The designers' page for bringing in a bundle made on another site (``stories.bundles``)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from amnesia_site.htmx import AuthenticatedHttpRequest
from games.playtests.service import is_designer
from stories.bundles.format import BundleError, limit
from stories.bundles.importing import import_bundle
from stories.bundles.summary import summary_lines


class BundleForm(forms.Form):
    bundle = forms.FileField(
        label=gettext_lazy("Bundle (.zip)"),
        help_text=gettext_lazy("Made with “python manage.py bundle export” on another site."),
    )


@login_required
@require_http_methods(["GET", "POST"])
def bundle_import(request: AuthenticatedHttpRequest) -> HttpResponse:
    if not is_designer(request.user):
        raise PermissionDenied
    form = BundleForm(request.POST or None, request.FILES or None)
    context = {"form": form, "lines": [], "error": ""}
    status = 200
    if request.method == "POST":
        if not form.is_valid():
            status = 400
        else:
            upload = form.cleaned_data["bundle"]
            try:
                if upload.size > limit("BUNDLE_MAX_BYTES"):
                    raise BundleError(_("The bundle is larger than this site accepts."))
                # Everything it brings is the uploader's (stories.bundles).
                summary = import_bundle(upload.read(), request.user)
            except BundleError as exc:
                context["error"] = _("The bundle was refused and nothing was imported: %(why)s") % {
                    "why": exc
                }
                status = 400
            else:
                context["lines"] = summary_lines(summary)
                context["form"] = BundleForm()
    return render(request, "stories/bundle_import.html", context, status=status)
