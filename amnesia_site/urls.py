"""The site's URLs: accounts, admin (at ADMIN_URL) and language switching here; the rest belongs
to the apps.

Each registered game mounts its own URLconf (namespaced by its slug) beside the table engine's.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from amnesia_site.accounts.languages import set_language
from games import registry


class FaviconRedirect(RedirectView):
    """The icon's address is asked for at request time, not when the URLs load: with hashed
    static names (make serve) it exists only once collectstatic has written the manifest."""

    def get_redirect_url(self, *args, **kwargs) -> str:
        return static("img/favicon.svg")


urlpatterns = [
    # Browsers ask for /favicon.ico on pages that name no icon (base.html names it).
    path("favicon.ico", FaviconRedirect.as_view(permanent=True)),
    path(settings.ADMIN_URL, admin.site.urls),
    path("accounts/", include("amnesia_site.accounts.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    # Django's switcher, that also keeps a logged-in person's choice (on any device).
    path("i18n/setlang/", set_language, name="set_language"),
    path("stories/", include("stories.urls")),
    path("playtests/", include("games.playtests.urls")),
    path("", include("games.urls")),
]
urlpatterns += [path("", include(kit.urls)) for kit in registry.kits() if kit.urls]

# No URL maps MEDIA_URL onto MEDIA_ROOT, with DEBUG on or off: uploads (custom deck pictures,
# story covers) are served by views that check who may see them (games.uploads), and the
# built-in cards' art by its own view. A deployment must not serve MEDIA_ROOT either.
