"""The site's settings with one more page, for bench/load.py's floor: the server it starts
runs with ``DJANGO_SETTINGS_MODULE=bench.load_site`` (everything else is the site's own).

``/bench/floor/`` answers an authenticated request with an empty 204 and does nothing else:
the least any request of a logged-in person costs through the site's whole middleware.
"""

from amnesia_site.settings import *  # noqa: F403

ROOT_URLCONF = "bench.load_site"


def floor(request):
    from django.http import HttpResponse

    return HttpResponse(status=204 if request.user.is_authenticated else 403)


def _urlpatterns() -> list:
    from django.urls import include, path

    return [path("bench/floor/", floor), path("", include("amnesia_site.urls"))]


def __getattr__(name: str):
    # Built when the URL resolver first asks, not while the settings are being read.
    if name == "urlpatterns":
        return _urlpatterns()
    raise AttributeError(name)
