"""Three Cards' own pages: each player's seat page (their hand), under the seat's token."""

from django.urls import path

from tests.games.three_cards import views

app_name = "three_cards"

urlpatterns = [
    path("seat/<str:token>/three-cards/", views.seat_page, name="seat"),
    path("seat/<str:token>/three-cards/move/", views.seat_move, name="seat_move"),
]
