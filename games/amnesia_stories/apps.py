from django.apps import AppConfig

from games import registry


class AmnesiaStoriesConfig(AppConfig):
    name = "games.amnesia_stories"
    label = "amnesia_stories"
    verbose_name = "Amnesia Stories"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The kit names the game's views, pages and book, which need the app registry loaded:
        # it is imported once the registry is ready, as Django's docs ask of ready().
        from games.amnesia_stories.kit import KIT  # only once the registry is ready: see above

        registry.register(KIT)
