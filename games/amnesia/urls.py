"""Amnesia's own pages: each player's seat page, opened on their phone from the join screen
(the engine's page and moves, ``games.seats``)."""

from amnesia_site import converters  # noqa: F401 - registers <token:…>, <secret:…>, <key:…>
from games.seats import seat_urls

app_name = "amnesia"

urlpatterns = [
    # Under the seat's token like every seat page; "amnesia/" keeps it apart from the
    # contest's seat page, which owns the bare "seat/<token>/".
    *seat_urls("seat/<token:token>/amnesia/", "seat/<token:token>/amnesia/move/"),
]
