from django.apps import AppConfig
from django.db.models.signals import post_migrate


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Models are loaded only once the app registry is ready, so the receiver's module is
        # imported here rather than at the top.
        from games import (
            checks,  # noqa: F401  (registers the game contract's check)
            leaks,  # noqa: F401  (registers the deep check of the pages' secrets)
        )
        from games.rulesets import seed_builtin_rulesets  # models: only once the registry is ready

        post_migrate.connect(seed_builtin_rulesets, sender=self)
