"""The permission matrix's rows for the stories (tests/permission_rows.py says what a row
holds)."""

from __future__ import annotations

from tests.permission_rows import (
    BY_ID,
    BY_SECRET,
    STORY_EDIT,
    Row,
    guessed_secret_row,
    picture,
    redirected,
    story_rows,
)
from tests.permission_world import EVERYONE, LOGGED_IN, LOGIN, OWNER, OWNER_POST, POST_ONLY, X

STORY_ROWS: list[Row] = [
    # -- stories --
    Row("stories:archive", EVERYONE),
    Row(
        "stories:for_table",
        (LOGIN, 404, LOGIN, 302, 404),
        lambda w, a: [w.stories["private"].table_id],
        variant="private",
    ),
    Row(
        "stories:for_table",
        (LOGIN, 302, LOGIN, 302, 302),
        lambda w, a: [w.stories["public"].table_id],
        variant="public",
    ),
    # No draft made yet: the authors' GET shows the button that makes it (a POST), and writes
    # nothing; the owner's POST makes it.
    Row(
        "stories:for_table",
        (LOGIN, 404, LOGIN, 200, 404),
        lambda w, a: [w.amnesia.pk],
        variant="no draft yet",
        post=(LOGIN, 404, LOGIN, X, 404),
        owner_changes=True,
    ),
    *story_rows("detail", "pk", BY_ID),
    # A book not kept: its download (a GET prints nothing) sends the reader to its page, which
    # asks for it with a POST.
    *story_rows("pdf", "pk", {k: redirected(v) for k, v in BY_ID.items()}),
    *story_rows("pdf_status", "pk", BY_ID),
    *story_rows("cover", "pk", BY_ID),
    *story_rows("picture", "pk", BY_ID, extra=picture),
    *story_rows("shared", "secret", BY_SECRET),
    *story_rows("shared_pdf", "secret", {k: redirected(v) for k, v in BY_SECRET.items()}),
    *story_rows("shared_pdf_status", "secret", BY_SECRET),
    guessed_secret_row("shared_pdf_status"),
    *story_rows("shared_cover", "secret", BY_SECRET),
    *story_rows("shared_picture", "secret", BY_SECRET, extra=picture),
    *story_rows("epub", "pk", BY_ID),
    *story_rows("single_html", "pk", BY_ID),
    *story_rows("shared_epub", "secret", BY_SECRET),
    *story_rows("shared_single_html", "secret", BY_SECRET),
    guessed_secret_row("shared_epub"),
    Row("stories:table_play", OWNER, lambda w, a: [w.finished.pk]),
    Row("stories:my_plays_json", LOGGED_IN),
    Row("stories:my_plays_csv", LOGGED_IN),
    Row(
        "stories:bundle_import",
        (LOGIN, 403, LOGIN, 200, 200),
        post=(LOGIN, 403, LOGIN, X, X),
    ),
    guessed_secret_row("shared"),
    guessed_secret_row("shared_picture", extra=picture),
    Row(
        "stories:edit",
        OWNER,
        lambda w, a: [w.stories["public"].pk],
        post=OWNER_POST,
        data=lambda w: {**STORY_EDIT, "visibility": "public"},
        owner_changes=True,
    ),
    Row(
        "stories:publish",
        POST_ONLY,
        lambda w, a: [w.stories["public"].pk],
        post=OWNER_POST,
        data=lambda w: {"action": "unpublish"},
        owner_changes=True,
    ),
    Row(
        "stories:new_link",
        POST_ONLY,
        lambda w, a: [w.stories["unlisted"].pk],
        post=OWNER_POST,
        owner_changes=True,
    ),
    Row(
        "stories:narration",
        OWNER,
        lambda w, a: [w.stories["private"].pk, 1],
        post=OWNER_POST,
        data=lambda w: {"text": "Vandalised"},
        owner_changes=True,
    ),
    Row(
        "stories:revert",
        POST_ONLY,
        lambda w, a: [w.stories["private"].pk, 1],
        post=OWNER_POST,
        data=lambda w: {"version": "original"},
        owner_changes=True,  # after the narration's edit above
    ),
]
