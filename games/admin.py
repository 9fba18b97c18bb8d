from django.contrib import admin

from games.models import Move, Ruleset, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ["token"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "owner", "status", "deck_mode", "created_at", "last_seq"]
    list_filter = ["game", "status", "deck_mode"]
    search_fields = ["name", "owner__username", "seats__name"]
    readonly_fields = ["state", "state_seq", "last_seq", "created_at"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["name", "table", "position", "user"]
    search_fields = ["name", "table__name"]
    readonly_fields = ["token"]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    """The log is append-only: the admin reads it, never rewrites rules data."""

    list_display = ["table", "seq", "kind", "payload", "at", "entered_by"]
    list_filter = ["kind", "table__game"]
    search_fields = ["text", "table__name"]

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False


@admin.register(Ruleset)
class RulesetAdmin(admin.ModelAdmin):
    """Versions are never edited in place: the rulesets page adds the next version."""

    list_display = ["name", "version", "game", "owner", "builtin", "created_at"]
    list_filter = ["game", "builtin"]
    readonly_fields = ["game", "name", "version", "options", "builtin", "created_at"]
