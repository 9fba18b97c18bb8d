"""Stories: the book a table leaves behind, and the authors' edits to its narration.

A story is a view of its table's move log: the chapters are rebuilt from the log each time
(``stories.books``), so nothing here copies the game. What the authors add lives beside it:
the title page (title, subtitle, language, tags, blurb, cover), who may read it, and
``NarrationEdit`` rows, an overlay on the text of the moves. The move log is never touched:
the current text of a move is its latest edit, or the text typed at the table.
"""

from __future__ import annotations

import secrets
import unicodedata
import uuid
from pathlib import PurePath

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from games.languages import normalise, table_language
from games.models import Table

MAX_TAGS = 12

# The accents a Latin letter takes (acute, grave, circumflex, tilde, cedilla, diaeresis...):
# Combining Diacritical Marks. A Japanese sound mark (U+3099, U+309A) is not among them: か
# and が are different words.
_ACCENTS = range(0x0300, 0x0370)


def fold_for_search(text: str) -> str:
    """Text as the archive's search compares it: without accents and in one case, so "heroi"
    and "HERÓI" find "herói" (SQLite's LIKE folds the case of ASCII letters only)."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", text) if ord(c) not in _ACCENTS)
    return unicodedata.normalize("NFC", bare).casefold()


def new_secret() -> str:
    return secrets.token_urlsafe(18)


def cover_path(story: Story, filename: str) -> str:
    # A random name: an uploaded cover is never found by guessing a story's id.
    return f"stories/covers/{uuid.uuid4().hex}{PurePath(filename).suffix.lower() or '.jpg'}"


class Tag(models.Model):
    name = models.CharField(_("name"), max_length=40, unique=True)
    slug = models.SlugField(_("slug"), max_length=60, unique=True, allow_unicode=True)

    class Meta:
        verbose_name = _("tag")
        verbose_name_plural = _("tags")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def for_names(cls, names: list[str]) -> list[Tag]:
        tags = []
        for name in names:
            slug = slugify(name, allow_unicode=True) or name
            tag, _created = cls.objects.get_or_create(slug=slug, defaults={"name": name})
            tags.append(tag)
        return tags


class StoryQuerySet(models.QuerySet):
    def published(self) -> StoryQuerySet:
        return self.filter(published_at__isnull=False)

    def public(self) -> StoryQuerySet:
        """What the archive lists to anyone: published and public."""
        return self.published().filter(visibility=Story.Visibility.PUBLIC)

    def authored_by(self, user) -> StoryQuerySet:
        if user is None or not user.is_authenticated:
            return self.none()
        ids = Story.objects.filter(Q(table__owner=user) | Q(table__seats__user=user)).values("pk")
        return self.filter(pk__in=ids)


class Story(models.Model):
    class Language(models.TextChoices):
        EN = "en", _("English")
        PT_BR = "pt-br", _("Brazilian Portuguese")
        JA = "ja", _("Japanese")

    class Visibility(models.TextChoices):
        PRIVATE = "private", _("Private: only the authors")
        UNLISTED = "unlisted", _("Unlisted: anyone with the secret link")
        PUBLIC = "public", _("Public: listed in the archive")

    table = models.OneToOneField(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="story"
    )
    title = models.CharField(_("title"), max_length=160)
    subtitle = models.CharField(_("subtitle"), max_length=200, blank=True)
    language = models.CharField(
        _("language"), max_length=8, choices=Language.choices, default=Language.EN
    )
    tags = models.ManyToManyField(Tag, blank=True, related_name="stories", verbose_name=_("tags"))
    blurb = models.TextField(_("blurb"), max_length=2000, blank=True)
    cover = models.ImageField(_("cover"), upload_to=cover_path, blank=True)
    visibility = models.CharField(
        _("visibility"), max_length=16, choices=Visibility.choices, default=Visibility.PRIVATE
    )
    # The unlisted link: /stories/s/<secret>/. A new one can be drawn to revoke the old.
    secret = models.CharField(max_length=40, unique=True, default=new_secret, editable=False)
    published_at = models.DateTimeField(_("published"), null=True, blank=True)
    # The game master as a bundle named them (stories.bundles): a name, never an account; the
    # book prints it instead of the owner's (empty: the owner is the game master).
    game_master_name = models.CharField(
        _("game master's name"), max_length=150, blank=True, default=""
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    # The narration as plain text (with the authors' edits), for the archive's search.
    search_text = models.TextField(blank=True, default="", editable=False)
    # The title, subtitle, blurb, narration and tags folded (fold_for_search): what a search of
    # the archive looks in, whatever the accents and case it is typed with. Kept by save() and
    # by services.refresh_search_text (which the title page's form calls once its tags are set).
    search_key = models.TextField(blank=True, default="", editable=False)

    objects = StoryQuerySet.as_manager()

    class Meta:
        verbose_name = _("story")
        ordering = ["-published_at", "-created_at"]
        verbose_name_plural = _("stories")

    def __str__(self) -> str:
        return self.title

    def save(self, *args, **kwargs) -> None:
        # The key follows what it folds; a save of other fields (a publication, a book's
        # date) leaves it, without reading the tags again.
        fields = kwargs.get("update_fields")
        if fields is None or {"title", "subtitle", "blurb", "search_text"} & set(fields):
            self.search_key = self.folded_search_key()
            if fields is not None:
                kwargs["update_fields"] = {*fields, "search_key"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("stories:detail", args=[self.pk])

    def folded_search_key(self) -> str:
        parts = [self.title, self.subtitle, self.blurb, self.search_text]
        if self.pk is not None:  # a new story has no tags yet
            parts.extend(self.tags.values_list("name", flat=True))
        return fold_for_search("\n".join(p for p in parts if p))

    @property
    def is_published(self) -> bool:
        return self.published_at is not None

    @property
    def can_publish(self) -> bool:
        return self.table.status == Table.Status.FINISHED

    def is_author(self, user) -> bool:
        return is_table_author(self.table, user)

    def is_public(self) -> bool:
        return self.is_published and self.visibility == self.Visibility.PUBLIC

    def readable_with_secret(self) -> bool:
        return self.is_published and self.visibility in (
            self.Visibility.UNLISTED,
            self.Visibility.PUBLIC,
        )

    def publish(self) -> None:
        self.published_at = self.published_at or timezone.now()

    def tag_names(self) -> list[str]:
        return [t.name for t in self.tags.all()]


class NarrationEditQuerySet(models.QuerySet):
    def current_texts(self, story: Story) -> dict[int, str]:
        """``{move seq: text}`` of the latest edit of each edited move."""
        texts: dict[int, str] = {}
        for seq, text in self.filter(story=story).order_by("pk").values_list("move_seq", "text"):
            texts[seq] = text
        return texts


class NarrationEdit(models.Model):
    """One version of the text of one move, as an author wrote it. Rows are never changed:
    a revert is a new row that restores an older version (or the text typed at the table)."""

    class Kind(models.TextChoices):
        EDIT = "edit", _("Edit")
        REVERT = "revert", _("Revert")

    story = models.ForeignKey(
        Story, verbose_name=_("story"), on_delete=models.CASCADE, related_name="edits"
    )
    move_seq = models.PositiveIntegerField(_("move"))
    text = models.TextField(_("text"), blank=True)
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.EDIT)
    # For a revert: the version it restores; empty means the text typed at the table.
    restores = models.ForeignKey(
        "self",
        verbose_name=_("restores version"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    editor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("editor"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
    )
    # Who wrote it as a bundle named them (stories.bundles), when no account is linked.
    editor_name = models.CharField(_("editor's name"), max_length=150, blank=True, default="")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    objects = NarrationEditQuerySet.as_manager()

    class Meta:
        verbose_name = _("narration edit")
        verbose_name_plural = _("narration edits")
        ordering = ["story", "move_seq", "pk"]
        indexes = [models.Index(fields=["story", "move_seq"], name="narration_edit_move")]

    def __str__(self) -> str:
        return f"{self.story_id} #{self.move_seq} ({self.kind})"


def is_table_author(table: Table, user) -> bool:
    """The game master (the table's owner) and every user seated at the table."""
    if user is None or not user.is_authenticated:
        return False
    if table.owner_id == user.pk:
        return True
    return table.seats.filter(user=user).exists()


def story_for(table: Table, language: str | None = None) -> Story:
    """The table's story, made (as a private draft titled after the table, in the table's
    language unless ``language`` says otherwise) on first use."""
    try:
        return table.story
    except Story.DoesNotExist:
        pass
    # The table's language unless asked otherwise (games.languages).
    lang = normalise(language) or table_language(table)
    story, _created = Story.objects.get_or_create(
        table=table, defaults={"title": table.name[:160], "language": lang}
    )
    return story


class BookBuild(models.Model):
    """One build of a story's book: one version of the story (``version``, a hash of what
    goes into it: ``stories.printing.version``), in one language and page size, kept once
    (the unique constraint). A short book is built in the request that asks for it; a long
    one by a worker (the ``stories.printing.build_book`` task), this row saying where it is
    (its place in the queue, its phase), so any web process can answer the page that waits
    for it, and holding the cancel flag the task reads between its phases."""

    class Status(models.TextChoices):
        NEW = "new", _("Not printed yet")
        QUEUED = "queued", _("Waiting to be printed")
        RENDERING = "rendering", _("Being printed")
        READY = "ready", _("Ready")
        FAILED = "failed", _("Could not be printed")
        CANCELLED = "cancelled", _("Printing stopped")

    class Phase(models.TextChoices):
        # WeasyPrint gives no percentage: the phases of a build, in order.
        READING = "reading", _("Reading the story")
        LAYOUT = "layout", _("Laying out the pages")
        WRITING = "writing", _("Writing the PDF")

    story = models.ForeignKey(Story, on_delete=models.CASCADE, related_name="builds")
    page_size = models.CharField(max_length=16)
    language = models.CharField(max_length=8)
    version = models.CharField(max_length=64)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.NEW)
    phase = models.CharField(max_length=16, choices=Phase.choices, blank=True, default="")
    # What went wrong, in words for the reader (a failed build).
    error = models.TextField(blank=True, default="")
    passages = models.PositiveIntegerField(default=0)
    # The task that prints it (a django-tasks-db result id) and the worker running it: the
    # task run again after its worker died takes the row back; another task does not.
    task_id = models.CharField(max_length=64, blank=True, default="")
    worker = models.CharField(max_length=200, blank=True, default="")
    # How many times printing started (more than once: a worker died on the way).
    attempts = models.PositiveIntegerField(default=0)
    # Asked to stop: the worker stops at its next phase.
    cancel_requested = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # When it was last asked for (its place in the queue).
    queued_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    # The worker's last word on this build (each phase).
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["story", "page_size", "language", "version"], name="book_build_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.story_id} {self.page_size} {self.language} {self.status}"
