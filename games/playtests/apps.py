from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from games import signals


class PlaytestsConfig(AppConfig):
    name = "games.playtests"
    label = "playtests"
    verbose_name = _("Playtests")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # They import the models: not before.
        from games.playtests.service import FIGURES, names_changed
        from games.services import kept  # it imports the models too

        signals.names_changed.connect(names_changed, dispatch_uid="playtests.names_changed")
        # A finished table's figures are kept by the write path, as the state and the story.
        kept.register(FIGURES)
