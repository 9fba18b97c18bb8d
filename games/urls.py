from django.urls import path

from . import views, views_characters, views_contest, views_stories

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
    path("rules/<slug:game>/", views.rules_page, name="rules"),
    # Amnesia Stories
    path("tables/<int:pk>/projector/", views_stories.projector, name="stories_projector"),
    path("tables/<int:pk>/pass/<int:position>/", views_stories.handoff, name="stories_handoff"),
    path(
        "tables/<int:pk>/pass/<int:position>/answer/",
        views_stories.answer,
        name="stories_answer",
    ),
    path("tables/<int:pk>/revealed/", views_stories.revealed, name="stories_revealed"),
    path("areas/<str:card_id>/<str:size>/", views_stories.area_image, name="area_image"),
    path("decks/", views_stories.deck_list, name="decks"),
    path("decks/upload/", views_stories.deck_upload, name="deck_upload"),
    path("decks/<int:pk>/", views_stories.deck_detail, name="deck"),
    path("decks/<int:pk>/delete/", views_stories.deck_delete, name="deck_delete"),
    # Contest: the table's own views, each seat's private page, persistent characters
    path("tables/<int:pk>/contest/build/", views_contest.build, name="contest_build"),
    path("tables/<int:pk>/contest/character/", views_contest.character, name="contest_character"),
    path("tables/<int:pk>/contest/bring/", views_contest.bring, name="contest_bring"),
    path("tables/<int:pk>/contest/display/", views_contest.display, name="contest_display"),
    path("tables/<int:pk>/contest/poll/", views_contest.poll, name="contest_poll"),
    path("tables/<int:pk>/seats/<int:position>/qr.svg", views_contest.seat_qr, name="seat_qr"),
    path("seat/<str:token>/", views_contest.seat_page, name="seat"),
    path("seat/<str:token>/move/", views_contest.seat_move, name="seat_move"),
    path("characters/", views_characters.character_list, name="characters"),
    path("characters/new/", views_characters.character_new, name="character_new"),
    path("characters/<int:pk>/", views_characters.character_detail, name="character"),
    path("characters/<int:pk>/edit/", views_characters.character_edit, name="character_edit"),
    path("characters/<int:pk>/spend/", views_characters.character_spend, name="character_spend"),
]
