"""The archive, the reading page, the PDF and the authors' editing pages.

Who may see a story: its authors (the table's owner and any user seated at it) always; anyone
else only a published story, by its id when it is public, by its secret link when it is public
or unlisted. Everything else answers 404, the same as an id that does not exist.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Q
from django.db.models.functions import Lower
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from amnesia_site.addresses import phone_url
from amnesia_site.htmx import AuthenticatedHttpRequest, HtmxHttpRequest
from amnesia_site.numbers import whole_number
from amnesia_site.throttle import STORY_LINKS, guards_secret
from amnesia_site.workers import work
from games import registry, uploads
from games.models import Move, Table
from stories import printing, services
from stories.covers import cover_image
from stories.forms import SORTS, ArchiveForm, NarrationForm, StoryForm
from stories.models import (
    BookBuild,
    NarrationEdit,
    Story,
    Tag,
    fold_for_search,
    is_table_author,
    new_secret,
    story_for,
)
from stories.pdf import DEFAULT_SIZE, PAGE_SIZES

PER_PAGE = 12


def _stories():
    return Story.objects.select_related("table", "table__owner")


def _readable(request, pk: int) -> Story:
    story = get_object_or_404(_stories(), pk=pk)
    if story.is_public() or story.is_author(request.user):
        return story
    raise Http404("No such story.")


def _shared(request, secret: str) -> Story:
    story = get_object_or_404(_stories(), secret=secret)
    if story.readable_with_secret() or story.is_author(request.user):
        return story
    raise Http404("No such story.")


def _authored(request, pk: int) -> Story:
    story = get_object_or_404(_stories(), pk=pk)
    if not story.is_author(request.user):
        raise Http404("No such story.")
    return story


# -- the archive ---------------------------------------------------------------------------
@require_GET
def archive(request: HtmxHttpRequest) -> HttpResponse:
    form = ArchiveForm(request.GET or None)
    stories = Story.objects.public().select_related("table").prefetch_related("tags")
    filters = form.cleaned_data if form.is_valid() else {}
    if q := (filters.get("q") or "").strip():
        matches = (
            Q(title__icontains=q)
            | Q(subtitle__icontains=q)
            | Q(blurb__icontains=q)
            | Q(search_text__icontains=q)
            | Q(search_key__contains=fold_for_search(q))
            | Q(tags__name__icontains=q)
            # A player shown as a label is not found by their name.
            | Q(table__seats__name__iexact=q, table__seats__alias="")
        )
        stories = stories.filter(pk__in=Story.objects.public().filter(matches).values("pk"))
    if game := filters.get("game"):
        stories = stories.filter(table__game=game)
    if language := filters.get("language"):
        stories = stories.filter(language=language)
    if tag := filters.get("tag"):
        stories = stories.filter(tags__slug=tag)
    sort = filters.get("sort") or "new"
    order = Lower("title") if sort == "title" else SORTS.get(sort, "-published_at")
    stories = stories.order_by(order, "-pk")
    page = Paginator(stories, PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "form": form,
        "page": page,
        "filtering": any(filters.get(k) for k in ("q", "game", "language", "tag")),
        "tags": Tag.objects.filter(stories__in=Story.objects.public()).distinct()[:40],
        "mine": Story.objects.authored_by(request.user).select_related("table")[:20],
        "current_tag": filters.get("tag", ""),
    }
    return render(request, "stories/archive.html", context)


# -- reading ------------------------------------------------------------------------------
def _base(story: Story, shared: bool) -> str:
    if shared:
        return reverse("stories:shared", args=[story.secret])
    return reverse("stories:detail", args=[story.pk])


def _pdf_links(story: Story, base: str) -> list[tuple]:
    """Each size's way to its book: ``kept`` a download; ``waiting`` (asked for, on its way)
    the page that follows the printing, with the phase; else ``ask``: a POST to that page,
    which prints a short book at once and queues a long one (a GET never prints)."""
    builds = {
        b.page_size: b
        for b in BookBuild.objects.filter(
            story=story, language=story.language, version=printing.version(story)
        )
    }
    links = []
    for size, label in SIZE_LABELS:
        build = builds.get(size)
        status_url = f"{base}pdf/status/?size={size}"
        if printing.is_kept(build):
            links.append((size, label, f"{base}pdf/?size={size}", "kept", ""))
        elif build is not None and build.status in printing.WAITING:
            links.append((size, label, status_url, "waiting", _phase_label(build)))
        else:
            phase = (
                _phase_label(build)
                if build is not None and build.status != BookBuild.Status.NEW
                else ""
            )
            links.append((size, label, status_url, "ask", phase))
    return links


def _phase_label(build: BookBuild) -> str:
    """Where a build is, in a few words (its phase while it is being printed)."""
    if build.status == BookBuild.Status.RENDERING and build.phase:
        return build.get_phase_display()
    return build.get_status_display()


def _reading_page(request, story: Story, *, shared: bool = False):
    book = services.make_book(story)
    base = _base(story, shared)
    can_edit = story.is_author(request.user)
    context = {
        "story": story,
        "book": book,
        "can_edit": can_edit,
        "emptied": services.emptied_passages(story) if can_edit else [],
        "cover_src": base + "cover/",
        "pdf_links": _pdf_links(story, base),
        "share_url": phone_url(request, reverse("stories:shared", args=[story.secret])),
        "shared": shared,
    }
    return render(request, "stories/story_detail.html", context)


# The US paper size has a name in each language (A5 and A4 are the same everywhere).
SIZE_LABELS = [
    ("a5", "A5"),
    ("a4", "A4"),
    ("letter", pgettext_lazy("paper size", "Letter")),
]


@require_GET
def detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _reading_page(request, _readable(request, pk))


@require_GET
@guards_secret(STORY_LINKS, "secret")
def shared(request: HtmxHttpRequest, secret: str) -> HttpResponse:
    return _reading_page(request, _shared(request, secret), shared=True)


def _size(request) -> str:
    size = request.GET.get("size", DEFAULT_SIZE)
    return size if size in PAGE_SIZES else DEFAULT_SIZE


def _pdf_response(request, story: Story, *, shared: bool = False):
    size = _size(request)
    data = printing.kept_book(story, size)
    if data is None:  # not kept: the page that asks for it (a POST) or follows its printing
        return redirect(f"{_base(story, shared)}pdf/status/?size={size}")
    response = HttpResponse(data, content_type="application/pdf")
    name = slugify(story.title, allow_unicode=True) or f"story-{story.pk}"
    inline = request.GET.get("inline") == "1"
    response["Content-Disposition"] = content_disposition_header(not inline, f"{name}-{size}.pdf")
    response["Cache-Control"] = "public, max-age=300" if story.is_public() else "private"
    return response


@require_GET
def pdf(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _pdf_response(request, _readable(request, pk))


@require_GET
@guards_secret(STORY_LINKS, "secret")
def shared_pdf(request: HtmxHttpRequest, secret: str) -> HttpResponse:
    return _pdf_response(request, _shared(request, secret), shared=True)


def _pdf_status(request, story: Story, *, shared: bool = False):
    """Where a long book's printing stands. A GET only reads: the page (and, while the book is
    on its way, its htmx poll every few seconds) says the place in the queue, the phase, or
    what went wrong; a kept or short book sends the reader to the download. A POST asks for
    the book (queues its build), or, from an author, stops it."""
    size = _size(request)
    base = _base(story, shared)
    status_url = f"{base}pdf/status/?size={size}"
    pdf_url = f"{base}pdf/?size={size}"
    can_stop = story.is_author(request.user)
    if request.method == "POST":
        build = printing.current(story, size)
        if request.POST.get("action") == "stop":
            if build is not None and can_stop:
                printing.cancel(build)
        elif printing.is_kept(printing.ask(story, size)):  # a short book, printed now
            return redirect(pdf_url)
        return redirect(status_url)
    build = printing.current(story, size)
    Status = BookBuild.Status
    ready = printing.is_kept(build)
    if ready and not request.htmx:
        return redirect(pdf_url)
    waiting = build is not None and build.status in printing.WAITING
    if build is None or (build.status == Status.READY and not ready):
        status = Status.NEW  # never asked for, or its file was cleared: not kept
    else:
        status = build.status
    known = build.passages if build is not None else 0
    long = known > printing.long_passages() if known else printing.is_long(story)
    if waiting and not printing.pending(build):
        waiting, status = False, Status.NEW  # its task is gone (pruned, or failed outside it)
    context = {
        "story": story,
        "build": build,
        "status": status,
        "waiting": waiting,
        "ready": ready,
        "can_stop": can_stop,
        "story_url": base,
        "status_url": status_url,
        "pdf_url": pdf_url,
        "size_label": dict(SIZE_LABELS).get(size, size),
        "long": long,
    }
    if waiting:
        context["ahead"] = printing.place_in_queue(build)
        context["answering"] = work.answering(work.BOOKS)
        context["phases"] = [
            (value, label, value == build.phase) for value, label in BookBuild.Phase.choices
        ]
    return render(request, "stories/book_status.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
def pdf_status(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _pdf_status(request, _readable(request, pk))


@require_http_methods(["GET", "HEAD", "POST"])
@guards_secret(STORY_LINKS, "secret")
def shared_pdf_status(request: HtmxHttpRequest, secret: str) -> HttpResponse:
    return _pdf_status(request, _shared(request, secret), shared=True)


def _cover_response(request, story: Story):
    data, mime = cover_image(services.make_book(story))
    response = HttpResponse(data, content_type=mime)
    response["Cache-Control"] = "public, max-age=300" if story.is_public() else "private"
    return response


@require_GET
def cover(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _cover_response(request, _readable(request, pk))


@require_GET
@guards_secret(STORY_LINKS, "secret")
def shared_cover(request: HtmxHttpRequest, secret: str) -> HttpResponse:
    return _cover_response(request, _shared(request, secret))


def _picture_response(request, story: Story, picture: int, size: str):
    found = registry.picture(story.table, picture, size)
    return uploads.serve(request, found, public=story.is_public())


@require_GET
def picture(request: HtmxHttpRequest, pk: int, picture: int, size: str) -> HttpResponse:
    """A picture of the table's own (a custom deck's card) shown in the story."""
    return _picture_response(request, _readable(request, pk), picture, size)


@require_GET
@guards_secret(STORY_LINKS, "secret")
def shared_picture(request: HtmxHttpRequest, secret: str, picture: int, size: str) -> HttpResponse:
    return _picture_response(request, _shared(request, secret), picture, size)


# -- the authors' pages -------------------------------------------------------------------
@login_required
@require_http_methods(["GET", "POST"])
def for_table(request: AuthenticatedHttpRequest, table_pk: int) -> HttpResponse:
    """The table's story. An author's POST makes the draft (the table page's buttons send
    one); a GET never writes: before the draft is made it shows the button that makes it."""
    table = get_object_or_404(Table, pk=table_pk)
    existing = Story.objects.filter(table=table).first()
    if not is_table_author(table, request.user):
        if existing is not None and existing.is_public():
            return redirect(existing)
        raise Http404("No such story.")
    if existing is not None:
        return redirect(existing)
    if request.method == "POST":
        return redirect(story_for(table))  # in the table's language
    return render(request, "stories/story_start.html", {"table": table})


@login_required
@require_http_methods(["GET", "POST"])
def edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    story = _authored(request, pk)
    form = StoryForm(request.POST or None, request.FILES or None, instance=story)
    if request.method == "POST" and form.is_valid():
        story = form.save()
        services.refresh_search_text(story)
        messages.success(request, _("The story’s details are saved."))
        return redirect(story)
    return render(
        request,
        "stories/story_form.html",
        {"story": story, "form": form},
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_POST
def publish(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    story = _authored(request, pk)
    if request.POST.get("action") == "unpublish":
        story.published_at = None
        story.save(update_fields=["published_at", "updated_at"])
        messages.info(request, _("The story is a draft again: only its authors can read it."))
        return redirect(story)
    if not story.can_publish:
        messages.error(request, _("A story can be published once its game has ended."))
        return redirect(story)
    visibility = request.POST.get("visibility")
    if visibility in Story.Visibility.values:
        story.visibility = visibility
    story.publish()
    story.save(update_fields=["published_at", "visibility", "updated_at"])
    services.refresh_search_text(story)
    if story.visibility == Story.Visibility.PRIVATE:
        messages.success(request, _("Published, and private: only its authors can read it."))
    elif story.visibility == Story.Visibility.UNLISTED:
        messages.success(request, _("Published: anyone with the secret link can read it."))
    else:
        messages.success(request, _("Published in the archive."))
    return redirect(story)


@login_required
@require_POST
def new_link(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    story = _authored(request, pk)
    story.secret = new_secret()
    story.save(update_fields=["secret", "updated_at"])
    messages.success(request, _("A new secret link is made; the old one no longer works."))
    return redirect(story)


def _chapter_of(book: services.Book, seq: int):
    for chapter in book.chapters:
        if chapter.lead_seq == seq or any(p.seq == seq for p in chapter.passages):
            return chapter
    return None


@login_required
@require_http_methods(["GET", "POST"])
def narration(request: AuthenticatedHttpRequest, pk: int, seq: int) -> HttpResponse:
    story = _authored(request, pk)
    try:
        current = services.current_text(story, seq)
    except Move.DoesNotExist:
        raise Http404("No such move.") from None
    form = NarrationForm(request.POST or None, initial={"text": current})
    if request.method == "POST" and form.is_valid():
        try:
            services.edit_narration(story, seq, form.cleaned_data["text"], request.user)
        except ValidationError as exc:
            form.add_error("text", exc)
        except Move.DoesNotExist:
            raise Http404("No such move.") from None
        else:
            return redirect(reverse("stories:detail", args=[story.pk]) + f"#m{seq}")
    book = services.make_book(story)
    move = Move.objects.get(table=story.table, seq=seq)
    return render(
        request,
        "stories/narration_edit.html",
        {
            "story": story,
            "form": form,
            "seq": seq,
            "move": move,
            "chapter": _chapter_of(book, seq),
            "versions": services.history(story, seq),
        },
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_POST
def revert(request: AuthenticatedHttpRequest, pk: int, seq: int) -> HttpResponse:
    story = _authored(request, pk)
    version = request.POST.get("version", "")
    to = None
    if version != "original":
        pk = whole_number(version, low=1)
        if pk is None:
            raise Http404("No such version.")
        to = get_object_or_404(NarrationEdit, pk=pk, story=story, move_seq=seq)
    try:
        services.revert_narration(story, seq, to, request.user)
    except Move.DoesNotExist:
        raise Http404("No such move.") from None
    messages.success(request, _("The earlier version is restored."))
    return redirect(reverse("stories:narration", args=[story.pk, seq]))
