"""The table engine's own pages; each game mounts its own URLconf (``amnesia_site.urls``)."""

from django.urls import path

from amnesia_site import converters  # noqa: F401 - registers <token:…>, <secret:…>, <key:…>
from games import live, views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("tables/new/", views.table_new, name="table_new"),
    path("tables/import/", views.table_import, name="table_import"),
    path("tables/<int:pk>/", views.table_detail, name="table"),
    path("tables/<int:pk>/move/", views.table_move, name="move"),
    path("tables/<int:pk>/undo/", views.table_undo, name="undo"),
    path("tables/<int:pk>/draft/", views.table_draft, name="draft"),
    path("tables/<int:pk>/export/", views.table_export, name="export"),
    path("tables/<int:pk>/narrative/", views.table_narrative, name="narrative"),
    path("tables/<int:pk>/story/", views.table_story, name="story"),
    path(
        "tables/<int:pk>/pictures/<int:picture>/<key:size>/",
        views.table_picture,
        name="picture",
    ),
    path(
        "seat/<token:token>/pictures/<int:picture>/<key:size>/",
        views.seat_picture,
        name="seat_picture",
    ),
    path("tables/<int:pk>/names/", views.table_names, name="names"),
    path("tables/<int:pk>/rules/", views.table_rules, name="table_rules"),
    path("seat/<token:token>/rules/", views.seat_rules, name="seat_rules"),
    # What live pages ask every few seconds, and the screen phones join from (games.live).
    path("tables/<int:pk>/poll/", live.table_poll, name="poll"),
    path("seat/<token:token>/poll/", live.seat_poll, name="seat_poll"),
    path("tables/<int:pk>/join/", live.join, name="join"),
    path("tables/<int:pk>/join/<int:position>/qr.svg", live.join_qr, name="join_qr"),
    path("tables/<int:pk>/seats/<int:position>/new-link/", live.reissue_link, name="reissue_link"),
    path("rules/<slug:game>/", views.rules_page, name="rules"),
    path("rules/<slug:game>/components.pdf", views.components_pdf, name="components"),
]
