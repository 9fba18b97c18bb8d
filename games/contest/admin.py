from django.contrib import admin

from games.contest.models import Character, SeatCharacter


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "brains", "muscle", "moves", "coolness", "extra_points"]
    search_fields = ["name", "owner__username"]


@admin.register(SeatCharacter)
class SeatCharacterAdmin(admin.ModelAdmin):
    list_display = ["seat", "character", "credited"]
