"""Three Cards' own pages: each player's seat page (their hand), under the seat's token."""

from games.seats import seat_urls

app_name = "three_cards"

urlpatterns = seat_urls("seat/<str:token>/three-cards/", "seat/<str:token>/three-cards/move/")
