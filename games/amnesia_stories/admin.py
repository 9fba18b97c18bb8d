from django.contrib import admin

from games.amnesia_stories.models import CustomCard, CustomDeck


class CustomCardInline(admin.TabularInline):
    model = CustomCard
    extra = 0


@admin.register(CustomDeck)
class CustomDeckAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "created_at"]
    search_fields = ["name", "owner__username"]
    inlines = [CustomCardInline]


@admin.register(CustomCard)
class CustomCardAdmin(admin.ModelAdmin):
    list_display = ["card_id", "deck", "position"]
    search_fields = ["card_id", "text", "deck__name"]
