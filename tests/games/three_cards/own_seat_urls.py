"""Three Cards with a seat page of its own, as games wrote them before the engine owned it:
no guessed-link throttle (the contract's check refuses it: tests/games/test_seats.py)."""

from django.http import HttpResponse
from django.urls import path

from games.seats import seat_move

app_name = "three_cards"


def seat_page(request, token: str) -> HttpResponse:
    return HttpResponse("a seat")


urlpatterns = [
    path("seat/<str:token>/three-cards/", seat_page, name="seat"),
    path("seat/<str:token>/three-cards/move/", seat_move, name="seat_move"),
]
