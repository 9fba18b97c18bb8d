from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from games import signals


class StoriesConfig(AppConfig):
    name = "stories"
    verbose_name = _("Stories")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from stories.services import names_changed  # it imports the models: not before

        signals.names_changed.connect(names_changed, dispatch_uid="stories.names_changed")
