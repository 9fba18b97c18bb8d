from django.urls import path

from amnesia_site import converters  # noqa: F401 - registers <token:…>, <secret:…>, <key:…>
from games.amnesia_stories import views
from games.seats import seat_urls

app_name = "amnesia_stories"

urlpatterns = [
    path("tables/<int:pk>/projector/", views.projector, name="projector"),
    path("tables/<int:pk>/pass/<int:position>/", views.handoff, name="handoff"),
    path("tables/<int:pk>/pass/<int:position>/answer/", views.answer, name="answer"),
    path("tables/<int:pk>/reveal/", views.reveal_step, name="reveal"),
    path("tables/<int:pk>/revealed/", views.revealed, name="revealed"),
    path("tables/<int:pk>/timer/", views.timer, name="timer"),
    # Each player's own page: their secret answer from their phone.
    *seat_urls("seat/<token:token>/stories/", "seat/<token:token>/stories/answer/"),
    path("areas/<key:card_id>/<key:size>/", views.area_image, name="area_image"),
    path("decks/", views.deck_list, name="decks"),
    path("decks/upload/", views.deck_upload, name="deck_upload"),
    path("decks/<int:pk>/", views.deck_detail, name="deck"),
    path("decks/<int:pk>/delete/", views.deck_delete, name="deck_delete"),
    path("decks/<int:pk>/cards/<int:card>/<key:size>/", views.deck_picture, name="deck_picture"),
]
