"""The site's URLs: accounts, admin (at ADMIN_URL) and language switching here; the rest belongs
to the apps.

Each registered game mounts its own URLconf (namespaced by its slug) beside the table engine's.
"""

from __future__ import annotations

from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path

from amnesia_site import accounts
from games import registry

urlpatterns = [
    path(settings.ADMIN_URL, admin.site.urls),
    path("accounts/signup/", accounts.SignupView.as_view(), name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("stories/", include("stories.urls")),
    path("playtests/", include("games.playtests.urls")),
    path("", include("games.urls")),
]
urlpatterns += [path("", include(kit.urls)) for kit in registry.kits() if kit.urls]

# Uploads are served by Django only in development; a deployment serves MEDIA_ROOT itself.
urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
