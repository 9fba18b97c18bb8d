from django.urls import path

from amnesia_site import converters  # noqa: F401 - registers <token:…>, <secret:…>, <key:…>
from games.contest import character_views, views
from games.seats import seat_urls

app_name = "contest"

urlpatterns = [
    # The table's own views and each seat's private page.
    path("tables/<int:pk>/contest/build/", views.build, name="build"),
    path("tables/<int:pk>/contest/character/", views.character, name="table_character"),
    path("tables/<int:pk>/contest/bring/", views.bring, name="bring"),
    path("tables/<int:pk>/contest/display/", views.display, name="display"),
    path("tables/<int:pk>/seats/<int:position>/qr.svg", views.seat_qr, name="seat_qr"),
    *seat_urls("seat/<token:token>/", "seat/<token:token>/move/"),
    # Characters kept between games.
    path("characters/", character_views.character_list, name="characters"),
    path("characters/new/", character_views.character_new, name="character_new"),
    path("characters/<int:pk>/", character_views.character_detail, name="character"),
    path("characters/<int:pk>/edit/", character_views.character_edit, name="character_edit"),
    path("characters/<int:pk>/spend/", character_views.character_spend, name="character_spend"),
]
