from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlaytestsConfig(AppConfig):
    name = "games.playtests"
    label = "playtests"
    verbose_name = _("Playtests")
    default_auto_field = "django.db.models.BigAutoField"
