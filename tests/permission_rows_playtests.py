"""The permission matrix's rows for the playtests and the lab (tests/permission_rows.py says
what a row holds)."""

from __future__ import annotations

from tests.permission_rows import IMPRESSION, Row, pk
from tests.permission_world import (
    EVERYONE,
    LOGGED_IN,
    LOGGED_IN_POST,
    LOGIN,
    OWNER,
    OWNER_OR_DESIGNER,
    OWNER_POST,
    POST_ONLY,
    TOKEN,
    TOKEN_POST,
    X,
)

PLAYTEST_ROWS: list[Row] = [
    # -- playtests --
    Row("playtests:index", LOGGED_IN),
    Row(
        "playtests:table_report",
        OWNER_OR_DESIGNER,
        pk("finished"),
        post=(LOGIN, 404, LOGIN, X, 403),
        data=lambda w: {"place": "Vandalised"},
        owner_changes=True,
    ),
    Row("playtests:table_report", OWNER, pk("unshared"), variant="not shared"),
    Row("playtests:table_report_pdf", OWNER_OR_DESIGNER, pk("finished")),
    Row("playtests:table_report_pdf", OWNER, pk("unshared"), variant="not shared"),
    Row(
        "playtests:table_sharing",
        OWNER,
        pk("unshared"),
        post=OWNER_POST,
        data=lambda w: {"report_sharing": "names"},
        owner_changes=True,
    ),
    Row(
        "playtests:gm_impression",
        OWNER,
        lambda w, a: [w.finished.pk, 0],
        post=OWNER_POST,
        data=lambda w: IMPRESSION,
        owner_changes=True,
    ),
    # A seat's impressions link as a QR code: the secret link, for the owner's report only.
    Row("playtests:seat_impression_qr", OWNER, lambda w, a: [w.finished.pk, 0]),
    Row(
        "playtests:seat_impression",
        TOKEN,
        lambda w, a: [w.token(w.finished, a)],
        post=TOKEN_POST,
        data=lambda w: {**IMPRESSION, "change": "Vandalised by a seat"},
        owner_changes=True,
    ),
    Row(
        "playtests:rulesets",
        LOGGED_IN,
        lambda w, a: ["amnesia_stories"],
        post=LOGGED_IN_POST,
    ),
    Row(
        "playtests:ruleset_edit",
        (LOGIN, 403, LOGIN, 200, 200),
        pk("ruleset"),
        post=(LOGIN, 403, LOGIN, X, X),
        data=lambda w: {"changelog": "Vandalised"},
    ),
    Row("playtests:ruleset_pdf", (LOGIN, 403, LOGIN, 200, 200), pk("ruleset")),
    Row("playtests:dashboard", (LOGIN, 403, LOGIN, 200, 200), lambda w, a: ["amnesia_stories"]),
    Row("playtests:export_csv", (LOGIN, 403, LOGIN, 200, 200), lambda w, a: ["amnesia_stories"]),
    Row("playtests:export_json", (LOGIN, 403, LOGIN, 200, 200), lambda w, a: ["amnesia_stories"]),
    Row(
        "playtests:review_external",
        POST_ONLY,
        pk("external"),
        post=(LOGIN, 403, LOGIN, X, X),
        data=lambda w: {"decision": "approve"},
        owner_changes=True,
    ),
    Row(
        "playtests:publish_external",
        POST_ONLY,
        pk("external"),
        post=(LOGIN, 403, LOGIN, X, X),
        data=lambda w: {"publish": "1"},
        owner_changes=True,
    ),
    # -- the lab: designers of the game; a run is its owner's unless shared --
    Row(
        "playtests:lab",
        (LOGIN, 403, LOGIN, 200, 200),
        lambda w, a: ["amnesia_stories"],
        post=(LOGIN, 403, LOGIN, X, X),
        data=lambda w: {"players": 4, "games": 1, "bots": "random", "seed": 1},
        owner_changes=True,
    ),
    Row("playtests:run_detail", OWNER, pk("run")),
    # A run read as a study, and one of its games replayed (the run's owner only).
    Row("playtests:study", OWNER, pk("run")),
    Row("playtests:run_game", OWNER, lambda w, a: [w.run.pk, 1]),
    Row("playtests:run_game_open", (LOGIN, 404, LOGIN, 302, 404), pk("run")),
    Row(
        "playtests:study_new",
        (LOGIN, 403, LOGIN, 200, 200),
        lambda w, a: ["amnesia_stories"],
        post=(LOGIN, 403, LOGIN, X, X),
    ),
    Row("playtests:run_compare", OWNER, pk("run"), query=lambda w: {"other": w.run.pk}),
    Row("playtests:run_export", OWNER, lambda w, a: [w.run.pk, "csv"]),
    Row("playtests:run_export", OWNER, lambda w, a: [w.run.pk, "json"], variant="json"),
    Row("playtests:run_cancel", POST_ONLY, pk("run"), post=OWNER_POST),
    Row("playtests:run_delete", POST_ONLY, pk("run"), post=OWNER_POST),
    Row(
        "playtests:run_share",
        POST_ONLY,
        pk("run"),
        post=OWNER_POST,
        data=lambda w: {"username": "designer"},
        owner_changes=True,
    ),
    Row(
        "playtests:run_save_ruleset",
        POST_ONLY,
        pk("run"),
        post=OWNER_POST,
        data=lambda w: {"name": "Vandalised"},
        owner_changes=True,
    ),
    Row("playtests:published", EVERYONE, lambda w, a: ["amnesia_stories"]),
    Row("playtests:public_report", EVERYONE, lambda w, a: ["amnesia_stories"]),
    Row(
        "playtests:public_report_for",
        EVERYONE,
        lambda w, a: ["amnesia_stories", w.ruleset.pk],
    ),
]
