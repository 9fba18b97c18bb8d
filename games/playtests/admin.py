from django.contrib import admin

from games.playtests.models import ExternalReport, Impression, PlaytestReport


@admin.register(PlaytestReport)
class PlaytestReportAdmin(admin.ModelAdmin):
    list_display = ["table", "place", "computed_at"]
    readonly_fields = ["figures", "computed_seq", "computed_version", "computed_at"]


@admin.register(ExternalReport)
class ExternalReportAdmin(admin.ModelAdmin):
    list_display = ["game", "ruleset", "draft", "played_on", "players", "approved", "submitted_at"]
    list_filter = ["game", "approved"]
    readonly_fields = ["ip_hash", "submitted_at"]


@admin.register(Impression)
class ImpressionAdmin(admin.ModelAdmin):
    list_display = ["player", "report", "external", "fun", "again", "updated_at"]
