"""Amnesia's own pages: each player's seat page, opened on their phone from the join screen."""

from django.urls import path

from amnesia_site import converters  # noqa: F401 - registers <token:…>, <secret:…>, <key:…>
from games.amnesia import views

app_name = "amnesia"

urlpatterns = [
    # Under the seat's token like every seat page; "amnesia/" keeps it apart from the
    # contest's seat page, which owns the bare "seat/<token>/".
    path("seat/<token:token>/amnesia/", views.seat_page, name="seat"),
    path("seat/<token:token>/amnesia/move/", views.seat_move, name="seat_move"),
]
