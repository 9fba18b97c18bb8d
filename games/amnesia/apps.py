from django.apps import AppConfig

from games import registry


class AmnesiaConfig(AppConfig):
    name = "games.amnesia"
    label = "amnesia"
    verbose_name = "Amnesia"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The kit names the game's views, pages and book, which need the app registry loaded:
        # it is imported once the registry is ready, as Django's docs ask of ready().
        from games.amnesia.kit import KIT  # only once the registry is ready: see above

        registry.register(KIT)
