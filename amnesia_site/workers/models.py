"""One row per running worker process: who it is, where, and when it last said so."""

from __future__ import annotations

from django.db import models


class WorkerBeat(models.Model):
    """A ``manage.py worker`` process, from its start to its exit (a graceful exit deletes
    the row; a killed one leaves it, which is how its task is found lost)."""

    # django-tasks-db keeps this id in the task's ``worker_ids`` (at most 64 characters).
    worker_id = models.CharField(max_length=64, unique=True)
    host = models.CharField(max_length=255)
    pid = models.PositiveIntegerField()
    # The process's start time (psutil): a pid reused by another process, or a machine
    # restarted since, is not this worker.
    process_started = models.FloatField()
    queues = models.CharField(max_length=255)
    started_at = models.DateTimeField(auto_now_add=True)
    beat_at = models.DateTimeField()
    # The task it is running now (a django-tasks-db result id), empty between tasks.
    task_id = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["started_at", "pk"]

    def __str__(self) -> str:
        return f"{self.worker_id} ({self.queues})"

    def queue_names(self) -> list[str]:
        return [q for q in self.queues.split(",") if q]
