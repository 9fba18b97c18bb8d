from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from games import signals


class StoriesConfig(AppConfig):
    name = "stories"
    verbose_name = _("Stories")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # They import the models: not before.
        from stories.services import finished_changed, names_changed

        signals.names_changed.connect(names_changed, dispatch_uid="stories.names_changed")
        signals.finished_changed.connect(finished_changed, dispatch_uid="stories.finished_changed")
