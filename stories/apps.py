from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StoriesConfig(AppConfig):
    name = "stories"
    verbose_name = _("Stories")
    default_auto_field = "django.db.models.BigAutoField"
