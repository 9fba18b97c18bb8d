from django.contrib import admin

from stories.models import NarrationEdit, Story, Tag


@admin.register(Story)
class StoryAdmin(admin.ModelAdmin):
    list_display = ["title", "table", "language", "visibility", "published_at"]
    list_filter = ["visibility", "language"]
    search_fields = ["title", "subtitle"]
    raw_id_fields = ["table"]


@admin.register(NarrationEdit)
class NarrationEditAdmin(admin.ModelAdmin):
    list_display = ["story", "move_seq", "kind", "editor", "created_at"]
    raw_id_fields = ["story", "restores", "editor"]


admin.site.register(Tag)
