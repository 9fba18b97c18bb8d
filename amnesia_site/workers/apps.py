from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WorkersConfig(AppConfig):
    """The work done off the request: Django's Tasks on the database (django-tasks-db), run by
    ``manage.py worker`` processes that say they are alive (``WorkerBeat``), so a task whose
    worker died is noticed and run again (``amnesia_site.workers.work``)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "amnesia_site.workers"
    label = "workers"
    verbose_name = _("Workers")

    def ready(self) -> None:
        # A process a supervised child started (Granian's worker, runserver's reloaded child)
        # ends when its parent does, as the supervisor's own children do.
        from amnesia_site.workers import lifeline

        lifeline.when_started()
