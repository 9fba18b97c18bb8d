from django.apps import AppConfig

from games import registry, signals


class ContestConfig(AppConfig):
    name = "games.contest"
    label = "contest"
    verbose_name = "Contest"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The kit names the game's views, pages and book, which need the app registry loaded:
        # it is imported once the registry is ready, as Django's docs ask of ready().
        from games.contest.characters import finished_changed  # it imports the models: not before
        from games.contest.kit import KIT  # only once the registry is ready: see above

        registry.register(KIT)
        signals.finished_changed.connect(finished_changed, sender=KIT)
