"""The site's URLs: accounts, admin and language switching here; the rest belongs to the apps."""

from __future__ import annotations

from importlib.util import find_spec

from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path

from amnesia_site import accounts

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/signup/", accounts.SignupView.as_view(), name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
]

# The archive mounts once the stories app has pages.
if find_spec("stories.urls") is not None:
    urlpatterns.append(path("stories/", include("stories.urls")))

urlpatterns.append(path("playtests/", include("stories.playtest_urls")))
urlpatterns.append(path("", include("games.urls")))

# Uploads are served by Django only in development; a deployment serves MEDIA_ROOT itself.
urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
